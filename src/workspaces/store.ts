/** Workspaces and their settings. */
import { type Kysely, sql } from 'kysely';
import { newId } from '../db/ids.js';
import { lockRows, onPostgres } from '../db/locks.js';
import type { Database } from '../db/database.js';
import { nameKey } from './name-key.js';
import type { Workspace } from './tables.js';
import type { WalletVisibility } from '../core/wallet-visibilities.js';

export async function createWorkspace(q: Kysely<Database>, name: string, now: Date): Promise<Workspace> {
  const row = { id: newId('ws'), name, name_key: nameKey(name), created_at: now.toISOString() };
  await q.insertInto('workspaces').values(row).execute();
  return (await findWorkspace(q, row.id))!;
}

/**
 * Finds a workspace by id or by name: its own name first, then a name that differs only in case
 * (names are unique that way: name-key.ts).
 */
export async function findWorkspace(q: Kysely<Database>, idOrName: string): Promise<Workspace | undefined> {
  return q
    .selectFrom('workspaces')
    .select(['id', 'name', 'pilot_access', 'activations', 'ranking_version', 'accounts_version', 'created_at'])
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName), eb('name_key', '=', nameKey(idOrName))]))
    .orderBy(sql`CASE WHEN id = ${idOrName} OR name = ${idOrName} THEN 0 ELSE 1 END`)
    .orderBy('created_at')
    .executeTakeFirst();
}

/** Every workspace, oldest first (ties by id). */
export async function listWorkspaces(q: Kysely<Database>): Promise<Workspace[]> {
  return q.selectFrom('workspaces').selectAll().orderBy('created_at').orderBy('id').execute();
}

/** Grants or withdraws approved pilot access (pilot operations). */
export async function setPilotAccess(q: Kysely<Database>, workspaceId: string, on: boolean): Promise<void> {
  await q.updateTable('workspaces').set({ pilot_access: on ? 1 : 0 }).where('id', '=', workspaceId).execute();
}

/**
 * Whether the workspace has pilot access now, its row held shared for the rest of trx (PostgreSQL
 * FOR SHARE; on SQLite the write transaction holds the one write lock): a withdrawal, which stops
 * the workspace's running outreach in its own transaction, either committed before and is seen
 * here, or waits for trx and then sees what trx wrote. Shared, so writes that check it do not wait
 * for each other.
 */
export async function holdPilotAccess(trx: Kysely<Database>, workspaceId: string): Promise<boolean> {
  let query = trx.selectFrom('workspaces').select('pilot_access').where('id', '=', workspaceId);
  if (onPostgres(trx)) query = query.forShare();
  return Number((await query.executeTakeFirst())?.pilot_access) === 1;
}

/**
 * Records an activation (for activation-gated operations), e.g. `growth_reports`. Run it in a
 * write: the workspace row is locked before its list is read, so two activations recorded at
 * once both stay.
 */
export async function addActivation(trx: Kysely<Database>, workspaceId: string, activation: string): Promise<void> {
  await lockRows(trx, 'workspaces', { id: workspaceId });
  const ws = await trx.selectFrom('workspaces').select('activations').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const set = new Set<string>(JSON.parse(ws.activations));
  set.add(activation);
  await trx.updateTable('workspaces').set({ activations: JSON.stringify([...set].sort()) }).where('id', '=', workspaceId).execute();
}

/**
 * A count for a per-workspace cap (webhook endpoints, watches), taken under the workspace row's
 * lock for the rest of trx: writers racing at the cap wait for each other, so only one takes its
 * last place. `count` reads what counts, once the lock is held.
 */
export async function lockedWorkspaceCount(trx: Kysely<Database>, workspaceId: string, count: (trx: Kysely<Database>) => Promise<number | string | bigint>): Promise<number> {
  await lockRows(trx, 'workspaces', { id: workspaceId });
  return Number(await count(trx));
}

export { WALLET_VISIBILITIES, type WalletVisibility } from '../core/wallet-visibilities.js';

/** Who may read the workspace's wallet: `owners` (owners and admins; the default) or `all` members. */
export async function walletVisibility(q: Kysely<Database>, workspaceId: string): Promise<WalletVisibility> {
  const row = await q.selectFrom('workspace_settings').select('wallet_visibility').where('workspace_id', '=', workspaceId).executeTakeFirst();
  return row?.wallet_visibility === 'all' ? 'all' : 'owners';
}

export async function setWalletVisibility(q: Kysely<Database>, workspaceId: string, v: WalletVisibility): Promise<void> {
  await q
    .insertInto('workspace_settings')
    .values({ workspace_id: workspaceId, wallet_visibility: v })
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ wallet_visibility: v }))
    .execute();
}
