/**
 * Who runs the background re-ranking: a worker thread with its own connection to the same
 * database (refresh-worker.ts) when the database can be opened twice — a SQLite file or
 * PostgreSQL — so the event loop that answers requests never waits for scoring; in-process for
 * an in-memory database, or when the worker is not built. Either way each workspace is
 * re-ranked under its lease (refresh.ts refreshLeased), one after the other.
 */
import { existsSync } from 'node:fs';
import { Piscina } from 'piscina';
import type { Db } from '../db/database.js';
import { DatabaseUnavailable } from '../db/errors.js';
import { builtWorkerPath } from '../core/threads.js';
import { refreshLeased, type RefreshResult, workspaceIds } from './refresh.js';
import type { RefreshTask, Unavailable } from './refresh-thread.js';
import type { TaskMetrics } from '../ops/metrics.js';

export interface Refresher {
  /** 'thread' or 'in-process': where the re-ranking runs. */
  readonly where: 'thread' | 'in-process';
  /**
   * Re-ranks every workspace whose lease it takes; `stopping` is asked between workspaces (a
   * process shutting down stops after the workspace it is on).
   */
  refreshAll(now: Date, stopping?: () => boolean): Promise<Map<string, RefreshResult>>;
  close(): Promise<void>;
}

/**
 * The refresher thread's young generation, in MB (V8's new space: two semi-spaces of a third
 * each, so 64 MB semi-spaces). A refit makes millions of short-lived values (an account's
 * evidence text, a block's columns, an event's JSON) beside a heap of a million snapshots that
 * live as long as their data: with V8's default of 16 MB semi-spaces most of them were copied
 * into the old generation and swept there, the garbage collector a fifth of a first scoring.
 * `npm run bench` gives its own process the same (--max-semi-space-size=64), as its refits run
 * there.
 */
export const REFRESH_YOUNG_GENERATION_MB = 192;

export function startRefresher(db: Db, metrics?: Pick<TaskMetrics, 'reranked' | 'rerankQueue'>): Refresher {
  const filename = builtWorkerPath(import.meta.url, './refresh-thread.js');
  const shareable = db.options.databaseUrl !== undefined || (db.options.dbPath !== undefined && db.options.dbPath !== ':memory:' && db.options.dbPath !== '');
  const each = async (now: Date, stopping: () => boolean, one: (workspaceId: string) => Promise<RefreshResult | undefined>) => {
    const out = new Map<string, RefreshResult>();
    const ids = await workspaceIds(db);
    try {
      for (const [i, id] of ids.entries()) {
        if (stopping()) break;
        metrics?.rerankQueue(ids.length - i);
        const started = performance.now();
        const r = await one(id);
        if (r?.refreshed) metrics?.reranked((performance.now() - started) / 1000);
        if (r) out.set(id, r);
      }
    } finally {
      metrics?.rerankQueue(0);
    }
    return out;
  };
  if (!shareable || !existsSync(filename)) {
    return { where: 'in-process', refreshAll: (now, stopping = () => false) => each(now, stopping, (id) => refreshLeased(db, id, now)), close: async () => {} };
  }
  // Started by the first re-ranking (a process that never re-ranks never starts the thread).
  let pool: Piscina<RefreshTask, RefreshResult | Unavailable | null> | undefined;
  return {
    where: 'thread',
    refreshAll: (now, stopping = () => false) =>
      each(now, stopping, async (workspaceId) => {
        pool ??= new Piscina({
          filename,
          minThreads: 1,
          maxThreads: 1,
          idleTimeout: Number.POSITIVE_INFINITY,
          workerData: { ...db.options, poolSize: 2 },
          resourceLimits: { maxYoungGenerationSizeMb: REFRESH_YOUNG_GENERATION_MB },
        });
        const r = await pool.run({ kind: 'refresh', now: now.toISOString(), workspaceId });
        if (r && 'unavailable' in r) throw new DatabaseUnavailable(r.unavailable.message, { code: r.unavailable.code });
        return r ?? undefined;
      }),
    close: async () => {
      if (!pool) return;
      await pool.run({ kind: 'close' }).catch(() => undefined);
      await pool.destroy();
      pool = undefined;
    },
  };
}
