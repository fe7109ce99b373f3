/**
 * A workspace's contacts and the data team's contact source (store_contacts). Emails arrive
 * here normalised (core/email.ts); the unique index (workspace_id, email) keeps one contact
 * per email, so a duplicate — also one that races another — answers the existing contact's id,
 * on an add (ON CONFLICT DO NOTHING) and on a change of email (a savepoint around the UPDATE).
 */
import { type Kysely, sql } from 'kysely';
import { isUniqueViolation } from '../db/errors.js';
import { lockRows } from '../db/locks.js';
import { datedAfter } from '../core/dated.js';
import type { ContactRow } from './tables.js';
import type { Database } from '../db/database.js';

/** A contact as the API answers it. */
export type ContactView = { object: 'contact' } & Omit<ContactRow, 'workspace_id'>;

export function toContactView(r: ContactRow): ContactView {
  return {
    object: 'contact',
    id: r.id,
    store_id: r.store_id,
    name: r.name,
    email: r.email,
    role: r.role,
    source: r.source,
    source_detail: r.source_detail,
    created_by: r.created_by,
    created_at: r.created_at,
    updated_at: r.updated_at,
  };
}

/** The id of the workspace's contact with this (normalised) email, if any. */
export async function contactIdByEmail(q: Kysely<Database>, workspaceId: string, email: string): Promise<string | undefined> {
  const row = await q.selectFrom('contacts').select('id').where('workspace_id', '=', workspaceId).where('email', '=', email).executeTakeFirst();
  return row?.id;
}

/**
 * Inserts a contact unless the workspace already has one with its email: resolves to the new
 * row, or `{ existing: id }`. A concurrent insert of the same email waits for the other and
 * then finds it (ON CONFLICT DO NOTHING never aborts the transaction).
 */
export async function insertContact(trx: Kysely<Database>, row: ContactRow): Promise<ContactRow | { existing: string }> {
  const inserted = await trx
    .insertInto('contacts')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'email']).doNothing())
    .returningAll()
    .executeTakeFirst();
  if (inserted) return inserted;
  const existing = await contactIdByEmail(trx, row.workspace_id, row.email);
  if (!existing) throw new Error(`contact insert of ${row.id} conflicted with no visible row`);
  return { existing };
}

export async function getContact(q: Kysely<Database>, workspaceId: string, id: string): Promise<ContactRow | undefined> {
  return q.selectFrom('contacts').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
}

export interface ContactChange {
  name?: string | null;
  email?: string;
  role?: string | null;
}

/** The fields a change may give, in the order they are compared. */
const CHANGEABLE = ['name', 'email', 'role'] as const;

/**
 * Applies the change: the row after it, undefined when the workspace has no such contact, or
 * `{ taken: id }` naming the contact that holds the new email. Only fields whose value differs
 * from the stored one are written; when none does, nothing is written and the row comes back as
 * it was, `updated_at` included (a client syncing on `updated_at` sees no change that did not
 * happen). The email arrives normalised, so one differing only in its domain's case is the same.
 * The UPDATE runs in a savepoint: when a concurrent change gave the email to another contact
 * first, the unique index refuses this one (after waiting for the other to commit) and only the
 * savepoint is undone, so the caller's transaction goes on and reads the holder.
 */
export async function updateContact(trx: Kysely<Database>, workspaceId: string, id: string, change: ContactChange, now: Date): Promise<ContactRow | { taken: string } | undefined> {
  // Locked: what is compared is what the write replaces (a change committed meanwhile is waited
  // for, then compared with), and two changes of one contact are dated in the order they commit.
  const [current] = await lockRows(trx, 'contacts', { workspace_id: workspaceId, id });
  if (!current) return undefined;
  const changed = CHANGEABLE.filter((f) => change[f] !== undefined && change[f] !== current[f]);
  if (changed.length === 0) return current;
  const write: Partial<ContactRow> = Object.fromEntries(changed.map((f) => [f, change[f]]));
  if (write.email !== undefined) {
    const holder = await contactIdByEmail(trx, workspaceId, write.email);
    if (holder !== undefined && holder !== id) return { taken: holder };
  }
  await sql`savepoint contact_update`.execute(trx);
  try {
    const row = await trx
      .updateTable('contacts')
      .set({ ...write, updated_at: datedAfter(now, current.updated_at).toISOString() })
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .returningAll()
      .executeTakeFirst();
    await sql`release savepoint contact_update`.execute(trx);
    return row;
  } catch (e) {
    if (write.email === undefined || !isUniqueViolation(e)) throw e;
    await sql`rollback to savepoint contact_update`.execute(trx);
    await sql`release savepoint contact_update`.execute(trx);
    const holder = await contactIdByEmail(trx, workspaceId, write.email);
    if (holder === undefined) throw e;
    return { taken: holder };
  }
}

export interface ContactFilter {
  /** Exact (normalised) email. */
  email?: string;
  /** Case-insensitive part of the name. */
  name?: string;
  storeId?: string;
  /** Case-insensitive part of the name, email, role or store id. */
  text?: string;
  /** Continue after this (created_at, id). */
  after?: { created_at: string; id: string };
  limit: number;
}

