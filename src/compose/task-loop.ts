/**
 * The one background loop of a server process: named tasks run one at a time, each on its own
 * interval and whenever something triggers it (a trigger while the task is pending coalesces;
 * while it runs, it runs once more after). Errors are reported, never thrown: a failing task
 * runs again on its next turn.
 *
 * Stopping clears the timers, refuses triggers and waits for the task that is running (which may
 * ask `stopping()` to finish early, between units of its work); no task starts after stop(). The
 * timers are unref'd: the loop alone never keeps a process alive (`storelens worker` does that
 * itself until its signal).
 */
import type { Task } from '../api/tasks.js';

export type { Task } from '../api/tasks.js';

export interface Worker {
  /** Run the named task soon. */
  trigger(name: string): void;
  /** Resolves once nothing is pending or running. */
  idle(): Promise<void>;
  /** Stops the timers and triggers, and waits for the running task; nothing runs after it resolves. */
  stop(): Promise<void>;
}

export function startWorker(tasks: Record<string, Task>, onError: (task: string, e: unknown) => void, observe?: (task: string, seconds: number, failed: boolean) => void): Worker {
  const pending = new Set<string>();
  let running: Promise<void> | null = null;
  let stopped = false;
  const waiters: Array<() => void> = [];
  const isStopping = () => stopped;

  const drain = async () => {
    while (pending.size && !stopped) {
      const [name] = pending;
      pending.delete(name);
      const started = performance.now();
      let failed = false;
      try {
        await tasks[name].run(isStopping);
      } catch (e) {
        failed = true;
        onError(name, e);
      }
      observe?.(name, (performance.now() - started) / 1000, failed);
    }
    running = null;
    for (const w of waiters.splice(0)) w();
  };
  const trigger = (name: string) => {
    if (stopped) return;
    if (!tasks[name]) throw new Error(`no worker task ${name}`);
    pending.add(name);
    running ??= drain();
  };
  const timers = Object.entries(tasks)
    .filter(([, t]) => t.everyMs !== undefined)
    .map(([name, t]) => {
      const timer = setInterval(() => trigger(name), t.everyMs);
      timer.unref();
      return timer;
    });
  return {
    trigger,
    idle: () => (running ? new Promise<void>((resolve) => waiters.push(resolve)) : Promise.resolve()),
    async stop() {
      stopped = true;
      for (const t of timers) clearInterval(t);
      await running;
    },
  };
}
