/**
 * Fixed-window request counters per (API key, call kind), shared by every api process. `count`
 * is the window's admitted calls (a refused call is never counted); `prev` is the count before
 * the last write, so a write that admits calls up to the limit tells which of its calls got in.
 */
import { type Kysely, sql } from 'kysely';
import { onPostgres } from '../db/locks.js';
import { prepared } from '../db/prepared.js';
import type { Database } from '../compose/database.js';

export interface CounterWrite {
  /** Calls already admitted (answered without waiting): counted whatever the count. */
  admitted: number;
  /** Calls waiting for their judgement: counted, in order, while the count is below `limit`. */
  asking: number;
  limit: number;
}

/**
 * Counts one write's calls in the window, atomically: `admitted` calls always, then as many of
 * the `asking` calls as fit below `limit`. Resolves to the count before and after. With touchAt,
 * also records the key's last use (api_keys.last_used_at). Run it in db.autocommit, which
 * group-commits it on SQLite.
 */
export async function hitRateCounter(q: Kysely<Database>, apiKeyId: string, kind: string, windowMs: number, w: CounterWrite, touchAt?: Date): Promise<{ prev: number; count: number }> {
  const { admitted: a, asking: s, limit } = w;
  const first = Math.max(a, Math.min(limit, a + s));
  // Every right-hand side reads the row before this update: prev takes the old count.
  const next = onPostgres(q)
    ? sql`greatest(rate_counters.count + ${a}::int, least(${limit}::int, rate_counters.count + ${a + s}::int))`
    : sql`max(rate_counters.count + ${a}, min(${limit}, rate_counters.count + ${a + s}))`;
  const [, rows] = await Promise.all([
    touchAt ? prepared(q, sql`update api_keys set last_used_at = ${touchAt.toISOString()} where id = ${apiKeyId}`) : undefined,
    prepared(
      q,
      sql<{ prev: number; count: number }>`insert into rate_counters (api_key_id, kind, window_ms, count, prev) values (${apiKeyId}, ${kind}, ${windowMs}, ${first}, 0)
        on conflict (api_key_id, kind, window_ms) do update set prev = rate_counters.count, count = ${next}
        returning prev, count`,
    ),
  ]);
  return { prev: Number(rows[0]!.prev), count: Number(rows[0]!.count) };
}

export async function pruneRateCounters(q: Kysely<Database>, beforeWindowMs: number): Promise<void> {
  await q.deleteFrom('rate_counters').where('window_ms', '<', beforeWindowMs).execute();
}
