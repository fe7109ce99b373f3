/**
 * Table types of the API platform: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Selectable } from 'kysely';

export interface ApiKeysTable {
  id: string;
  workspace_id: string;
  name: string;
  /** Visible part of the key, e.g. `slk_3f9a2c7d1b0e`; the secret part is never stored. */
  prefix: string;
  /** sha256 hex of the whole key. */
  hash: string;
  /** JSON array of scopes. */
  scopes: string;
  created_by: string;
  created_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
}

export interface IdempotencyKeysTable {
  workspace_id: string;
  idem_key: string;
  fingerprint: string;
  /** null while the first request is in progress. */
  status: number | null;
  response: string | null;
  created_ms: number;
}

export interface RateCountersTable {
  api_key_id: string;
  kind: string;
  window_ms: number;
  /** Admitted calls of the window. */
  count: number;
  /** The count before the last write (0 after the first). */
  prev: number;
}

/** SQLite only (migration 0030): one row (id 1) whose n moves with every change authenticating reads. */
export interface AuthRevisionTable {
  id: number;
  n: number;
}

export type ApiKeyRow = Selectable<ApiKeysTable>;

/** The api tables, by name: added to the workspace database (db/database.ts) below. */
export interface ApiTables {
  api_keys: ApiKeysTable;
  idempotency_keys: IdempotencyKeysTable;
  rate_counters: RateCountersTable;
  auth_revision: AuthRevisionTable;
}


declare module '../db/database.js' {
  // The api tables join the workspace database (db/database.ts).
  interface Database extends ApiTables {}
}
