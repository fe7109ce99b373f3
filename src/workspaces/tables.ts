/**
 * Table types of the tenancy (workspaces): one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Generated, Selectable } from 'kysely';

export interface WorkspacesTable {
  id: string;
  name: string;
  /** The name as names are compared (name-key.ts), unique; null only in rows written without it (tests' own inserts). */
  name_key: string | null;
  /** 1 when the workspace has approved pilot access (pilot operations). */
  pilot_access: Generated<number>;
  /** JSON array of activation names this workspace has (activation-gated operations). */
  activations: Generated<string>;
  /** The current ranking version (accounts/rankings.ts); cursors walk the version they were issued on. */
  ranking_version: Generated<number>;
  /** The last ranking version number handed out (versions are written before they become current). */
  ranking_seq: Generated<number>;
  /** Bumped by every change to the workspace's accounts rows (not by delivery marks): pages read at one version can be reused. */
  accounts_version: Generated<number>;
  /** Bumped by every status decision that moves an account onto or off the in-market list (accounts/store.ts setAccountStatus): a ranking version's list records the count it applied. */
  status_seq: Generated<number>;
  created_at: string;
}

/** A workspace's preferences (today only who may read its wallet), in the table shipped as `workspace_settings`. */
export interface WorkspacePreferencesTable {
  workspace_id: string;
  wallet_visibility: 'owners' | 'all';
}

/** A workspace as the API sees it (ranking_seq and status_seq are the ranking writer's own counters). */
export type Workspace = Omit<Selectable<WorkspacesTable>, 'ranking_seq' | 'status_seq' | 'name_key'>;

/** The workspaces tables, by name: added to the workspace database (db/database.ts) below. */
export interface WorkspacesTables {
  workspaces: WorkspacesTable;
  workspace_settings: WorkspacePreferencesTable;
}

declare module '../db/database.js' {
  // The workspaces tables join the workspace database (db/database.ts).
  interface Database extends WorkspacesTables {}
}
