/** Fixed-window request counters per (API key, call kind), shared by every api process. */
import { type Kysely, sql } from 'kysely';
import { prepared } from './prepared.js';
import type { Database } from './schema.js';

/**
 * Counts `calls` requests (default one) in the window; resolves to the window's count including
 * them. With touchAt, also records the key's last use (api_keys.last_used_at). Run it in
 * db.autocommit, which group-commits it on SQLite.
 */
export async function hitRateCounter(q: Kysely<Database>, apiKeyId: string, kind: string, windowMs: number, touchAt?: Date, calls = 1): Promise<number> {
  const [, rows] = await Promise.all([
    touchAt ? prepared(q, sql`update api_keys set last_used_at = ${touchAt.toISOString()} where id = ${apiKeyId}`) : undefined,
    prepared(
      q,
      sql<{ count: number }>`insert into rate_counters (api_key_id, kind, window_ms, count) values (${apiKeyId}, ${kind}, ${windowMs}, ${calls})
        on conflict (api_key_id, kind, window_ms) do update set count = rate_counters.count + excluded.count
        returning count`,
    ),
  ]);
  return Number(rows[0]!.count);
}

export async function pruneRateCounters(q: Kysely<Database>, beforeWindowMs: number): Promise<void> {
  await q.deleteFrom('rate_counters').where('window_ms', '<', beforeWindowMs).execute();
}
