/**
 * The background work of a process that serves the API, on the one worker loop. Each task comes
 * from the module it belongs to (its `tasks`, compose/modules.ts): delete ended sign-in sessions
 * and used or expired invites (the `sessions` task, src/members/module.ts) and expired OAuth
 * records (the `oauth` task, src/oauth/module.ts), ingest new
 * runs of the panel (while serving: readers see a month once it is whole), re-rank workspaces
 * whose inputs moved (new months, a profile, an outcome, a status, a deal's stage), check the
 * watches (src/watches/evaluate.ts) after each load, after a watch changes and on their own
 * interval, generate growth reports (src/reports/task.ts), bill each closed month's accounts
 * delivered beyond the plan's allowance (the `statements` task, src/wallet/statements.ts), and —
 * with webhooks — deliver the outbox (the `deliver` task fans events out and starts their sends,
 * which run off the loop).
 *
 * A committed write runs the tasks its route declares (`triggers`: a write that changes labels
 * re-ranks, one that changes a watch checks it, …) at once, off the request path; every committed
 * write triggers the tasks that ask for it (`afterEveryWrite`: `deliver`), so an event written by an API call leaves at once. The periodic
 * turns catch changes made by other processes (the admin CLI, another server on the same
 * PostgreSQL).
 *
 * `api`, `serve --api` and `start` run this loop, and so does `storelens worker` (without
 * serving); `api --requests-only` runs none of it. However many of them share the database, each
 * unit of work runs once: the ingest and each workspace's re-rank under a lease (db/leases.ts),
 * a watch check by the conditional UPDATE of the watch's generation, an outreach step by the
 * conditional UPDATE of its enrollment's step, a growth report by its claim, a closed month's
 * statement by the ledger's unique cause, a webhook message by its claim (`FOR UPDATE SKIP
 * LOCKED` on PostgreSQL). stop() waits for the task under way (a long one stops after its
 * current unit: a workspace, a chunk of a run) and for the webhook sends in flight.
 */
import type { BackgroundOptions, BackgroundTask, TaskFactory, TaskName } from '../api/tasks.js';
import type { Db } from '../db/database.js';
import { MODULES } from './modules.js';
import { taskFailureLog } from './task-failures.js';
import { startWorker, type Worker } from './task-loop.js';

export type { BackgroundOptions } from '../api/tasks.js';

export interface Background {
  worker: Worker;
  /** The names of the tasks this loop runs. */
  tasks: readonly string[];
  /** After a committed write: runs the tasks its route declares (`triggers`) at once, and the delivery of its events. */
  onWrite(triggers: readonly TaskName[], workspaceId: string): void;
  stop(): Promise<void>;
}

export function startBackground(db: Db, opts: BackgroundOptions): Background {
  const tasks: Partial<Record<TaskName, BackgroundTask>> = {};
  /** Runs a task at once if this process runs it. */
  const trigger = (task: TaskName) => {
    if (tasks[task]) worker.trigger(task);
  };
  for (const mod of MODULES)
    for (const [name, make] of Object.entries(mod.tasks ?? {}) as [TaskName, TaskFactory][]) {
      if (opts.only && !opts.only.includes(name)) continue;
      const task = make({ db, opts, trigger });
      if (task) tasks[name] = task;
    }
  const metrics = opts.metrics;
  const warn = opts.warn ?? opts.log;
  // A database outage is told when it starts and when it ends, not at every failed turn (compose/task-failures.ts).
  const failures = taskFailureLog(warn, opts.now);
  const worker = startWorker(
    tasks,
    (task, e) => failures.failed(task, e),
    (task, s, failed) => {
      metrics?.ran(task, s, failed);
      if (!failed) failures.ran(task);
    },
  );
  // Those that ask to run at once (the first ranking); the first look at the runs folder is on the ingest task's first turn.
  const atStart = Object.entries(tasks).filter(([, t]) => t.atStart).map(([name]) => name as TaskName);
  const afterEveryWrite = Object.entries(tasks).filter(([, t]) => t.afterEveryWrite).map(([name]) => name as TaskName);
  for (const task of atStart) trigger(task);
  return {
    worker,
    tasks: Object.keys(tasks),
    onWrite: (triggers) => {
      for (const task of triggers) trigger(task);
      for (const task of afterEveryWrite) trigger(task);
    },
    stop: async () => {
      await worker.stop();
      // Then what the tasks hold (the delivery's sends in flight, the re-ranking thread), last started first.
      for (const task of Object.values(tasks).reverse()) await task.stop?.();
    },
  };
}
