/**
 * Watches, their stores, events and receipts (src/watches/ holds the rules). Every function
 * takes the query executor first and joins the caller's transaction. A health change goes
 * through set-health.ts, which writes it with writeWatchHealth and appends the one
 * `watch.health_changed` event in the same transaction: no other writer changes `health`.
 *
 * A writer that checks a watch and then changes it or its stores (a cap, a cancel, a delete)
 * first locks the watch row with lockWatch or lockManagedWatch, so concurrent writers of one
 * watch, in any process, take turns and each sees what the one before it committed; a watch
 * deleted meanwhile is simply not found.
 */
import type { Kysely, Selectable } from 'kysely';
import type { WatchHealth, WatchType } from './types.js';
import { newId, nextSeq } from '../db/ids.js';
import { lockRows } from '../db/locks.js';
import { lockedWorkspaceCount } from '../workspaces/store.js';
import type { Database } from '../db/database.js';
import type { WatchEventsTable, WatchReceiptsTable, WatchesTable } from './tables.js';

export type WatchRow = Selectable<WatchesTable>;
export type WatchEventRow = Selectable<WatchEventsTable>;
export type WatchReceiptRow = Selectable<WatchReceiptsTable>;

/** pg returns bigint columns as strings. */
const norm = <T extends { seq: number; capacity?: number | null }>(r: T): T => ({
  ...r,
  seq: Number(r.seq),
  ...('capacity' in r ? { capacity: r.capacity === null || r.capacity === undefined ? null : Number(r.capacity) } : {}),
});

export interface NewWatch {
  workspace_id: string;
  type: WatchType;
  client_name: string | null;
  capacity: number | null;
  health: WatchHealth;
  health_reason: string;
}

export async function insertWatch(trx: Kysely<Database>, w: NewWatch, now: Date): Promise<WatchRow> {
  const at = now.toISOString();
  const row: WatchRow = {
    id: newId('wat'),
    ...w,
    status: 'active',
    generation: null,
    checked_month: null,
    checked_at: null,
    managed_key: w.type === 'managed' ? w.workspace_id : null,
    seq: nextSeq(now),
    created_at: at,
    updated_at: at,
  };
  await trx.insertInto('watches').values(row).execute();
  return row;
}

/** The workspace's self-directed and client watches, counted for its cap under the workspace row's lock (lockedWorkspaceCount). */
export const lockedWatchCount = (trx: Kysely<Database>, workspaceId: string): Promise<number> =>
  lockedWorkspaceCount(trx, workspaceId, async (q) => (await q.selectFrom('watches').select((eb) => eb.fn.countAll().as('n')).where('workspace_id', '=', workspaceId).where('type', '!=', 'managed').executeTakeFirstOrThrow()).n);

export async function getWatch(q: Kysely<Database>, workspaceId: string, id: string): Promise<WatchRow | undefined> {
  const r = await q.selectFrom('watches').selectAll().where('workspace_id', '=', workspaceId).where('id', '=', id).executeTakeFirst();
  return r && norm(r);
}

/** The workspace's watch `id`, locked for the rest of trx (see the top of this file); undefined when there is none (or no longer). */
export async function lockWatch(trx: Kysely<Database>, workspaceId: string, id: string): Promise<WatchRow | undefined> {
  const [r] = await lockRows(trx, 'watches', { workspace_id: workspaceId, id });
  return r && norm(r);
}

/** The workspace's managed watch, locked for the rest of trx; undefined when it has none. */
export async function lockManagedWatch(trx: Kysely<Database>, workspaceId: string): Promise<WatchRow | undefined> {
  const [r] = await lockRows(trx, 'watches', { managed_key: workspaceId });
  return r && norm(r);
}

/**
 * Starts the workspace's managed watch with `capacity` unless it has one: resolves to the new
 * row, or undefined when one exists (also one a concurrent call started: the insert waits for
 * it and then does nothing, so the unique managed_key keeps one managed watch per workspace).
 */
