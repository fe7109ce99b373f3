/** Progress on stderr, only when stderr is a terminal (quiet in CI and in pipes). */
import type { Env } from './env.js';

export interface Progress {
  update(message: string): void;
  done(message: string): void;
}

export function progress(env: Env, task: string): Progress {
  const tty = Boolean(env.stderr.isTTY) && !env.env.CI;
  const started = Date.now();
  const elapsed = () => `${((Date.now() - started) / 1000).toFixed(1)}s`;
  return {
    update: (message) => {
      if (tty) env.stderr.write(`\r\x1b[2K${task}: ${message} (${elapsed()})`);
    },
    done: (message) => {
      if (tty) env.stderr.write(`\r\x1b[2K${task}: ${message} in ${elapsed()}\n`);
    },
  };
}
