/** Progress on stderr, only when stderr is a terminal (quiet in CI and in pipes). */
import type { Env } from '../core/env.js';

export interface Progress {
  update(message: string): void;
  /**
   * A new phase starts: the one before, when it took a second or more, keeps a line of its
   * own with its time (`publish: reading 2.3s`).
   */
  phase(name: string): void;
  /**
   * A line of its own (a warning), written whole on a terminal: the progress line is cleared
   * first and drawn again below it, so the two never share a line.
   */
  note(line: string): void;
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
  /** what the progress line says now (on a terminal), drawn again after a note */
  let shown: string | undefined;
  const show = (text: string) => {
    shown = text;
    env.stderr.write(`\r\x1b[2K${task}: ${text} (${elapsed()})`);
  };
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
      if (tty) show(name);
    },
    update: (message) => {
      if (tty) show(message);
    },
    note: (line) => {
      if (!tty) return void env.stderr.write(`${line}\n`);
      env.stderr.write(`\r\x1b[2K${line}\n`);
      if (shown !== undefined) show(shown);
    },
    done: (message) => {
      endPhase();
      shown = undefined;
      if (tty) env.stderr.write(`\r\x1b[2K${task}: ${message} in ${elapsed()}\n`);
    },
  };
}
