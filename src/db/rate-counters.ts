/** Fixed-window request counters per (API key, call kind), shared by every api process. */
import type { Db } from './index.js';

/** Counts one request in the window; resolves to the window's count including it. */
export async function hitRateCounter(db: Db, apiKeyId: string, kind: string, windowMs: number): Promise<number> {
  const row = await db.kysely
    .insertInto('rate_counters')
    .values({ api_key_id: apiKeyId, kind, window_ms: windowMs, count: 1 })
    .onConflict((oc) =>
      oc.columns(['api_key_id', 'kind', 'window_ms']).doUpdateSet((eb) => ({ count: eb('rate_counters.count', '+', 1) })),
    )
    .returning('count')
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export async function pruneRateCounters(db: Db, beforeWindowMs: number): Promise<void> {
  await db.kysely.deleteFrom('rate_counters').where('window_ms', '<', beforeWindowMs).execute();
}
