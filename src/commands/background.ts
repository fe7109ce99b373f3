/**
 * The background work of a process that serves the API, on the one worker loop: ingest new
 * runs of the panel (while serving: readers see a month once it is whole), re-rank workspaces whose inputs moved (new months, a profile, an
 * outcome, a status), and check the watches (src/watches/evaluate.ts) after each load, after a
 * watch changes, and on their own interval. A write that changes labels triggers a re-rank at once, off the request
 * path; the periodic turns catch changes made by other processes (the admin CLI, another
 * server on the same PostgreSQL).
 */
import { refreshAll } from '../accounts/refresh.js';
import { evaluateWatches } from '../watches/evaluate.js';
import type { Db } from '../db/index.js';
import { startWorker, type Task, type Worker } from '../worker.js';

/** Operations whose commit moves a workspace's ranking inputs. */
const RERANKING = new Set(['record_outcome', 'set_account_status', 'create_deal', 'move_deal_stage']);
/** Operations whose commit changes what a watch holds: the watch is checked at once. */
const REWATCHING = new Set(['resize_managed_watch', 'add_watch', 'add_watch_stores', 'remove_watch_store']);

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
  /** How often the periodic watch check runs (default 30 s; it writes only when a watch's inputs moved). */
  watchesEveryMs?: number;
}

export interface Background {
  worker: Worker;
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
      },
    },
    // After the refresh (its in-market accounts are what the managed watch holds).
    watches: {
      everyMs: opts.watchesEveryMs ?? 30_000,
      run: async () => {
        const s = await evaluateWatches(db, opts.now());
        if (s.checked) opts.log(`checked ${s.checked} watch${s.checked === 1 ? '' : 'es'}: ${s.changed} changed health`);
      },
    },
  };
  const afterIngest = () => {
    worker.trigger('refresh');
    worker.trigger('watches');
  };
  if (opts.ingest) tasks.ingest = { everyMs: opts.ingest.everyMs, run: opts.ingest.check(afterIngest) };
  const worker = startWorker(tasks, (task, e) => opts.log(`${task} failed (will retry): ${(e as Error).message}`));
  // The first ranking now; the first look at the runs folder on the ingest task's first turn.
  worker.trigger('refresh');
  return {
    worker,
    onWrite: (op) => {
      if (RERANKING.has(op)) worker.trigger('refresh');
      if (REWATCHING.has(op)) worker.trigger('watches');
    },
    stop: () => worker.stop(),
  };
}
