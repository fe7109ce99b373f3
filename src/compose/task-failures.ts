/**
 * How the background loop tells its tasks' failures. A database that does not answer fails every
 * turn of every task that reads it (the delivery's turn comes every second in `api`, four times a
 * second in `storelens worker`), so an outage is told twice: when the first turn fails so, and
 * when a task that failed so completes a turn again, with how many turns failed in between. Any
 * other failure is told at every turn, as it happens.
 */
import { isDatabaseUnavailable } from '../db/errors.js';

export interface TaskFailureLog {
  /** A task's turn threw. */
  failed(task: string, e: unknown): void;
  /** A task's turn completed. */
  ran(task: string): void;
}

export function taskFailureLog(warn: (line: string) => void, now: () => Date): TaskFailureLog {
  let outage: { since: Date; turns: number; tasks: Set<string> } | undefined;
  return {
    failed(task, e) {
      const why = e instanceof Error ? e.message : String(e);
      if (!isDatabaseUnavailable(e)) return warn(`${task} failed (will retry): ${why}`);
      if (outage) {
        outage.turns++;
        outage.tasks.add(task);
        return;
      }
      outage = { since: now(), turns: 1, tasks: new Set([task]) };
      warn(`the database is unavailable (${task}: ${why}): the background tasks retry on their turns, and this log says once when it answers again`);
    },
    ran(task) {
      // Only a task that failed so has reached the database since: another may not read it at all.
      if (!outage?.tasks.has(task)) return;
      const { since, turns } = outage;
      outage = undefined;
      const seconds = Math.max(0, (now().getTime() - since.getTime()) / 1000);
      warn(`the database answers again: ${turns} turn${turns === 1 ? '' : 's'} of background tasks failed in ${seconds.toFixed(1)} s (since ${since.toISOString()})`);
    },
  };
}
