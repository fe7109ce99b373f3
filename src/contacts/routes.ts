/**
 * Contacts: the people a workspace works with at its accounts' stores. One contact per email in
 * a workspace (emails normalised: trimmed, domain lower-cased); `discover` suggests contacts
 * from the data team's contact source without creating any.
 */
import { z } from 'zod';
import { keptText } from '../core/text.js';
import { storeVisible } from '../workspaces/visibility.js';
import { contactSuggestions, findContacts, getContact, storeContact, toContactView, updateContact } from './store.js';
import { addContact } from './add-contact.js';
import { newId } from '../db/ids.js';
import { Contact } from './events.js';
import { listPager } from '../api/cursor.js';
import { ApiProblem } from '../api/problems.js';
import { byIdRoute, defineRoute } from '../api/route-def.js';
import { Email, idParam, keptString, page, pageQuery, patchBody, storeId } from '../api/schemas.js';

const ContactSuggestion = z.object({
  object: z.literal('contact_suggestion'),
  store_id: z.string(),
  name: z.string().nullable(),
  email: z.string(),
  role: z.string().nullable(),
  source: z.string().nullable().describe("Where the data team's contact source found the contact"),
});

const email = Email.describe('An email address; stored trimmed with its domain lower-cased, and unique in the workspace');
// Kept as every door keeps text (core/text.ts: blanks trimmed, CRLF read as LF, Unicode NFC), as
// the contact source's name and role are: one person reads alike whichever door they came in by;
// nothing left ⇒ 400 (leave the field out, or clear it with null).
const name = keptString(200);
const role = keptString(200);

const DISCOVER_MAX = 100;

const notVisible = (storeId: string) => new ApiProblem('not-found', `No account "${storeId}" in this workspace.`);
const noContact = (id: string) => new ApiProblem('not-found', `No contact "${id}" in this workspace.`);
const duplicate = (email: string, existing: string) =>
  new ApiProblem('conflict', `The workspace already has a contact with the email "${email}": ${existing}.`, {}, { existing_contact_id: existing });

const common = { tag: 'Contacts', planned: 'available' as const };

