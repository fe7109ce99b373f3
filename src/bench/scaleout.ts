/**
 * The scale-out benchmark: req/s (2xx only) and p99 of `GET /api/v1/accounts?limit=50` and of
 * `POST /api/v1/outcomes` against one `storelens api` process (which also runs the background
 * tasks), then against two `api --requests-only` processes and one `storelens worker` on the same
 * database — real child processes of the built CLI, as an operator runs them — on a SQLite file
 * and, when DATABASE_URL is set, on PostgreSQL.
 *
 * The database is a temporary SQLite file, or a private schema of DATABASE_URL dropped
 * afterwards, with one workspace, 500 accounts and enough keys that no key passes its default
 * per-minute limit during a run (each configuration gets keys of its own; a run stops when its
 * keys' budget is spent), so every request takes the path of a real call. With two processes
 * the load is two generators, one per process with half the connections and half the keys:
 * req/s is their sum, p99 the larger of their two p99s. On this 2-core machine the processes
 * and the load generators share the two cores: CPU, not the database, is the first limit.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { BENCH_ACCOUNTS, seedBenchWorkspace } from './api.js';
import { cliProcesses } from './cli-processes.js';
import { type OpFigures, runLoad } from './load.js';
import { machineCpuMicros, processCpuMicros } from './machine.js';
import { benchSchema } from './pg-schema.js';

const READ_LIMIT = 120;
const WRITE_LIMIT = 20;
/** Key budgets: enough for this many req/s over a run without passing a limit (reads, writes). */
const CEILING_READS = 24_000;
const CEILING_WRITES = 8_000;

/** Shares (0 to 1) of the machine's CPU time (every core) while the reads ran. */
export interface CpuUse {
  /** Not idle. */
  busy: number;
  /** The storelens processes (api, worker). */
  servers: number;
  /** PostgreSQL's server processes of the database; absent on SQLite. */
  database?: number;
}

export interface ScaleoutFigures {
  reads: OpFigures;
  writes: OpFigures;
  /** Where the machine's CPU went during the reads (undefined where /proc is not Linux's). */
  readsCpu?: CpuUse;
}

export interface ScaleoutBenchResult {
  database: 'SQLite' | 'PostgreSQL';
  one: ScaleoutFigures;
  two: ScaleoutFigures;
  connections: number;
  seconds: number;
}

/**
 * `databaseUrl`: PostgreSQL, else a SQLite file. `processEnv`: the environment the child
 * processes inherit (DATABASE_URL is set to the benchmark's schema, or removed for SQLite).
 */
