/**
 * Fixed-window request counters per (API key, call kind), shared by every api process. `count`
 * is the window's calls the processes leased (rate-limit.ts; a refused call is never counted);
 * `prev` is the count before the last write, so a write that leases up to the limit tells how
 * many of the calls it asked for it got.
 *
 * One write counts the calls of many counters (every key a process heard from since its last
 * write): on PostgreSQL one statement whatever their number, so counting costs a round trip per
 * write, not per call.
 */
import { type Kysely, sql } from 'kysely';
import { onPostgres } from '../db/locks.js';
import { prepared } from '../db/prepared.js';
import type { Database } from '../db/database.js';

export interface CounterWrite {
  apiKeyId: string;
  kind: string;
  windowMs: number;
  /** Calls asked for: counted, in order, while the count is below `limit` (never past it). */
  asking: number;
  limit: number;
}

export interface CounterCount {
  prev: number;
  count: number;
}

/**
 * Counts each write's calls in its window, atomically per counter: as many of the `asking` calls
 * as fit below `limit`. Resolves to the count before and after, in
 * the order of `writes` (one write per counter). `touches` records keys' last use
 * (api_keys.last_used_at) in the same statement. Run it in db.autocommit, which group-commits it
 * on SQLite.
 *
 * On PostgreSQL the statement commits without waiting for its WAL to reach the disk
 * (synchronous_commit off for that one transaction): a counter is not worth a disk flush per
 * write, and a crash of the database server forgets at most the last fraction of a second of
 * counts (the calls may then be made again), never a count's consistency.
 */
export async function hitRateCounters(q: Kysely<Database>, writes: readonly CounterWrite[], touches: ReadonlyMap<string, Date> = new Map()): Promise<CounterCount[]> {
  if (writes.length === 0 && touches.size === 0) return [];
  // One order for every process, so two writes of the same counters lock them in the same order.
  const order = writes.map((_, i) => i).sort((a, b) => compare(writes[a]!, writes[b]!));
  if (!onPostgres(q)) return sqliteCounts(q, writes, order, touches);
  const rows = order.map((i) => writes[i]!);
  const touched = [...touches].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  const { rows: counted } = await sql<{ n: number; prev: number; count: number }>`
    with calls as (
      select * from unnest(${rows.map((w) => w.apiKeyId)}::text[], ${rows.map((w) => w.kind)}::text[], ${rows.map((w) => w.windowMs)}::int8[],
        ${rows.map((w) => w.asking)}::int4[], ${rows.map((w) => w.limit)}::int4[])
        with ordinality as t(api_key_id, kind, window_ms, asking, lim, n)
    ),
    touched as (
      update api_keys k set last_used_at = t.at
      from unnest(${touched.map(([id]) => id)}::text[], ${touched.map(([, at]) => at.toISOString())}::text[]) as t(id, at)
      where k.id = t.id
    ),
    lazy as (select set_config('synchronous_commit', 'off', true) as s)
    insert into rate_counters as c (api_key_id, kind, window_ms, count, prev)
    select api_key_id, kind, window_ms, greatest(0, least(lim, asking)), 0 from calls, lazy order by n
    on conflict (api_key_id, kind, window_ms) do update set
      prev = c.count,
      count = (select greatest(c.count, least(w.lim, c.count + w.asking)) from calls w
        where w.api_key_id = excluded.api_key_id and w.kind = excluded.kind and w.window_ms = excluded.window_ms)
    returning (select w.n from calls w where w.api_key_id = c.api_key_id and w.kind = c.kind and w.window_ms = c.window_ms) as n, prev, count`.execute(q);
  const out: CounterCount[] = new Array(writes.length);
  for (const r of counted) out[order[Number(r.n) - 1]!] = { prev: Number(r.prev), count: Number(r.count) };
  return out;
}

/** SQLite: one prepared upsert per counter on the connection the group commit holds. */
async function sqliteCounts(q: Kysely<Database>, writes: readonly CounterWrite[], order: readonly number[], touches: ReadonlyMap<string, Date>): Promise<CounterCount[]> {
  for (const [id, at] of touches) await prepared(q, sql`update api_keys set last_used_at = ${at.toISOString()} where id = ${id}`);
  const out: CounterCount[] = new Array(writes.length);
  for (const i of order) {
    const { apiKeyId, kind, windowMs, asking, limit } = writes[i]!;
    const first = Math.max(0, Math.min(limit, asking));
    // Every right-hand side reads the row before this update: prev takes the old count.
    const [row] = await prepared(
      q,
      sql<CounterCount>`insert into rate_counters (api_key_id, kind, window_ms, count, prev) values (${apiKeyId}, ${kind}, ${windowMs}, ${first}, 0)
        on conflict (api_key_id, kind, window_ms) do update set prev = rate_counters.count, count = max(rate_counters.count, min(${limit}, rate_counters.count + ${asking}))
        returning prev, count`,
    );
    out[i] = { prev: Number(row!.prev), count: Number(row!.count) };
  }
  return out;
}

function compare(a: CounterWrite, b: CounterWrite): number {
  if (a.apiKeyId !== b.apiKeyId) return a.apiKeyId < b.apiKeyId ? -1 : 1;
  if (a.kind !== b.kind) return a.kind < b.kind ? -1 : 1;
  return a.windowMs - b.windowMs;
}

export async function pruneRateCounters(q: Kysely<Database>, beforeWindowMs: number): Promise<void> {
  await q.deleteFrom('rate_counters').where('window_ms', '<', beforeWindowMs).execute();
}