export async function startManagedWatch(trx: Kysely<Database>, workspaceId: string, capacity: number, now: Date): Promise<WatchRow | undefined> {
  const at = now.toISOString();
  const row: WatchRow = {
    id: newId('wat'),
    workspace_id: workspaceId,
    type: 'managed',
    client_name: null,
    capacity,
    health: 'healthy',
    health_reason: 'Not checked yet',
    status: 'active',
    generation: null,
    checked_month: null,
    checked_at: null,
    managed_key: workspaceId,
    seq: nextSeq(now),
    created_at: at,
    updated_at: at,
  };
  const inserted = await trx.insertInto('watches').values(row).onConflict((oc) => oc.column('managed_key').doNothing()).returning('id').executeTakeFirst();
  return inserted ? row : undefined;
}

export async function getManagedWatch(q: Kysely<Database>, workspaceId: string): Promise<WatchRow | undefined> {
  const r = await q.selectFrom('watches').selectAll().where('managed_key', '=', workspaceId).executeTakeFirst();
  return r && norm(r);
}

/** A page of the workspace's watches in creation order, after (seq, id). */
export async function pageWatches(q: Kysely<Database>, workspaceId: string, type: WatchType | undefined, after: { seq: number; id: string } | undefined, limit: number): Promise<WatchRow[]> {
  let query = q.selectFrom('watches').selectAll().where('workspace_id', '=', workspaceId);
  if (type) query = query.where('type', '=', type);
  if (after) query = query.where((eb) => eb.or([eb('seq', '>', after.seq), eb.and([eb('seq', '=', after.seq), eb('id', '>', after.id)])]));
  return (await query.orderBy('seq').orderBy('id').limit(limit).execute()).map(norm);
}

/** Every active watch of every workspace (what a check looks at). */
export async function activeWatches(q: Kysely<Database>): Promise<WatchRow[]> {
  return (await q.selectFrom('watches').selectAll().where('status', '=', 'active').orderBy('seq').execute()).map(norm);
}

export async function updateWatch(trx: Kysely<Database>, id: string, set: Partial<Pick<WatchRow, 'capacity' | 'status' | 'generation'>>, now: Date): Promise<void> {
  await trx.updateTable('watches').set({ ...set, updated_at: now.toISOString() }).where('id', '=', id).execute();
}

/**
 * Writes the watch's health and reason, with the watch row locked; resolves to the health it
 * had (read under that lock, so of two writers moving a watch to one health the second sees the
 * first's), or undefined when the watch is gone.
 */
export async function writeWatchHealth(trx: Kysely<Database>, id: string, health: WatchHealth, reason: string, now: Date): Promise<WatchHealth | undefined> {
  const [current] = await lockRows(trx, 'watches', { id });
  if (!current) return undefined;
  await trx.updateTable('watches').set({ health, health_reason: reason, updated_at: now.toISOString() }).where('id', '=', id).execute();
  return current.health;
}

/** Deletes the watch with its stores, events and receipts (the caller holds its lock: lockWatch). */
export async function deleteWatch(trx: Kysely<Database>, id: string): Promise<void> {
  await trx.deleteFrom('watch_stores').where('watch_id', '=', id).execute();
  await trx.deleteFrom('watch_events').where('watch_id', '=', id).execute();
  await trx.deleteFrom('watch_receipts').where('watch_id', '=', id).execute();
  await trx.deleteFrom('watches').where('id', '=', id).execute();
}

// ---- stores --------------------------------------------------------------------------------

/** Adds stores to a watch (stores already in it stay as they are); the caller holds its lock (lockWatch) and checked the cap. */
export async function addWatchStores(trx: Kysely<Database>, watchId: string, storeIds: readonly string[], now: Date): Promise<void> {
  if (storeIds.length === 0) return;
  await trx
    .insertInto('watch_stores')
    .values(storeIds.map((store_id) => ({ watch_id: watchId, store_id, added_at: now.toISOString() })))
    .onConflict((oc) => oc.columns(['watch_id', 'store_id']).doNothing())
    .execute();
}

