/** API keys: stored only as a hash, found by hash, listed by their visible prefix. */
import { type Kysely, sql } from 'kysely';
import { prepared } from '../db/prepared.js';
import type { ApiKeyRow } from './tables.js';
import type { Database } from '../db/database.js';
import type { Role } from '../core/roles.js';
import type { Workspace } from '../workspaces/tables.js';

export interface NewApiKey {
  id: string;
  workspace_id: string;
  name: string;
  prefix: string;
  hash: string;
  scopes: readonly string[];
  created_by: string;
  created_at: string;
}

export interface ApiKeyInfo extends Omit<ApiKeyRow, 'scopes'> {
  scopes: string[];
}

export interface KeyWithWorkspace {
  key: ApiKeyInfo;
  workspace: Workspace;
  /** The role its creator holds in the workspace now; null when no longer a member. */
  creatorRole: Role | null;
}

const info = (row: ApiKeyRow): ApiKeyInfo => ({ ...row, scopes: JSON.parse(row.scopes) as string[] });

export async function insertApiKey(q: Kysely<Database>, key: NewApiKey): Promise<ApiKeyInfo> {
  const row = { ...key, scopes: JSON.stringify([...key.scopes]), revoked_at: null, last_used_at: null };
  await q.insertInto('api_keys').values(row).execute();
  return info(row);
}

type KeyLookupRow = ApiKeyRow & { c_role: Role | null; w_name: string; w_pilot_access: number; w_activations: string; w_ranking_version: number; w_accounts_version: number; w_created_at: string };

/** The key (revoked or not) whose hash matches, with its workspace and its creator's current role, in one query. Hot path (every call). */
export async function findKeyByHash(q: Kysely<Database>, hash: string): Promise<KeyWithWorkspace | undefined> {
  const [row] = await prepared(
    q,
    sql<KeyLookupRow>`select k.id, k.workspace_id, k.name, k.prefix, k.hash, k.scopes, k.created_by, k.created_at, k.revoked_at, k.last_used_at,
        w.name as w_name, w.pilot_access as w_pilot_access, w.activations as w_activations,
        w.ranking_version as w_ranking_version, w.accounts_version as w_accounts_version, w.created_at as w_created_at,
        m.role as c_role
      from api_keys k join workspaces w on w.id = k.workspace_id
      left join members m on m.workspace_id = k.workspace_id and m.email = k.created_by
      where k.hash = ${hash}`,
  );
  if (!row) return undefined;
  const { c_role, w_name, w_pilot_access, w_activations, w_ranking_version, w_accounts_version, w_created_at, ...key } = row;
  return {
    key: info(key),
    creatorRole: c_role ?? null,
    workspace: {
      id: key.workspace_id,
      name: w_name,
      pilot_access: w_pilot_access,
      activations: w_activations,
      ranking_version: w_ranking_version,
      accounts_version: w_accounts_version,
      created_at: w_created_at,
    },
  };
}

/**
 * SQLite: the number migration 0030's triggers move with every change a key lookup reads (a key,
 * a member, a workspace). Hot path of the key cache (every call).
 */
export async function authRevision(q: Kysely<Database>): Promise<number> {
  const [row] = await prepared(q, sql<{ n: number }>`select n from auth_revision where id = 1`);
  return Number(row?.n ?? -1);
}

/** A workspace as authentication reads it (the columns findKeyByHash joins). Hot path of the key cache. */
export async function findWorkspaceById(q: Kysely<Database>, id: string): Promise<Workspace | undefined> {
  const [row] = await prepared(q, sql<Workspace>`select id, name, pilot_access, activations, ranking_version, accounts_version, created_at from workspaces where id = ${id}`);
  return row;
}

export async function listApiKeys(q: Kysely<Database>, workspaceId: string): Promise<ApiKeyInfo[]> {
  const rows = await q
    .selectFrom('api_keys')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(info);
}

export async function getApiKey(q: Kysely<Database>, workspaceId: string, id: string): Promise<ApiKeyInfo | undefined> {
  const row = await q
    .selectFrom('api_keys')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) => eb.or([eb('id', '=', id), eb('prefix', '=', id)]))
    .executeTakeFirst();
  return row && info(row);
}

/** Revokes a key; resolves to false when it was already revoked. */
export async function revokeApiKey(q: Kysely<Database>, workspaceId: string, id: string, now: Date): Promise<boolean> {
  const r = await q
    .updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', id)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

/**
 * Revokes every key `email` created in the workspace that is not revoked yet (a member leaving);
 * resolves to the ids revoked. Revoked keys stay revoked: adding the member again revives none.
 */
export async function revokeKeysCreatedBy(q: Kysely<Database>, workspaceId: string, email: string, now: Date): Promise<string[]> {
  const rows = await q
    .updateTable('api_keys')
    .set({ revoked_at: now.toISOString() })
    .where('workspace_id', '=', workspaceId)
    .where('created_by', '=', email)
    .where('revoked_at', 'is', null)
    .returning('id')
    .execute();
  return rows.map((r) => r.id).sort();
}

/** Records the key's last use (run it in db.autocommit: a stamp, not part of any other write). */
export async function touchApiKey(q: Kysely<Database>, id: string, now: Date): Promise<void> {
  await q.updateTable('api_keys').set({ last_used_at: now.toISOString() }).where('id', '=', id).execute();
}
