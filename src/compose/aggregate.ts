/**
 * What a workspace aggregate hands the composition: its REST operations (`routes`, in
 * documentation order) and its background tasks (`tasks`); its tables and migrations come from
 * its tables.ts (compose/database.ts). compose/aggregates.ts lists the aggregates; the route
 * table and the background loop are concatenations of what they export.
 *
 * A task is a factory given the process's database, options and a way to trigger other tasks;
 * it answers undefined when this process lacks what the task needs (no webhooks runtime: no
 * delivery). compose/background.ts runs the tasks on the one loop (compose/task-loop.ts).
 */
import type { AnyRoute } from '../api/route-def.js';
import type { StatisticsSource } from '../reports/statistics.js';
import type { WebhookRuntime } from '../webhooks/runtime.js';
import type { Db } from './database.js';
import type { Task } from './task-loop.js';
import type { TaskMetrics } from '../ops/metrics.js';

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
  /** Where the tasks' runs, failures and durations are counted (the process's metrics; none: not counted). */
  metrics?: TaskMetrics;
  /** Run only these tasks (`api --requests-only`: none); default all. */
  only?: readonly string[];
}

/** The names of the background tasks, which a route's `triggers` name too. */
export type TaskName = 'refresh' | 'watches' | 'statements' | 'reports' | 'outreach' | 'ingest' | 'deliver';

export interface TaskContext {
  db: Db;
  opts: BackgroundOptions;
  /** Runs another task of this process soon (a no-op for one this process does not run). */
  trigger(task: TaskName): void;
}

export interface BackgroundTask extends Task {
  /** Releases what the task holds (a thread, sends in flight), after the loop has stopped. */
  stop?: () => Promise<void>;
}

export type TaskFactory = (ctx: TaskContext) => BackgroundTask | undefined;

export interface Aggregate {
  /** Its /api/v1 operations, in documentation order. */
  readonly routes?: readonly AnyRoute[];
  /** Its background tasks, by name. */
  readonly tasks?: Partial<Record<TaskName, TaskFactory>>;
}
