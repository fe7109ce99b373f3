/** Contacts of accounts (designed; unavailable until the contacts work implements them). */
import { z } from 'zod';
import { defineRoute } from '../route-def.js';
import { idParam, page, pageQuery } from '../schemas.js';

const Contact = z.object({
  object: z.literal('contact'),
  id: z.string(),
  store_id: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  role: z.string().nullable(),
  source: z.enum(['manual', 'discovered']),
  created_at: z.string(),
  updated_at: z.string(),
});

const contactFields = {
  name: z.string().max(200).optional(),
  email: z.email().optional(),
  role: z.string().max(200).optional(),
};

const common = { tag: 'Contacts', planned: 'available' as const };

export const contactRoutes = [
  defineRoute({
    ...common,
    operationId: 'find_contacts',
    method: 'GET',
    path: '/contacts',
    summary: 'Find existing contacts',
    scope: 'read:accounts',
    kind: 'read',
    query: z.strictObject({ ...pageQuery, store_id: z.string().optional(), email: z.string().optional(), q: z.string().max(200).optional() }),
    response: page(Contact),
    problems: [400],
  }),
  defineRoute({
    ...common,
    operationId: 'add_contact',
    method: 'POST',
    path: '/contacts',
    summary: 'Add a contact',
    description: 'Emits `contact.created`.',
    scope: 'write:contacts',
    kind: 'write',
    body: z.strictObject({ store_id: z.string().min(1), ...contactFields }),
    response: Contact,
    status: 201,
    problems: [400, 409, 422],
  }),
  defineRoute({
    ...common,
    operationId: 'update_contact',
    method: 'PATCH',
    path: '/contacts/{id}',
    summary: 'Update a contact',
    scope: 'write:contacts',
    kind: 'write',
    params: idParam('contact'),
    body: z.strictObject(contactFields),
    response: Contact,
    problems: [400, 404, 409],
  }),
  defineRoute({
    ...common,
    operationId: 'discover_contacts',
    method: 'POST',
    path: '/contacts/discover',
    summary: 'Discover new contacts for a store',
    description: 'Suggests contacts not yet saved; emits no event.',
    scope: 'write:contacts',
    kind: 'write',
    body: z.strictObject({ store_id: z.string().min(1), roles: z.array(z.string().max(100)).max(20).optional() }),
    response: z.object({ object: z.literal('list'), data: z.array(Contact.omit({ id: true }).extend({ id: z.null() })) }),
    problems: [400, 404, 409, 422],
  }),
];
