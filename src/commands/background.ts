/**
 * The background work of a process that serves the API, on the one worker loop: ingest new
 * runs of the panel, and re-rank workspaces whose inputs moved (new months, a profile, an
 * outcome, a status). A write that changes labels triggers a re-rank at once, off the request
 * path; the periodic turns catch changes made by other processes (the admin CLI, another
 * server on the same PostgreSQL).
 */
import { refreshAll } from '../accounts/refresh.js';
import type { Db } from '../db/index.js';
import { startWorker, type Task, type Worker } from '../worker.js';

/** Operations whose commit moves a workspace's ranking inputs. */
const RERANKING = new Set(['record_outcome', 'set_account_status']);

export interface BackgroundOptions {
  now: () => Date;
  log: (line: string) => void;
  /** Loads new runs of the panel; resolves to the months it loaded (none: nothing new). */
  ingest?: () => Promise<{ months: string[] }>;
  /** How often the periodic turns run (default 5 s). */
  everyMs?: number;
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
  };
  const ingest = opts.ingest;
  if (ingest) {
    tasks.ingest = {
      everyMs: every,
      run: async () => {
        const r = await ingest();
        if (r.months.length) {
          opts.log(`ingested ${r.months.join(', ')}`);
          worker.trigger('refresh');
        }
      },
    };
  }
  const worker = startWorker(tasks, (task, e) => opts.log(`${task} failed (will retry): ${(e as Error).message}`));
  if (ingest) worker.trigger('ingest');
  worker.trigger('refresh');
  return {
    worker,
    onWrite: (op) => {
      if (RERANKING.has(op)) worker.trigger('refresh');
    },
    stop: () => worker.stop(),
  };
}
