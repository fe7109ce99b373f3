/**
 * WAL checkpoints off the event loop. A checkpoint copies the WAL back into the database file
 * and syncs it; run by the writing connection (SQLite's automatic checkpoint) it stalls a
 * commit, and every request waiting on it, for as long as the disk takes (tens of ms on a busy
 * machine). Here a worker thread with its own connection runs a PASSIVE checkpoint every
 * CHECKPOINT_EVERY_MS (it never blocks readers or writers); the writing connection keeps an
 * automatic checkpoint at a high threshold only as a fallback, should the worker fall behind.
 */
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

export const CHECKPOINT_EVERY_MS = 200;
/** The writing connection's own checkpoint threshold (pages of 4 KiB): the fallback. */
export const FALLBACK_AUTOCHECKPOINT_PAGES = 10_000;

const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.module);
const db = new Database(workerData.path, { fileMustExist: true });
db.pragma('busy_timeout = 1000');
const checkpoint = () => {
  try { db.pragma('wal_checkpoint(PASSIVE)'); } catch {}
};
const timer = workerData.everyMs > 0 ? setInterval(checkpoint, workerData.everyMs) : undefined;
parentPort.on('message', (m) => {
  if (m === 'checkpoint') {
    checkpoint();
    parentPort.postMessage('checkpointed');
    return;
  }
  clearInterval(timer);
  try { db.close(); } catch {}
  parentPort.close();
});
`;

export interface Checkpointer {
  /** Runs a checkpoint now, besides the timer's, and resolves once it has run. */
  checkpoint(): Promise<void>;
  stop(): Promise<void>;
}

export interface CheckpointerOptions {
  /** milliseconds between the worker's checkpoints; 0: only those asked for with checkpoint() */
  everyMs?: number;
}

export function startCheckpointer(path: string, { everyMs = CHECKPOINT_EVERY_MS }: CheckpointerOptions = {}): Checkpointer {
  const module = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER, { eval: true, workerData: { module, path, everyMs } });
  // A failed checkpointer leaves the fallback checkpoint in charge; it never fails the database.
  worker.on('error', () => {});
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    checkpoint: async () => {
      const done = new Promise<void>((resolve) => {
        const onMessage = (m: unknown) => {
          if (m !== 'checkpointed') return;
          worker.off('message', onMessage);
          resolve();
        };
        worker.on('message', onMessage);
      });
      worker.postMessage('checkpoint');
      // A worker that failed or stopped answers no more: it has nothing left to checkpoint.
      await Promise.race([done, exited]);
    },
    stop: async () => {
      worker.ref(); // keep the process alive until the worker has closed its connection
      worker.postMessage('stop');
      await exited;
    },
  };
}
