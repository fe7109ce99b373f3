/**
 * Who runs the background re-ranking: a worker thread with its own connection to the same
 * database (refresh-worker.ts) when the database can be opened twice — a SQLite file or
 * PostgreSQL — so the event loop that answers requests never waits for scoring; in-process for
 * an in-memory database, or when the worker is not built.
 */
import { existsSync } from 'node:fs';
import { Piscina } from 'piscina';
import type { Db } from '../db/index.js';
import { builtWorkerPath } from '../threads.js';
import { refreshAll, type RefreshResult } from './refresh.js';
import type { RefreshTask } from './refresh-worker.js';

export interface Refresher {
  /** 'thread' or 'in-process': where refreshAll runs. */
  readonly where: 'thread' | 'in-process';
  refreshAll(now: Date): Promise<Map<string, RefreshResult>>;
  close(): Promise<void>;
}

export function startRefresher(db: Db): Refresher {
  const filename = builtWorkerPath(import.meta.url, './refresh-worker.js');
  const shareable = db.options.databaseUrl !== undefined || (db.options.dbPath !== undefined && db.options.dbPath !== ':memory:' && db.options.dbPath !== '');
  if (!shareable || !existsSync(filename)) {
    return { where: 'in-process', refreshAll: (now) => refreshAll(db, now), close: async () => {} };
  }
  // Started by the first re-ranking (a process that never re-ranks never starts the thread).
  let pool: Piscina<RefreshTask, [string, RefreshResult][]> | undefined;
  return {
    where: 'thread',
    refreshAll: async (now) => {
      pool ??= new Piscina({ filename, minThreads: 1, maxThreads: 1, idleTimeout: Number.POSITIVE_INFINITY, workerData: { ...db.options, poolSize: 2 } });
      return new Map(await pool.run({ kind: 'refresh', now: now.toISOString() }));
    },
    close: async () => {
      if (!pool) return;
      await pool.run({ kind: 'close' }).catch(() => undefined);
      await pool.destroy();
      pool = undefined;
    },
  };
}
