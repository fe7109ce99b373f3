/** Fixed-window request counters per (API key, call kind), shared by every api process. */
import { sql } from 'kysely';
import { type Db, sqliteHandle } from './index.js';

/** Counts one request in the window; resolves to the window's count including it. */
export async function hitRateCounter(db: Db, apiKeyId: string, kind: string, windowMs: number): Promise<number> {
  // Hot path (every call): plain SQL, valid on SQLite and PostgreSQL; group-committed on SQLite.
  const { rows } = await db.autocommit((q) => {
    const prepare = sqliteHandle(q);
    if (prepare) return Promise.resolve({ rows: prepare(HIT_SQLITE).all(apiKeyId, kind, windowMs) as { count: number }[] });
    return sql<{ count: number }>`
    insert into rate_counters (api_key_id, kind, window_ms, count) values (${apiKeyId}, ${kind}, ${windowMs}, 1)
    on conflict (api_key_id, kind, window_ms) do update set count = rate_counters.count + 1
    returning count`.execute(q);
  });
  return Number(rows[0]!.count);
}

const HIT_SQLITE = `insert into rate_counters (api_key_id, kind, window_ms, count) values (?, ?, ?, 1)
  on conflict (api_key_id, kind, window_ms) do update set count = rate_counters.count + 1
  returning count`;

export async function pruneRateCounters(db: Db, beforeWindowMs: number): Promise<void> {
  await db.kysely.deleteFrom('rate_counters').where('window_ms', '<', beforeWindowMs).execute();
}
