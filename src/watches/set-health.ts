/**
 * A watch's health changes only here: the store writes it (locked) and, when the level changes,
 * `watch.health_changed` (watches/events.ts) is appended in the same transaction.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { appendEvents } from '../webhooks/index.js';
import { type WatchRow, writeWatchHealth } from './store.js';
import type { WatchHealth } from './types.js';

/**
 * Sets the watch's health and reason; when the health level changes, appends exactly one
 * `watch.health_changed` event ({watch_id, from, to, reason}) in the same transaction. The
 * health it changes from is the one stored now, read with the watch row locked: of two
 * writers moving a watch to one health (two checks, two cancels), only the first emits the
 * change. False when the level stayed (or the watch is gone).
 */
export async function setWatchHealth(trx: Kysely<Database>, w: Pick<WatchRow, 'id' | 'workspace_id'>, health: WatchHealth, reason: string, now: Date): Promise<boolean> {
  const from = await writeWatchHealth(trx, w.id, health, reason, now);
  if (from === undefined || from === health) return false;
  await appendEvents(trx, w.workspace_id, [{ type: 'watch.health_changed', data: { watch_id: w.id, from, to: health, reason } }], now);
  return true;
}
