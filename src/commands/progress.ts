/** Progress on stderr, only when stderr is a terminal (quiet in CI and in pipes). */
import type { Env } from '../core/env.js';

export interface Progress {
  update(message: string): void;
  /**
   * A new phase starts: the one before, when it took a second or more, keeps a line of its
   * own with its time (`publish: reading 2.3s`).
   */
  phase(name: string): void;
  done(message: string): void;
}

/** Phases shorter than this leave no line of their own. */
const PHASE_LINE_MS = 1000;

export interface ProgressOptions {
  /** the clock phases and the elapsed time are read from, in milliseconds (tests pass a fake one) */
  now?: () => number;
}

export function progress(env: Env, task: string, { now = Date.now }: ProgressOptions = {}): Progress {
  const tty = Boolean(env.stderr.isTTY) && !env.env.CI;
  const started = now();
  const elapsed = () => `${((now() - started) / 1000).toFixed(1)}s`;
  let current: { name: string; since: number } | undefined;
  const endPhase = () => {
    if (tty && current && now() - current.since >= PHASE_LINE_MS) {
      env.stderr.write(`\r\x1b[2K${task}: ${current.name} ${((now() - current.since) / 1000).toFixed(1)}s\n`);
    }
    current = undefined;
  };
  return {
    phase: (name) => {
      endPhase();
      current = { name, since: now() };
      if (tty) env.stderr.write(`\r\x1b[2K${task}: ${name} (${elapsed()})`);
    },
    update: (message) => {
      if (tty) env.stderr.write(`\r\x1b[2K${task}: ${message} (${elapsed()})`);
    },
    done: (message) => {
      endPhase();
      if (tty) env.stderr.write(`\r\x1b[2K${task}: ${message} in ${elapsed()}\n`);
    },
  };
}
