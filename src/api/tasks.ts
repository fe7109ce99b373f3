/**
 * The background-task half of the module contract (api/workspace-module.ts). A module names its
 * tasks and the options they read by adding to `TaskNames` and `BackgroundOptions` from its
 * module.ts (a TypeScript module augmentation, `declare module '../api/tasks.js'`): the task
 * names a route's `triggers` may list, and the options compose/background.ts is started with, are
 * what the modules declare, with no list to keep here.
 *
 * A task is a factory given the process's database, options and a way to trigger other tasks;
 * it answers undefined when this process lacks what the task needs (no webhooks runtime: no
 * delivery). compose/background.ts runs the tasks on the one loop (compose/task-loop.ts).
 */
import type { Db } from '../db/database.js';
import type { TaskMetrics } from '../ops/metrics.js';
import type { OutboundRuntime } from '../outbound/runtime.js';

/** The background tasks, by name: each module adds its own (`refresh: true`). */
// Empty here: each module adds its tasks.
export interface TaskNames {}

/** The name of a background task, which a route's `triggers` name too. */
export type TaskName = keyof TaskNames & string;

/** What the background loop is started with: these, and the knobs each module adds. */
export interface BackgroundOptions {
  now: () => Date;
  log: (line: string) => void;
  /**
   * A failure (a task's turn that threw): at warn level in a serving process's log, so that
   * `--log-level warn`, which leaves the request lines out, still tells it. Default: `log`.
   */
  warn?: (line: string) => void;
  /** Where the tasks' runs, failures and durations are counted (the process's metrics; none: not counted). */
  metrics?: TaskMetrics;
  /** Run only these tasks (`api --requests-only`: none); default all. */
  only?: readonly string[];
  /** The outbound runtime (secrets, SSRF guard) of tasks that send (webhook delivery, outreach); without it they do not run. */
  outbound?: OutboundRuntime & { ca?: string | Buffer };
}

/** One task of the loop. */
export interface Task {
  /** `stopping()` turns true once stop() is called: a long task stops after its current unit. */
  run: (stopping: () => boolean) => Promise<void>;
  /** Also run every this many milliseconds (omit: only when triggered). */
  everyMs?: number;
}

export interface BackgroundTask extends Task {
  /** Run once as soon as the loop starts (not only after its first interval). */
  atStart?: boolean;
  /** Run after every committed API write, besides the route's own `triggers` (the delivery of its events). */
  afterEveryWrite?: boolean;
  /** Releases what the task holds (a thread, sends in flight), after the loop has stopped. */
  stop?: () => Promise<void>;
}

export interface TaskContext {
  db: Db;
  opts: BackgroundOptions;
  /** Runs another task of this process soon (a no-op for one this process does not run). */
  trigger(task: TaskName): void;
}

export type TaskFactory = (ctx: TaskContext) => BackgroundTask | undefined;
