/**
 * The background work of a process that serves the API, on the one worker loop: ingest new
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
 * write triggers `deliver`, so an event written by an API call leaves at once. The periodic
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
import { startRefresher } from '../accounts/refresher.js';
import type { Trigger } from '../api/route-def.js';
import type { Db } from './database.js';
import { runOutreach } from '../outreach/task.js';
import { runReports } from '../reports/task.js';
import { runStatements } from '../wallet/statements.js';
import type { StatisticsSource } from '../reports/statistics.js';
import { evaluateWatches } from '../watches/evaluate.js';
import { createDeliverer, type Deliverer } from '../webhooks/deliver.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import { startWorker, type Task, type Worker } from './task-loop.js';

export interface BackgroundOptions {
  now: () => Date;
  log: (line: string) => void;
  /**
   * Looks for new runs of the panel and loads them (ingest/watcher.ts ingestCheck), made with the
   * callback to call after a load: the worker then re-ranks and checks the watches.
   */
  ingest?: { check: (onLoaded: () => void) => (stopping?: () => boolean) => Promise<void>; everyMs: number };
  /** How often the periodic re-ranking turn runs (default 5 s). */
  everyMs?: number;
  /** How often the periodic watch check runs (default 30 s; it writes only when a watch's inputs moved). */
  watchesEveryMs?: number;
  /** Deliver webhook events (the `deliver` task). */
  webhooks?: WebhookRuntime & { everyMs?: number; ca?: string | Buffer };
  /** Generate growth reports from these published statistics (the `reports` task). */
  reports?: { statistics: StatisticsSource; everyMs?: number };
  /** How often due outreach steps are looked for (default 10 s; needs `webhooks`, whose signing and guard it uses). */
  outreachEveryMs?: number;
  /** How often closed months are looked for to bill on the monthly statement (default 5 min). */
  statementsEveryMs?: number;
  /** Run only these tasks (`api --requests-only`: none); default all. */
  only?: readonly string[];
}

export interface Background {
  worker: Worker;
  /** The names of the tasks this loop runs. */
  tasks: readonly string[];
  deliverer?: Deliverer;
  /** After a committed write: runs the tasks its route declares (`triggers`) at once, and the delivery of its events. */
  onWrite(triggers: readonly Trigger[], workspaceId: string): void;
  stop(): Promise<void>;
}

export function startBackground(db: Db, opts: BackgroundOptions): Background {
  // Off the request thread when it can be (accounts/refresher.ts).
  const refresher = startRefresher(db);
  const tasks: Record<string, Task> = {
    refresh: {
      everyMs: opts.everyMs ?? 5_000,
      run: async (stopping) => {
        for (const [ws, r] of await refresher.refreshAll(opts.now(), stopping)) {
          if (r.refreshed) opts.log(`re-ranked workspace ${ws}: ${r.accounts} accounts, ${r.in_market} in market (${r.explore} exploring), ${r.labels} labels, model v${r.model_version}`);
        }
        // A re-ranking writes store.* events: send them now, not on the next periodic turn.
        trigger('deliver');
      },
    },
    // After the refresh (its in-market accounts are what the managed watch holds).
    watches: {
      everyMs: opts.watchesEveryMs ?? 30_000,
      run: async () => {
        const s = await evaluateWatches(db, opts.now());
        if (s.checked) opts.log(`checked ${s.checked} watch${s.checked === 1 ? '' : 'es'}: ${s.changed} changed health`);
        trigger('deliver');
      },
    },
    // A closed month is billed once (the ledger's unique cause), so several servers may all run it.
    statements: {
      everyMs: opts.statementsEveryMs ?? 300_000,
      run: async (stopping) => void (await runStatements(db, { now: opts.now, log: opts.log, stopping })),
    },
  };
  if (opts.reports) {
    const { statistics } = opts.reports;
    tasks.reports = {
      everyMs: opts.reports.everyMs ?? 2_000,
      run: async (stopping) => void (await runReports(db, { now: opts.now, statistics, log: opts.log, stopping })),
    };
  }
  if (opts.webhooks) {
    const webhooks = opts.webhooks;
    tasks.outreach = {
      everyMs: opts.outreachEveryMs ?? 10_000,
      run: async (stopping) => void (await runOutreach(db, { now: opts.now, webhooks, ca: webhooks.ca, log: opts.log, stopping })),
    };
  }
  if (opts.ingest) {
    tasks.ingest = {
      everyMs: opts.ingest.everyMs,
      run: opts.ingest.check(() => {
        trigger('refresh');
        trigger('watches');
      }),
    };
  }
  let deliverer: Deliverer | undefined;
  if (opts.webhooks) {
    const d = createDeliverer(db, { now: opts.now, box: opts.webhooks.box, guard: opts.webhooks.guard, ca: opts.webhooks.ca, log: opts.log, onSettled: () => trigger('deliver') });
    deliverer = d;
    tasks.deliver = { everyMs: opts.webhooks.everyMs ?? 1_000, run: async () => void (await d.pump()) };
  }
  if (opts.only) for (const name of Object.keys(tasks)) if (!opts.only.includes(name)) delete tasks[name];
  const worker = startWorker(tasks, (task, e) => opts.log(`${task} failed (will retry): ${(e as Error).message}`));
  /** Runs a task at once if this process runs it. */
  function trigger(task: string): void {
    if (tasks[task]) worker.trigger(task);
  }
  // The first ranking now; the first look at the runs folder on the ingest task's first turn.
  trigger('refresh');
  trigger('statements');
  trigger('deliver');
  return {
    worker,
    tasks: Object.keys(tasks),
    deliverer,
    onWrite: (triggers) => {
      for (const task of triggers) trigger(task);
      trigger('deliver');
    },
    stop: async () => {
      await worker.stop();
      await deliverer?.stop();
      await refresher.close();
    },
  };
}
