/**
 * Table types of the contacts module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Selectable } from 'kysely';

/** A workspace's contact (email normalised: trimmed, domain lower-cased; unique per workspace). */
export interface ContactsTable {
  id: string;
  workspace_id: string;
  store_id: string;
  name: string | null;
  email: string;
  role: string | null;
  /** `discovered` when the store's contact source listed the email when it was added, else `manual`. */
  source: 'manual' | 'discovered';
  /** The contact source's own `source` column for a discovered contact. */
  source_detail: string | null;
  /** `key:<id>` or `member:<email>`. */
  created_by: string;
  created_at: string;
  updated_at: string;
}

/** One row of the data team's contact source (not per workspace; replaced whole by ingest). */
export interface StoreContactsTable {
  store_id: string;
  email: string;
  name: string | null;
  role: string | null;
  source: string | null;
}

/** Which contact source store_contacts holds: one row, id `current`. */
export interface IngestedContactsTable {
  id: string;
  /** The source's content id in the runs folder (index.json `contacts`). */
  source_id: string;
  rows: number;
  loaded_at: string;
}

export type ContactRow = Selectable<ContactsTable>;

/** The contacts tables, by name: added to the workspace database (db/database.ts) below. */
export interface ContactsTables {
  contacts: ContactsTable;
  store_contacts: StoreContactsTable;
  ingested_contacts: IngestedContactsTable;
}


declare module '../db/database.js' {
  // The contacts tables join the workspace database (db/database.ts).
  interface Database extends ContactsTables {}
}