export async function benchScaleout(
  databaseUrl: string | undefined,
  processEnv: Readonly<Record<string, string | undefined>>,
  log: (line: string) => void,
  opts: { seconds?: number; connections?: number } = {},
): Promise<ScaleoutBenchResult> {
  const seconds = opts.seconds ?? 5;
  const connections = opts.connections ?? 32;
  const { openDatabase } = await import('../compose/database.js');
  const database = databaseUrl === undefined ? 'SQLite' : 'PostgreSQL';

  const schema = databaseUrl === undefined ? undefined : await benchSchema(databaseUrl, 'bench_scaleout');
  const admin = schema?.admin;
  const url = schema?.url;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-scaleout-'));
  const dbPath = path.join(dir, 'scaleout.db');
  const db = await openDatabase(url ? { databaseUrl: url } : { dbPath });
  const processes = cliProcesses({ ...processEnv, DATABASE_URL: url });
  try {
    const { issue } = await seedBenchWorkspace(db, new Date());
    const readKeys = Math.ceil((CEILING_READS * seconds) / READ_LIMIT);
    const writeKeys = Math.ceil((CEILING_WRITES * seconds) / WRITE_LIMIT);
    const servers: number[] = [];
    const databasePids = async () =>
      admin === undefined
        ? []
        : (await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()')).rows.map((r) => Number(r.pid));
    log(`scaleout: ${database}: issuing ${2 * readKeys} read keys and ${2 * writeKeys} write keys …`);

    const dbArgs = url ? [] : ['--db', dbPath];
    const start = async (args: string[], ready: RegExp) => {
      const r = await processes.start([...args, ...dbArgs, '--runs', path.join(dir, 'runs'), '--out', path.join(dir, 'out')], ready);
      if (r.child.pid !== undefined) servers.push(r.child.pid);
      return r;
    };
    const api = async (extra: string[]) => (await start(['api', '--port', '0', '--host', '127.0.0.1', ...extra], /storelens api: (http:\/\/\S+\/api\/v1)/)).match![1]!;
    /** Both operations over `bases`, one load generator per base (splitting connections and keys). */
    const measure = async (label: string, bases: string[], read: string[], write: string[]): Promise<ScaleoutFigures> => {
      const split = (keys: string[], k: number) => keys.filter((_, i) => i % bases.length === k);
      const over = (plan: (base: string, k: number) => Parameters<typeof runLoad>[0]) => Promise.all(bases.map((b, k) => runLoad(plan(b, k)))).then(merge);
      const per = Math.max(1, Math.floor(connections / bases.length));
      log(`scaleout: ${database}: ${label}: GET /accounts?limit=50, ${seconds} s, ${connections} connections …`);
      const before = cpuReading(servers, await databasePids());
      const reads = await over((b, k) => ({ url: `${b}/accounts?limit=50`, method: 'GET', connections: per, seconds, keys: split(read, k), uses: READ_LIMIT }));
      const readsCpu = before && cpuUse(before, cpuReading(servers, await databasePids()), admin !== undefined);
      log(`scaleout: ${database}: ${label}: POST /outcomes, ${seconds} s, ${connections} connections …`);
      const writes = await over((b, k) => ({ url: `${b}/outcomes`, method: 'POST', connections: per, seconds, keys: split(write, k), uses: WRITE_LIMIT, outcomes: { accounts: BENCH_ACCOUNTS } }));
      for (const [name, f] of [['reads', reads], ['writes', writes]] as const) {
        if (f.non2xx || f.errors) log(`scaleout: warning: ${label} ${name} had ${f.non2xx} non-2xx responses and ${f.errors} errors`);
      }
      return { reads, writes, readsCpu };
    };

    const single = await api([]);
    const one = await measure('one api process', [single], await issue(readKeys, 'read'), await issue(writeKeys, 'write'));
    await processes.stopAll();
    servers.length = 0;

    const bases = [await api(['--requests-only']), await api(['--requests-only'])];
    await start(['worker'], /storelens worker: delivering/);
    const two = await measure('two api processes and a worker', bases, await issue(readKeys, 'read'), await issue(writeKeys, 'write'));
    return { database, one, two, connections, seconds };
  } finally {
    await processes.stopAll();
    await db.close();
    await schema?.drop();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The machine's CPU time (every core: all, idle) and each process's, in µs; undefined off Linux. */
interface CpuReading {
  total: number;
  idle: number;
  servers: Map<number, number>;
  database: Map<number, number>;
}

function cpuReading(servers: readonly number[], database: readonly number[]): CpuReading | undefined {
  const m = machineCpuMicros();
  return m && { total: m.total, idle: m.idle, servers: processesCpu(servers), database: processesCpu(database) };
}

/** The CPU time (µs) of each process still running (a backend that closed is not counted). */
function processesCpu(pids: readonly number[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const pid of pids) {
    const us = processCpuMicros(pid);
    if (us !== undefined) out.set(pid, us);
  }
  return out;
}

function cpuUse(a: CpuReading, b: CpuReading | undefined, postgres: boolean): CpuUse | undefined {
  if (!b || b.total <= a.total) return undefined;
  const spent = (from: Map<number, number>, to: Map<number, number>) => [...to].reduce((s, [pid, j]) => s + j - (from.get(pid) ?? 0), 0);
  const all = b.total - a.total;
  return {
    busy: 1 - (b.idle - a.idle) / all,
    servers: spent(a.servers, b.servers) / all,
    ...(postgres ? { database: spent(a.database, b.database) / all } : {}),
  };
}

function merge(parts: OpFigures[]): OpFigures {
  return {
    rps: parts.reduce((s, p) => s + p.rps, 0),
    p99: Math.max(...parts.map((p) => p.p99)),
    requests: parts.reduce((s, p) => s + p.requests, 0),
    non2xx: parts.reduce((s, p) => s + p.non2xx, 0),
    errors: parts.reduce((s, p) => s + p.errors, 0),
    seconds: Math.max(...parts.map((p) => p.seconds ?? 0)),
    budgetEnded: parts.some((p) => p.budgetEnded),
  };
}