export const contactRoutes = [
  defineRoute({
    ...common,
    operationId: 'find_contacts',
    method: 'GET',
    path: '/contacts',
    summary: 'Find existing contacts',
    description:
      "The workspace's contacts, oldest first, paged. `email` (exact, compared normalised), `name` (part of it, any case), `store_id` (exact) and `q` (part of the name, email, role or store id, any case) narrow the list and combine; a cursor continues only the walk of the filters it was issued for (other filters ⇒ 400). Filters narrow the workspace's own contacts and look nothing up: a `store_id` it has no contacts at (another workspace's store included) gives an empty page, and one it no longer sees still finds its contacts; an `email` that is no email address ⇒ 400.",
    scope: 'read:accounts',
    kind: 'read',
    query: z.strictObject({
      ...pageQuery,
      email: Email.optional().describe('Only the contact with this email (trimmed, domain in any case); text that is no email address ⇒ 400; part of one: `q`'),
      // Kept as the names and roles it searches are (NFC above all): `e` + U+0301 finds "élodie".
      name: keptString(200).optional().describe('Only contacts whose name contains this, in any case'),
      store_id: storeId.optional().describe("Only this store's contacts"),
      q: keptString(200).optional().describe('Only contacts whose name, email, role or store id contains this, in any case'),
    }),
    response: page(Contact),
    problems: [400],
    async handler({ db, workspace, query, cursorSecret }) {
      const filters = { email: query.email, name: query.name, store_id: query.store_id, q: query.q };
      const p = listPager(cursorSecret, workspace.id, { contacts: filters }, query.cursor);
      const after = p.after && { created_at: new Date(p.after.s).toISOString(), id: p.after.i };
      const rows = await findContacts(db.kysely, workspace.id, { email: filters.email, name: filters.name, storeId: filters.store_id, text: filters.q, after, limit: query.limit + 1 });
      return { status: 200, body: p.page(rows, query.limit, (c) => ({ s: Date.parse(c.created_at), i: c.id }), toContactView) };
    },
  }),
  byIdRoute({
    ...common,
    operationId: 'get_contact',
    path: '/contacts/{id}',
    summary: 'Read one contact',
    description: "Another workspace's contact id ⇒ 404.",
    scope: 'read:accounts',
    what: 'contact',
    response: Contact,
    find: getContact,
    missing: noContact,
    toBody: toContactView,
  }),
  defineRoute({
    ...common,
    operationId: 'add_contact',
    method: 'POST',
    path: '/contacts',
    summary: 'Add a contact',
    description:
      'Adds a contact for a store the workspace can see (else 404). The email is stored trimmed with its domain lower-cased; one the workspace already has (in any case of its domain) ⇒ 409 naming the existing contact (`existing_contact_id`). A contact whose email the contact source lists for the store is `discovered` (with the source), any other `manual`. Emits `contact.created` with the contact.',
    scope: 'write:contacts',
    kind: 'write',
    body: z.strictObject({ store_id: storeId, email, name: name.optional(), role: role.optional() }),
    response: Contact,
    location: '/contacts/{id}',
    status: 201,
    problems: [400, 404, 409],
    async handler({ tx, workspace, key, body, now }) {
      if (!(await storeVisible(tx, workspace.id, body.store_id))) throw notVisible(body.store_id);
      const known = await storeContact(tx, body.store_id, body.email);
      const at = now.toISOString();
      const contact = await addContact(tx, {
        id: newId('con'),
        workspace_id: workspace.id,
        store_id: body.store_id,
        name: body.name ?? null,
        email: body.email,
        role: body.role ?? null,
        source: known ? 'discovered' : 'manual',
        source_detail: known?.source ?? null,
        created_by: `key:${key.id}`,
        created_at: at,
        updated_at: at,
      }, now);
      if ('existing' in contact) throw duplicate(body.email, contact.existing);
      return { status: 201, body: contact };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'update_contact',
    method: 'PATCH',
    path: '/contacts/{id}',
    summary: 'Update a contact',
    description:
      'Changes the given fields (`null` clears a name or role); a body naming none ⇒ 400. A new email is normalised like on add; one another contact of the workspace has ⇒ 409 naming it. Only values that differ count: a change that changes none (an email differing only in its domain\'s case included) writes nothing and answers the contact as it was, `updated_at` unchanged. Another workspace\'s contact id ⇒ 404. Emits no event.',
    scope: 'write:contacts',
    kind: 'write',
    params: idParam('contact'),
    body: patchBody({ email: email.optional(), name: name.nullable().optional(), role: role.nullable().optional() }),
    response: Contact,
    problems: [400, 404, 409],
    async handler({ tx, workspace, params, body, now }) {
      const row = await updateContact(tx, workspace.id, params.id, { name: body.name, role: body.role, email: body.email }, now);
      if (row && 'taken' in row) throw duplicate(body.email!, row.taken);
      if (!row) throw noContact(params.id);
      return { status: 200, body: toContactView(row) };
    },
  }),
  defineRoute({
    ...common,
    operationId: 'discover_contacts',
    method: 'POST',
    path: '/contacts/discover',
    summary: 'Discover new contacts for a store',
    description: `Suggests contacts for a store the workspace can see (else 404) from the contact source the data team supplies, each with its source, leaving out emails the workspace has already saved (at most ${DISCOVER_MAX}, by email). \`roles\` keeps the suggestions whose role is one of them (any case). Creates nothing (add a suggestion with add_contact) and emits no event.`,
    scope: 'write:contacts',
    kind: 'write',
    body: z.strictObject({ store_id: storeId, roles: z.array(z.string().min(1).max(100)).min(1).max(20).optional() }),
    response: z.object({ object: z.literal('list'), data: z.array(ContactSuggestion) }),
    problems: [400, 404, 409],
    async handler({ tx, workspace, body }) {
      if (!(await storeVisible(tx, workspace.id, body.store_id))) throw notVisible(body.store_id);
      // A role compared in any case, each side kept as every door keeps text (core/text.ts: CRLF
      // read as LF, Unicode NFC), so a role given as the contact source's file wrote it finds it.
      const fold = (r: string) => (keptText(r) ?? '').trim().toLowerCase();
      const roles = body.roles && new Set(body.roles.map(fold));
      const found = await contactSuggestions(tx, workspace.id, body.store_id, roles ? undefined : DISCOVER_MAX);
      const data = found
        .filter((s) => !roles || (s.role !== null && roles.has(fold(s.role))))
        .slice(0, DISCOVER_MAX)
        .map((s) => ({ object: 'contact_suggestion' as const, store_id: s.store_id, name: s.name, email: s.email, role: s.role, source: s.source }));
      return { status: 200, body: { object: 'list' as const, data } };
    },
  }),
];
