/**
 * Table types of the oauth aggregate: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */


export interface OauthRecordsTable {
  model: string;
  id: string;
  payload: string;
  grant_id: string | null;
  uid: string | null;
  user_code: string | null;
  expires_ms: number | string | null;
  consumed_ms: number | string | null;
}

/** The oauth tables, by name: part of the workspace database (compose/database.ts). */
export interface OauthTables {
  oauth_records: OauthRecordsTable;
}