/** `%`, `_` and `\` taken literally in a LIKE pattern (ESCAPE '\'). */
const likeContaining = (s: string): string => `%${s.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The workspace's contacts matching every given filter, oldest first (created_at, then id). */
export async function findContacts(q: Kysely<Database>, workspaceId: string, f: ContactFilter): Promise<ContactRow[]> {
  let query = q.selectFrom('contacts').selectAll().where('workspace_id', '=', workspaceId);
  if (f.email !== undefined) query = query.where('email', '=', f.email);
  if (f.storeId !== undefined) query = query.where('store_id', '=', f.storeId);
  if (f.name !== undefined) query = query.where(sql<boolean>`lower(name) like ${likeContaining(f.name)} escape '\\'`);
  if (f.text !== undefined) {
    const p = likeContaining(f.text);
    query = query.where(
      sql<boolean>`(lower(name) like ${p} escape '\\' or lower(email) like ${p} escape '\\' or lower(role) like ${p} escape '\\' or lower(store_id) like ${p} escape '\\')`,
    );
  }
  if (f.after) {
    const { created_at, id } = f.after;
    query = query.where((eb) => eb.or([eb('created_at', '>', created_at), eb.and([eb('created_at', '=', created_at), eb('id', '>', id)])]));
  }
  return query.orderBy('created_at').orderBy('id').limit(f.limit).execute();
}

/** A store's contacts in the workspace, in the API's shape, oldest first (the account detail lists them). */
export async function contactsOfStore(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<ContactView[]> {
  const rows = await q.selectFrom('contacts').selectAll().where('workspace_id', '=', workspaceId).where('store_id', '=', storeId).orderBy('created_at').orderBy('id').execute();
  return rows.map(toContactView);
}

export interface StoreContact {
  store_id: string;
  email: string;
  name: string | null;
  role: string | null;
  source: string | null;
}

/** The contact source's row for (store, email), if the source lists it. */
export async function storeContact(q: Kysely<Database>, storeId: string, email: string): Promise<StoreContact | undefined> {
  return q.selectFrom('store_contacts').selectAll().where('store_id', '=', storeId).where('email', '=', email).executeTakeFirst();
}

/** The source's contacts of a store whose email the workspace has not saved yet, by email. */
export async function contactSuggestions(q: Kysely<Database>, workspaceId: string, storeId: string, limit?: number): Promise<StoreContact[]> {
  const query = q
    .selectFrom('store_contacts as s')
    .selectAll('s')
    .where('s.store_id', '=', storeId)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('contacts as c').select('c.id').where('c.workspace_id', '=', workspaceId).whereRef('c.email', '=', 's.email'))),
    )
    .orderBy('s.email');
  return (limit === undefined ? query : query.limit(limit)).execute();
}

/** The contact source store_contacts holds now (null before the first load). */
export async function ingestedContacts(q: Kysely<Database>): Promise<{ source_id: string; rows: number } | null> {
  const row = await q.selectFrom('ingested_contacts').select(['source_id', 'rows']).where('id', '=', 'current').executeTakeFirst();
  return row ? { source_id: row.source_id, rows: Number(row.rows) } : null;
}

/**
 * The contacts of the source whose store no ingested month holds, counted, with the first by
 * store id: discovery never suggests them (a source keyed by domain, or another id scheme, is
 * loaded whole and matches nothing).
 */
export async function contactsWithoutStore(q: Kysely<Database>): Promise<{ count: number; first: string | null }> {
  const row = await q
    .selectFrom('store_contacts as sc')
    .select((eb) => [eb.fn.countAll<string | number>().as('count'), eb.fn.min('sc.store_id').as('first')])
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('store_months as sm')
            .innerJoin('ingested_months as im', (j) => j.onRef('im.month', '=', 'sm.month').onRef('im.run_id', '=', 'sm.run_id'))
            .select('sm.store_id')
            .whereRef('sm.store_id', '=', 'sc.store_id'),
        ),
      ),
    )
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), first: row.first ?? null };
}

/** Rows per insert (under SQLite's bound-parameter limit). */
const CHUNK = 500;

/**
 * Replaces the whole contact source in the caller's transaction (readers see the old one or the
 * new one); `sourceId` null empties it (the runs folder names no source any more).
 */
export async function replaceStoreContacts(trx: Kysely<Database>, sourceId: string | null, rows: readonly StoreContact[], now: Date): Promise<void> {
  await trx.deleteFrom('store_contacts').execute();
  await trx.deleteFrom('ingested_contacts').execute();
  if (sourceId === null) return;
  for (let i = 0; i < rows.length; i += CHUNK) await trx.insertInto('store_contacts').values(rows.slice(i, i + CHUNK)).execute();
  await trx.insertInto('ingested_contacts').values({ id: 'current', source_id: sourceId, rows: rows.length, loaded_at: now.toISOString() }).execute();
}