export async function removeWatchStore(trx: Kysely<Database>, watchId: string, storeId: string): Promise<boolean> {
  const r = await trx.deleteFrom('watch_stores').where('watch_id', '=', watchId).where('store_id', '=', storeId).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

export async function countWatchStores(q: Kysely<Database>, watchId: string): Promise<number> {
  const r = await q.selectFrom('watch_stores').select((eb) => eb.fn.countAll<number>().as('n')).where('watch_id', '=', watchId).executeTakeFirstOrThrow();
  return Number(r.n);
}

/** The store ids of a self-directed or client watch, in order, after `after`. */
export async function watchStoreIds(q: Kysely<Database>, watchId: string, after?: string, limit?: number): Promise<string[]> {
  let query = q.selectFrom('watch_stores').select('store_id').where('watch_id', '=', watchId);
  if (after !== undefined) query = query.where('store_id', '>', after);
  query = query.orderBy('store_id');
  if (limit !== undefined) query = query.limit(limit);
  return (await query.execute()).map((r) => r.store_id);
}

// ---- events and receipts -------------------------------------------------------------------

/** Inserts events; one already recorded (same id) is left as it is. */
export async function insertWatchEvents(trx: Kysely<Database>, rows: readonly WatchEventRow[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await trx.insertInto('watch_events').values(rows.slice(i, i + 500)).onConflict((oc) => oc.column('id').doNothing()).execute();
  }
}

/** Every finding recorded for the watch's month, ended or not (what a check of the month compares its findings with). */
export async function monthFindingEvents(q: Kysely<Database>, watchId: string, month: string): Promise<WatchEventRow[]> {
  return q.selectFrom('watch_events').selectAll().where('watch_id', '=', watchId).where('month', '=', month).where('finding', 'is not', null).orderBy('created_at').orderBy('id').execute();
}

/** The findings of the watch's month that held at its latest check of that month (what the brief lists). */
export async function heldFindingEvents(q: Kysely<Database>, watchId: string, month: string): Promise<WatchEventRow[]> {
  return q.selectFrom('watch_events').selectAll().where('watch_id', '=', watchId).where('month', '=', month).where('finding', 'is not', null).where('ended_at', 'is', null).execute();
}

/** Ends the events `ids` (those not ended yet): a check of their month no longer found them. */
export async function endWatchEvents(trx: Kysely<Database>, ids: readonly string[], at: string): Promise<void> {
  for (let i = 0; i < ids.length; i += 500) {
    await trx.updateTable('watch_events').set({ ended_at: at }).where('id', 'in', ids.slice(i, i + 500)).where('ended_at', 'is', null).execute();
  }
}

/** A page of a watch's events: newest month first, then id. */
export async function pageWatchEvents(q: Kysely<Database>, watchId: string, after: { month: string; id: string } | undefined, limit: number): Promise<WatchEventRow[]> {
  let query = q.selectFrom('watch_events').selectAll().where('watch_id', '=', watchId);
  if (after) query = query.where((eb) => eb.or([eb('month', '<', after.month), eb.and([eb('month', '=', after.month), eb('id', '>', after.id)])]));
  return query.orderBy('month', 'desc').orderBy('id').limit(limit).execute();
}

export async function insertWatchReceipt(trx: Kysely<Database>, row: WatchReceiptRow): Promise<void> {
  await trx.insertInto('watch_receipts').values(row).execute();
}

/** A page of a watch's receipts: newest first. */
export async function pageWatchReceipts(q: Kysely<Database>, watchId: string, after: { seq: number; id: string } | undefined, limit: number): Promise<WatchReceiptRow[]> {
  let query = q.selectFrom('watch_receipts').selectAll().where('watch_id', '=', watchId);
  if (after) query = query.where((eb) => eb.or([eb('seq', '<', after.seq), eb.and([eb('seq', '=', after.seq), eb('id', '>', after.id)])]));
  return (await query.orderBy('seq', 'desc').orderBy('id').limit(limit).execute()).map(norm);
}
