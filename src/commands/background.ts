/**
 * The background work of a process that serves the API, on the one worker loop: ingest new
 * runs of the panel (while serving: readers see a month once it is whole), and re-rank workspaces whose inputs moved (new months, a profile, an
 * outcome, a status). A write that changes labels triggers a re-rank at once, off the request
 * path; the periodic turns catch changes made by other processes (the admin CLI, another
 * server on the same PostgreSQL). With webhooks, the `deliver` task fans events out and starts
 * their sends (which run off the loop); every committed write triggers it, so an event written
 * by an API call leaves at once.
 */
import { refreshAll } from '../accounts/refresh.js';
import type { Db } from '../db/index.js';
import { createDeliverer, type Deliverer } from '../webhooks/deliver.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import { startWorker, type Task, type Worker } from '../worker.js';

/** Operations whose commit moves a workspace's ranking inputs. */
const RERANKING = new Set(['record_outcome', 'set_account_status']);

export interface BackgroundOptions {
  now: () => Date;
  log: (line: string) => void;
  /**
   * Looks for new runs of the panel and loads them (ingest/watcher.ts ingestCheck), made with the
   * callback to call after a load: the worker then re-ranks.
   */
  ingest?: { check: (onLoaded: () => void) => () => Promise<void>; everyMs: number };
  /** How often the periodic re-ranking turn runs (default 5 s). */
  everyMs?: number;
  /** Deliver webhook events (the `deliver` task). */
  webhooks?: WebhookRuntime & { everyMs?: number; ca?: string | Buffer };
  /** Run only these tasks (`storelens worker`: deliver only); default all. */
  only?: readonly string[];
}

export interface Background {
  worker: Worker;
  deliverer?: Deliverer;
  onWrite(operationId: string, workspaceId: string): void;
  stop(): Promise<void>;
}

export function startBackground(db: Db, opts: BackgroundOptions): Background {
  const every = opts.everyMs ?? 5_000;
  const tasks: Record<string, Task> = {
    refresh: {
      everyMs: every,
      run: async () => {
        for (const [ws, r] of await refreshAll(db, opts.now())) {
          if (r.refreshed) opts.log(`re-ranked workspace ${ws}: ${r.accounts} accounts, ${r.in_market} in market (${r.explore} exploring), ${r.labels} labels, model v${r.model_version}`);
        }
        // A re-ranking writes store.* events: send them now, not on the next periodic turn.
        if (tasks.deliver) worker.trigger('deliver');
      },
    },
  };
  if (opts.ingest) {
    tasks.ingest = {
      everyMs: opts.ingest.everyMs,
      run: opts.ingest.check(() => {
        worker.trigger('refresh');
        if (tasks.deliver) worker.trigger('deliver');
      }),
    };
  }
  let deliverer: Deliverer | undefined;
  if (opts.webhooks) {
    const d = createDeliverer(db, { now: opts.now, box: opts.webhooks.box, guard: opts.webhooks.guard, ca: opts.webhooks.ca, log: opts.log, onSettled: () => worker.trigger('deliver') });
    deliverer = d;
    tasks.deliver = { everyMs: opts.webhooks.everyMs ?? 1_000, run: async () => void (await d.pump()) };
  }
  if (opts.only) for (const name of Object.keys(tasks)) if (!opts.only.includes(name)) delete tasks[name];
  const worker = startWorker(tasks, (task, e) => opts.log(`${task} failed (will retry): ${(e as Error).message}`));
  // The first ranking now; the first look at the runs folder on the ingest task's first turn.
  for (const first of ['refresh', 'deliver']) if (tasks[first]) worker.trigger(first);
  return {
    worker,
    deliverer,
    onWrite: (op) => {
      if (RERANKING.has(op) && tasks.refresh) worker.trigger('refresh');
      if (tasks.deliver) worker.trigger('deliver');
    },
    stop: async () => {
      await worker.stop();
      await deliverer?.stop();
    },
  };
}
