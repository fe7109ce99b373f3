/** Fixed-window request counters per (API key, call kind), shared by every api process. */
import { sql } from 'kysely';
import { type Db, sqliteHandle } from './index.js';

/**
 * Counts one request in the window; resolves to the window's count including it. With
 * touchAt, also records the key's last use (api_keys.last_used_at) in the same write.
 */
export async function hitRateCounter(db: Db, apiKeyId: string, kind: string, windowMs: number, touchAt?: Date): Promise<number> {
  // Hot path (every call): plain SQL, valid on SQLite and PostgreSQL; group-committed on SQLite.
  const { rows } = await db.autocommit(async (q) => {
    const prepare = sqliteHandle(q);
    if (prepare) {
      if (touchAt) prepare(TOUCH_SQLITE).run(touchAt.toISOString(), apiKeyId);
      return { rows: prepare(HIT_SQLITE).all(apiKeyId, kind, windowMs) as { count: number }[] };
    }
    const [, hit] = await Promise.all([
      touchAt ? sql`update api_keys set last_used_at = ${touchAt.toISOString()} where id = ${apiKeyId}`.execute(q) : undefined,
      sql<{ count: number }>`
        insert into rate_counters (api_key_id, kind, window_ms, count) values (${apiKeyId}, ${kind}, ${windowMs}, 1)
        on conflict (api_key_id, kind, window_ms) do update set count = rate_counters.count + 1
        returning count`.execute(q),
    ]);
    return hit;
  });
  return Number(rows[0]!.count);
}

const TOUCH_SQLITE = 'update api_keys set last_used_at = ? where id = ?';

const HIT_SQLITE = `insert into rate_counters (api_key_id, kind, window_ms, count) values (?, ?, ?, 1)
  on conflict (api_key_id, kind, window_ms) do update set count = rate_counters.count + 1
  returning count`;

export async function pruneRateCounters(db: Db, beforeWindowMs: number): Promise<void> {
  await db.kysely.deleteFrom('rate_counters').where('window_ms', '<', beforeWindowMs).execute();
}
