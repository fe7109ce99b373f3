/** What the watch routes share: finding and locking a watch, the rules a change must pass, and the answers' shapes filled from rows. */
import { z } from 'zod';
import { countInMarket, visibleStoreIds } from '../accounts/index.js';
import {
  countWatchStores,
  getWatch,
  lockWatch,
  pageWatchEvents,
  updateWatch,
  watchStoreIds,
  type WatchEventRow,
  type WatchRow,
} from './store.js';
import type { Database } from '../db/database.js';
import { WATCH_MAX_STORES } from './types.js';
import type { Kysely } from 'kysely';
import { listPager } from '../api/cursor.js';
import { ApiProblem, found } from '../api/problems.js';
import { idParam, pagedUnder, storeId } from '../api/schemas.js';
import { health, Watch, WatchEvent, ManagedWatch } from './schemas.js';

export const common = { tag: 'Watches', planned: 'available' as const };
export const watchParam = idParam('watch');
export const storeParam = z.strictObject({ id: z.string().min(1).max(200).describe('Identifier of the watch'), store_id: storeId.describe('Store identifier') });

export const noWatch = (id: string) => new ApiProblem('not-found', `No watch "${id}" in this workspace.`);

export async function findWatch(q: Kysely<Database>, workspaceId: string, id: string): Promise<WatchRow> {
  return found(getWatch(q, workspaceId, id), () => noWatch(id));
}

/** The watch, locked for the rest of the request's transaction (its checks and changes take turns); 404 when there is none or it was just removed. */
export async function lockedWatch(tx: Kysely<Database>, workspaceId: string, id: string): Promise<WatchRow> {
  return found(lockWatch(tx, workspaceId, id), () => noWatch(id));
}

/** What each paged list of one watch declares: read:watch, the watch's id, limit and cursor, 400 and 404. */
export const watchList = { scope: 'read:watch' as const, ...pagedUnder(watchParam) };

/** The watch a list under /watches/{id} reads (404 when there is none) and that list's pager, keyed to the watch. */
export async function watchPage(q: Kysely<Database>, workspaceId: string, id: string, list: string, secret: string, cursor: string | undefined) {
  const w = await findWatch(q, workspaceId, id);
  return { w, p: listPager(secret, workspaceId, { list, watch: w.id }, cursor) };
}

/** What each change to a watch's stores declares: write:watch, a write that starts the watches' check, the watch as it then is. */
export const storesChange = { scope: 'write:watch' as const, kind: 'write' as const, triggers: ['watches'] as const, response: Watch };

/** The watch after a change to its stores: its update time moves, and it is answered as it now is. */
export async function changedWatch(tx: Kysely<Database>, w: WatchRow, now: Date): Promise<z.output<typeof Watch>> {
  await updateWatch(tx, w.id, {}, now);
  return toWatch(tx, (await getWatch(tx, w.workspace_id, w.id))!);
}

export async function storeCount(q: Kysely<Database>, w: WatchRow): Promise<number> {
  if (w.type !== 'managed') return countWatchStores(q, w.id);
  return Math.min(w.capacity ?? 0, await countInMarket(q, w.workspace_id));
}

export async function toWatch(q: Kysely<Database>, w: WatchRow): Promise<z.output<typeof Watch>> {
  return {
    object: 'watch',
    id: w.id,
    type: w.type,
    client_name: w.client_name,
    capacity: w.capacity,
    status: w.status,
    store_count: await storeCount(q, w),
    health: w.health,
    health_reason: w.health_reason,
    checked_month: w.checked_month,
    checked_at: w.checked_at,
    created_at: w.created_at,
    updated_at: w.updated_at,
  };
}

export const toEvent = (e: WatchEventRow): z.output<typeof WatchEvent> => ({
  object: 'watch_event',
  id: e.id,
  watch_id: e.watch_id,
  month: e.month,
  store_id: e.store_id,
  domain: e.domain,
  kind: e.kind,
  level: e.level,
  detail: e.detail,
  created_at: e.created_at,
  ended_at: e.ended_at,
});

export async function toManaged(q: Kysely<Database>, workspaceId: string, w: WatchRow | undefined): Promise<z.output<typeof ManagedWatch>> {
  const inMarket = await countInMarket(q, workspaceId);
  if (!w) {
    return {
      object: 'managed_watch',
      id: null,
      type: 'managed',
      client_name: null,
      capacity: 0,
      status: 'none',
      store_count: 0,
      in_market_accounts: inMarket,
      health: 'paused',
      health_reason: 'No managed watch yet: resize it (PATCH /watch/managed with a capacity) to start one',
      checked_month: null,
      checked_at: null,
      created_at: null,
      updated_at: null,
      recent_events: [],
      latest_brief_url: null,
    };
  }
  const { object: _o, ...rest } = await toWatch(q, w);
  return {
    ...rest,
    object: 'managed_watch',
    in_market_accounts: inMarket,
    recent_events: (await pageWatchEvents(q, w.id, undefined, 5)).map(toEvent),
    latest_brief_url: w.checked_month ? `/api/v1/watches/${w.id}/brief` : null,
  };
}

/** 404 naming every store the workspace cannot see (outside its profile, or unknown). */
export async function requireVisible(q: Kysely<Database>, workspaceId: string, ids: readonly string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const seen = await visibleStoreIds(q, workspaceId, unique);
  const missing = unique.filter((id) => !seen.has(id));
  if (missing.length) {
    const named = missing.slice(0, 5).map((id) => JSON.stringify(id)).join(', ');
    throw new ApiProblem('not-found', `No account ${named}${missing.length > 5 ? ` and ${missing.length - 5} more` : ''} in this workspace; nothing was added.`, {}, { store_ids: missing });
  }
  return unique;
}

/** 422 when adding would take the watch past WATCH_MAX_STORES; the caller holds the watch's lock, so the count is the committed one. */
export async function requireRoom(q: Kysely<Database>, w: WatchRow, adding: readonly string[]): Promise<void> {
  const have = new Set(await watchStoreIds(q, w.id));
  const total = have.size + adding.filter((id) => !have.has(id)).length;
  if (total > WATCH_MAX_STORES) throw new ApiProblem('unprocessable', `A watch holds at most ${WATCH_MAX_STORES} stores; this would make it ${total}.`);
}

export const notManaged = (w: WatchRow, what: string) => {
  if (w.type === 'managed') throw new ApiProblem('conflict', `The managed watch's stores follow the ranking; ${what} is for self-directed and client watches (resize or cancel the managed watch instead).`);
};

/** Brief order: the watch's own findings first, then stores by id, then the most serious first. */
const LEVEL_ORDER: Record<string, number> = { failing: 0, degraded: 1, healthy: 2, paused: 3 };
export function byStore(a: WatchEventRow, b: WatchEventRow): number {
  if ((a.store_id ?? '') !== (b.store_id ?? '')) return (a.store_id ?? '') < (b.store_id ?? '') ? -1 : 1;
  return (LEVEL_ORDER[a.level] ?? 9) - (LEVEL_ORDER[b.level] ?? 9) || (a.kind < b.kind ? -1 : a.kind > b.kind ? 1 : a.id < b.id ? -1 : 1);
}
