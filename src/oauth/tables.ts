/**
 * Table types of the oauth module: one shape for SQLite and PostgreSQL (booleans are 0/1
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

/** Whose an OAuth grant is: one member, one assistant (client), one workspace. */
export interface OauthGrantsTable {
  grant_id: string;
  email: string;
  workspace_id: string;
  client_id: string;
  created_ms: number | string;
}

/** The oauth tables, by name: added to the workspace database (db/database.ts) below. */
export interface OauthTables {
  oauth_records: OauthRecordsTable;
  oauth_grants: OauthGrantsTable;
}


declare module '../db/database.js' {
  // The oauth tables join the workspace database (db/database.ts).
  interface Database extends OauthTables {}
}
