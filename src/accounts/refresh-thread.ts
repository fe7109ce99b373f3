/**
 * Worker-thread entry of the refresher (accounts/refresher.ts): re-ranks a workspace on a
 * connection of its own, so scoring 200,000 accounts and writing their ranking never blocks
 * the thread that answers requests. Its caches (snapshots, inputs, the last ranking written)
 * stay warm between tasks.
 */
import { constants, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { describeFailure } from '../core/errors.js';
import type { Db } from '../db/database.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { openSqlDatabase, type OpenDatabaseOptions } from '../db/index.js';
import { refreshLeased, type RefreshResult } from './refresh.js';

export type RefreshTask = { kind: 'refresh'; now: string; workspaceId: string } | { kind: 'close' };

/**
 * A re-rank the database kept from running, as the thread answers it: an error crosses back to
 * the calling thread as its message alone (the structured clone drops `code` and `severity`), so
 * it would no longer read as the database unavailable, and each turn of an outage would be a
 * failure of its own in the log instead of the one outage line.
 */
export interface Unavailable {
  unavailable: { message: string; code?: string };
}

// Re-ranking is background work: it yields the CPU to the thread that answers requests. On
// Linux a thread's nice value is its own (setpriority of the calling thread), so this lowers
// this thread alone; elsewhere it would lower the whole process, so it is not done. (Threads
// this one starts would inherit it; the process's shared thread pool is started by the main
// thread before this worker exists.)
if (process.platform === 'linux') setPriority(constants.priority.PRIORITY_LOW);

let opened: Promise<Db> | undefined;

/** One workspace's leased re-rank (null: another process holds its lease). */
export default async function refreshTask(task: RefreshTask): Promise<RefreshResult | Unavailable | null> {
  try {
    return await run(task);
  } catch (e) {
    if (!isDatabaseUnavailable(e)) throw e;
    const code = (e as { code?: unknown }).code;
    return { unavailable: { message: describeFailure(e), code: typeof code === 'string' ? code : undefined } };
  }
}

async function run(task: RefreshTask): Promise<RefreshResult | null> {
  if (task.kind === 'close') {
    if (opened) await (await opened).close();
    opened = undefined;
    return null;
  }
  // The process that started this thread opened (and migrated) the database first. An open that
  // failed (the database away at that moment) is tried again at the next task: before, its
  // rejection was kept, and every re-rank failed with it until the process restarted.
  let opening = opened;
  if (!opening) {
    const open: Promise<Db> = openSqlDatabase(workerData as OpenDatabaseOptions);
    opened = opening = open;
    open.catch(() => {
      if (opened === open) opened = undefined;
    });
  }
  return (await refreshLeased(await opening, task.workspaceId, new Date(task.now))) ?? null;
}
