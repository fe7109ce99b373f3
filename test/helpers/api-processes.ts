/**
 * Real `storelens api` (and `storelens worker`) processes over one database, as an operator
 * scales out: each is `node bin/storelens.js …` from the built CLI, with its own connection pool
 * and its own in-memory state, on a free port. The test opens the same database beside them to
 * seed it and to check what they stored.
 */
import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { TestDb } from './db.js';

const ROOT = resolve(import.meta.dirname, '../..');
const BIN = join(ROOT, 'bin/storelens.js');

export interface StorelensProcess {
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Everything it wrote to stdout so far. */
  stdout(): string;
  /** Resolves once stderr holds a match of `re` (its first match). */
  waitFor(re: RegExp): Promise<RegExpMatchArray>;
  /** SIGTERM, then its exit code and stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
  /** Resolves when it exits by itself. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `storelens …args` as a child process over the test database `t` (SQLite file or PostgreSQL schema). */
export function spawnStorelens(t: Pick<TestDb, 'dbPath' | 'databaseUrl'>, args: readonly string[], env: Record<string, string> = {}): StorelensProcess {
  const dbArgs = t.databaseUrl ? [] : ['--db', t.dbPath!];
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), TZ: 'UTC', ...env };
  if (t.databaseUrl) childEnv.DATABASE_URL = t.databaseUrl;
  else delete childEnv.DATABASE_URL;
  const child = spawn(process.execPath, [BIN, ...args, ...dbArgs], { cwd: ROOT, env: childEnv, stdio: ['pipe', 'pipe', 'pipe'] });
  let err = '';
  let out = '';
  const watchers: { re: RegExp; resolve: (m: RegExpMatchArray) => void }[] = [];
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => child.on('exit', (code, signal) => done({ code, signal })));
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => {
    err += chunk.toString();
    for (const w of watchers.splice(0)) {
      const m = err.match(w.re);
      if (m) w.resolve(m);
      else watchers.push(w);
    }
  });
  return {
    child,
    exited,
    stderr: () => err,
    stdout: () => out,
    waitFor: (re) =>
      new Promise((resolveMatch, reject) => {
        const m = err.match(re);
        if (m) return resolveMatch(m);
        watchers.push({ re, resolve: resolveMatch });
        void exited.then(({ code }) => reject(new Error(`storelens ${args[0]} exited (${code}) before printing ${re}:\n${err}`)));
      }),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const { code } = await exited;
      return { code, stderr: err };
    },
  };
}

export interface ApiProcesses {
  /** Each process's /api/v1 base URL. */
  readonly bases: readonly string[];
  readonly processes: readonly StorelensProcess[];
  /** The base URL of the i-th request when requests alternate over the processes. */
  base(i: number): string;
  /** SIGTERM to every process; resolves to their exit codes and stderr. */
  stop(): Promise<{ code: number | null; stderr: string }[]>;
}

/**
 * `count` `storelens api` processes over the test database, each on a free port, with an empty
 * runs folder and output folder of their own (nothing to ingest, no statistics to cite).
 */
export async function startApiProcesses(t: Pick<TestDb, 'dbPath' | 'databaseUrl'>, count = 2, env: Record<string, string> = {}): Promise<ApiProcesses> {
  const dir = mkdtempSync(join(tmpdir(), 'storelens-procs-'));
  const processes = Array.from({ length: count }, () =>
    spawnStorelens(t, ['api', '--port', '0', '--host', '127.0.0.1', '--runs', join(dir, 'runs'), '--out', join(dir, 'out'), '--webhooks-allow-local'], env),
  );
  let bases: string[];
  try {
    bases = await Promise.all(processes.map(async (p) => (await p.waitFor(/storelens api: (http:\/\/\S+\/api\/v1)/))[1]!));
  } catch (e) {
    await Promise.all(processes.map((p) => p.stop('SIGKILL')));
    rmSync(dir, { recursive: true, force: true });
    throw e;
  }
  return {
    bases,
    processes,
    base: (i) => bases[i % bases.length]!,
    async stop() {
      const r = await Promise.all(processes.map((p) => p.stop()));
      rmSync(dir, { recursive: true, force: true });
      return r;
    },
  };
}
