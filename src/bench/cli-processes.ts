/**
 * Real `storelens` child processes for the benchmarks that measure what an operator runs
 * (scaleout.ts, api-observed.ts): each started from the built CLI and ready when its stderr
 * says so or its readiness probe answers 200, and every one stopped with SIGTERM at the end.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

const BIN = fileURLToPath(new URL('../../bin/storelens.js', import.meta.url));

export interface CliProcesses {
  /**
   * Starts `storelens <args>`. `ready`: a pattern its stderr matches once it is ready (the match
   * is returned), or the URL of its readiness probe. `cpus`: the processors it may run on
   * (taskset's list; load.ts pinning()).
   */
  start(args: string[], ready: RegExp | string, cpus?: string): Promise<{ child: ChildProcess; match?: RegExpMatchArray }>;
  /** SIGTERM to every process still running, and their exits awaited. */
  stopAll(): Promise<void>;
}

export function cliProcesses(env: Readonly<Record<string, string | undefined>>): CliProcesses {
  const running: ChildProcess[] = [];
  const stop = async (child: ChildProcess) => {
    if (child.exitCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    await exited;
  };
  return {
    start: (args, ready, cpus) =>
      new Promise((resolve, reject) => {
        // taskset execs node in its own process, so the child's pid is the server's.
        const [command, argv] = cpus === undefined ? [process.execPath, [BIN, ...args]] : ['taskset', ['-c', cpus, process.execPath, BIN, ...args]];
        const child = spawn(command, argv, { env, stdio: ['ignore', 'ignore', 'pipe'] });
        running.push(child);
        let err = '';
        let exited = false;
        let settled = false;
        const done = (r: { child: ChildProcess; match?: RegExpMatchArray }) => ((settled = true), resolve(r));
        // Read to the end (a full pipe would stall the process), but look at it only until ready:
        // a process logging each request must not make the benchmark scan its log meanwhile.
        child.stderr!.on('data', (c: Buffer) => {
          if (settled) return;
          err += c.toString();
          const m = typeof ready === 'string' ? null : err.match(ready);
          if (m) done({ child, match: m });
        });
        child.once('exit', (code) => {
          exited = true;
          if (!settled) reject(new Error(`storelens ${args[0]} exited (${code}) before it was ready:\n${err}`));
        });
        if (typeof ready === 'string') {
          const probe = async () => {
            while (!exited) {
              try {
                if ((await fetch(ready)).status === 200) return done({ child });
              } catch {
                // Not listening yet.
              }
              await new Promise((r) => setTimeout(r, 100));
            }
          };
          void probe();
        }
      }),
    stopAll: async () => {
      await Promise.all(running.splice(0).map(stop));
    },
  };
}

/** A port free on 127.0.0.1 now (for a process that must be told its port before it starts). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
