/**
 * Adding a contact: the row through the store and `contact.created` (contacts/events.ts) in the
 * same transaction. Contacts found by discovery are suggestions and emit nothing.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { appendEvents } from '../webhooks/index.js';
import { type ContactView, insertContact, toContactView } from './store.js';
import type { ContactRow } from './tables.js';

/** Adds the contact and emits `contact.created`; `existing` names the contact that already has its email (nothing written). */
export async function addContact(trx: Kysely<Database>, row: ContactRow, now: Date): Promise<ContactView | { existing: string }> {
  const result = await insertContact(trx, row);
  if ('existing' in result) return result;
  const contact = toContactView(result);
  await appendEvents(trx, row.workspace_id, [{ type: 'contact.created', data: { contact } }], now);
  return contact;
}
