/**
 * The contacts module's event (emitted by add-contact.ts, in the transaction that adds the
 * contact), and the contact as the API and the event show it. A leaf: zod and src/core only.
 */
import { z } from 'zod';
import { type CatalogueEntry, defineEvent } from '../core/event-declaration.js';

export const Contact = z.object({
  object: z.literal('contact'),
  id: z.string(),
  store_id: z.string(),
  name: z.string().nullable(),
  email: z.string().describe('Normalised: trimmed, the domain lower-cased'),
  role: z.string().nullable(),
  source: z.enum(['manual', 'discovered']).describe('`discovered` when the contact source listed this email for the store when it was added, else `manual`'),
  source_detail: z.string().nullable().describe("For a discovered contact: where the data team's source found it"),
  created_by: z.string().describe('`key:<key id>` for a contact added through the API'),
  created_at: z.string(),
  updated_at: z.string(),
});

export const CONTACT_EVENTS = [
  defineEvent({
    type: 'contact.created',
    summary: 'A contact was added (add_contact)',
    description: 'Emitted by `add_contact`, in the transaction that adds the contact. Suggestions of `discover_contacts` emit nothing.',
    payload: z.object({ contact: Contact.describe('The contact as `get_contact` answers it') }),
    example: {
      contact: {
        object: 'contact',
        id: 'con_84f290fd4e9876cf699b',
        store_id: 's-000123',
        name: 'Maya Buyer',
        email: 'maya.buyer@example.com',
        role: 'Buyer',
        source: 'manual',
        source_detail: null,
        created_by: 'key:key_910fe256b3cf1ff814e5',
        created_at: '2026-11-23T10:07:00.000Z',
        updated_at: '2026-11-23T10:07:00.000Z',
      },
    },
  }),
] as const;

/** The catalogue (compose/events.ts) finds this list and orders it by its place, docs/webhooks.md's order. */
export const catalogue: CatalogueEntry = { place: 20, events: CONTACT_EVENTS };

declare module '../core/event-declaration.js' {
  interface EventCatalog {
    contacts: typeof CONTACT_EVENTS;
  }
}
