/**
 * The api benchmark, on the surface a caller touches: req/s (2xx only) and p99 latency of
 * `GET /api/v1/accounts?limit=50` and of `POST /api/v1/outcomes` (a fresh Idempotency-Key per
 * request), on SQLite and — when DATABASE_URL is set — on PostgreSQL, with where each request's
 * time goes (api-profile.ts). The reads are compared with a bare node:http server answering the
 * very bytes of the page the API answered (goal ≥ 0.5×), PostgreSQL's reads with SQLite's (goal
 * ≥ 0.5×), and the reads of a `storelens api` process that counts metrics and logs each request
 * with those of one that does neither (goal ≥ 0.9×; api-observed.ts). One process and two are
 * scaleout.ts. Apart from those two processes the servers listen on 127.0.0.1 in this process;
 * the load generator (autocannon) runs in a child process, so it never shares their event loop.
 *
 * Every request takes the path of a real call (auth, scope, the counted rate limit,
 * idempotency) under the default per-key limits (read 120, write 20 a minute): the requests go
 * round-robin over enough keys, and a run stops when its keys' budget is spent (api-load.ts), so
 * no request meets a 429 the benchmark caused. A figure is only printed when at most 1% of the
 * responses were not 2xx (index.ts).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { processCpuMicros } from './machine.js';
import { benchSchema } from './pg-schema.js';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { Db } from '../db/database.js';
import { sql } from 'kysely';
import { benchObserved } from './api-observed.js';
import { type LoadPlan, type OpFigures, runLoad } from './load.js';
import { bareServer, capturePage, type PhaseTimes, profileCpu, timePhases } from './api-profile.js';
import { answerKey, userWalks, type Walks, walkKeysNeeded } from './api-walks.js';

/** One database's figures, with where a request's time went. */
export interface DatabaseFigures {
  database: 'SQLite' | 'PostgreSQL';
  reads: OpFigures;
  /** GET /accounts as users walk it (api-walks.ts). */
  walkReads: OpFigures;
  writes: OpFigures;
  readPhases: PhaseTimes;
  walkPhases: PhaseTimes;
  writePhases: PhaseTimes;
  /** Share of CPU samples of each part of a request (api-profile.ts), over a run of its own. */
  readCpu: [string, number][];
  walkCpu: [string, number][];
  writeCpu: [string, number][];
}

/** What the walks of a measurement were (api-walks.ts). */
export type WalkFigures = Omit<Walks, 'paths' | 'pages' | 'groups'> & { requests: number };

export interface ApiBenchResult {
  /** Bytes of the page GET /accounts?limit=50 answers (gzipped, as the load generator takes it). */
  pageBytes: number;
  /** A bare node:http server answering those bytes. */
  bare: OpFigures;
  /** The walks on SQLite, and a bare node:http server answering each of their targets with the API's bytes. */
  walks: WalkFigures;
  bareWalks: OpFigures;
  sqlite: DatabaseFigures;
  /** The reads with metrics and request logs, and the plain reads they alternate with (A B A B). */
  observedReads: OpFigures;
  plainReads: OpFigures;
  postgres?: DatabaseFigures;
  /** Keys each run gets, per kind. */
  keys: { read: number; write: number };
  connections: number;
  seconds: number;
}

export interface ApiBenchOptions {
  /** Seconds per measurement (default 10). */
  seconds?: number;
  /** Concurrent connections (default 32). */
  connections?: number;
  /** PostgreSQL: the same measurements in a schema of their own there. */
  databaseUrl?: string;
  /** What the benchmark's `storelens api` processes inherit (DATABASE_URL is removed: they run on the SQLite file). */
  processEnv?: Readonly<Record<string, string | undefined>>;
}

/** Scored accounts of the benchmarks' workspace (seedBenchWorkspace). */
export const BENCH_ACCOUNTS = 500;
const READ_LIMIT = 120;
const WRITE_LIMIT = 20;
/** Keys are issued for runs of these rates; a faster run ends when its budget is spent. */
const READ_CEILING_RPS = 12_000;
const WRITE_CEILING_RPS = 4_000;
const PROFILE_SECONDS = 3;
/** Workspaces the walks read (api-walks.ts), each seeded like the benchmarks' one. */
const WALK_WORKSPACES = 4;

export async function benchApi(log: (line: string) => void, opts: ApiBenchOptions = {}): Promise<ApiBenchResult> {
  const seconds = opts.seconds ?? 10;
  const connections = opts.connections ?? 32;
  const keys = { read: Math.ceil((READ_CEILING_RPS * seconds) / READ_LIMIT), write: Math.ceil((WRITE_CEILING_RPS * seconds) / WRITE_LIMIT) };
  const { openDatabase } = await import('../compose/database.js');
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-api-'));
  const dbPath = path.join(dir, 'bench.db');
  const db = await openDatabase({ dbPath });
  const closers: (() => Promise<unknown> | void)[] = [];
  try {
    const bench = await databaseBench(db, 'SQLite', { log, seconds, connections, keys });
    closers.push(bench.close);
    const page = await capturePage(`${bench.base}/api/v1/accounts?limit=50`, (await bench.issue(1, 'read'))[0]!);
    if (page.status !== 200) throw new Error(`bench: api: GET /accounts?limit=50 answered ${page.status}`);
    const bare = await bareServer(page);
    closers.push(bare.close);
    log(`api: bare node:http answering the page's ${page.body.length} bytes, ${seconds} s, ${connections} connections …`);
    const bareFigures = await runLoad({ url: `${bare.url}/`, method: 'GET', connections, seconds });
    const walks = await bench.walks();
    // The bare server tells the workspaces apart by the Authorization header, as the API does: `Bearer w<index>`.
    const bareWalked = await bareServer((req) => walks.pages.get(answerKey(Number(req.headers.authorization?.slice('Bearer w'.length)), req.url ?? '')));
    closers.push(bareWalked.close);
    log(`api: bare node:http answering the ${walks.distinct} pages of ${walks.walks} walks, ${seconds} s, ${connections} connections …`);
    const named = Array.from({ length: walks.workspaces }, (_, g) => [`w${g}`]);
    const bareWalks = await runLoad({ url: `${bareWalked.url}/`, method: 'GET', connections, seconds, paths: walks.paths, groups: walks.groups, keyGroups: named, keys: named.flat(), uses: 1e9 });

    const measured = await bench.measure();
    const { observed, plain } = await benchObserved({
      copyDatabase: (to) => sql`vacuum into ${to}`.execute(db.kysely).then(() => undefined),
      dir,
      seconds,
      connections,
      keys: (n) => bench.issue(n, 'read'),
      keysPerRun: Math.ceil(keys.read / 4),
      uses: READ_LIMIT,
      env: opts.processEnv ?? {},
      log,
    });

    const sqlite = await bench.profile(measured);
    let postgres: DatabaseFigures | undefined;
    if (opts.databaseUrl) postgres = await onPostgres(opts.databaseUrl, (pgDb) => databaseBench(pgDb, 'PostgreSQL', { log, seconds, connections, keys }));
    const { paths, pages: _pages, groups: _groups, ...walked } = walks;
    return { pageBytes: page.body.length, bare: bareFigures, walks: { ...walked, requests: paths.length }, bareWalks, sqlite, observedReads: observed, plainReads: plain, postgres, keys, connections, seconds };
  } finally {
    for (const close of closers.reverse()) await close();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/** The plain app over `db`, its keys, and the measurement of reads and writes with their profiles. */
async function databaseBench(db: Db, database: DatabaseFigures['database'], o: { log: (line: string) => void; seconds: number; connections: number; keys: ApiBenchResult['keys'] }) {
  const { buildApiApp } = await import('../compose/api-app.js');
  const { keyCache } = await import('../api/key-cache.js');
  const { issue } = await seedBenchWorkspace(db, new Date());
  // As `storelens api` serves: a call's key is remembered between calls (compose/serving.ts).
  const keys = keyCache(db);
  await keys?.ready();
  const app = await buildApiApp({ db, findKey: keys?.find });
  const phases = timePhases(app);
  const base = await listen(app);
  const { log, seconds, connections } = o;
  const reads = (s: number, keys: string[]): LoadPlan => ({ url: `${base}/api/v1/accounts?limit=50`, method: 'GET', connections, seconds: s, keys, uses: READ_LIMIT });
  /** The walks' workspaces: the benchmarks' one and WALK_WORKSPACES - 1 more like it, seeded at the first walks. */
  const walkIssuers: ((n: number, access: 'read' | 'write') => Promise<string[]>)[] = [issue];
  /** n read keys spread evenly over the walks' workspaces, by workspace. */
  const walkKeys = async (n: number) => {
    const out: string[][] = [];
    for (const of of walkIssuers) out.push(await of(Math.ceil(n / walkIssuers.length), 'read'));
    return out;
  };
  const walkReads = (s: number, keys: string[][], w: Walks): LoadPlan => ({ url: `${base}/api/v1/accounts`, method: 'GET', connections, seconds: s, keys: keys.flat(), keyGroups: keys, uses: READ_LIMIT, paths: w.paths, groups: w.groups });
  let walked: Promise<Walks> | undefined;
  /** The walks over the workspaces, made once (their reads deliver every page they show). */
  const walks = () =>
    (walked ??= (async () => {
      log(`api: ${database}: seeding ${WALK_WORKSPACES - 1} more workspaces and walking their lists …`);
      for (let g = 1; g < WALK_WORKSPACES; g++) walkIssuers.push((await seedBenchWorkspace(db, new Date(), `bench-${g}`)).issue);
      return userWalks(base, await walkKeys(walkKeysNeeded(READ_LIMIT) * WALK_WORKSPACES));
    })());
  const writes = (s: number, keys: string[]): LoadPlan => ({ url: `${base}/api/v1/outcomes`, method: 'POST', connections, seconds: s, keys, uses: WRITE_LIMIT, outcomes: { accounts: BENCH_ACCOUNTS } });
  const run = async (title: string, plan: LoadPlan) => {
    log(`api: ${database}: ${title}, ${plan.seconds} s, ${connections} connections, ${plan.keys!.length} keys …`);
    phases.reset();
    const before = await serverCpu(db);
    const figures = await runLoad(plan);
    const after = await serverCpu(db);
    if (before && after) figures.databaseCpuPerRequest = [...after].reduce((s, [pid, t]) => s + t - (before.get(pid) ?? 0), 0) / Math.max(figures.requests, 1);
    return { figures, phases: phases.read() };
  };
  const profiled = async (title: string, plan: LoadPlan) => {
    log(`api: ${database}: ${title} under the CPU profiler, ${plan.seconds} s …`);
    return (await profileCpu(() => runLoad(plan))).shares;
  };
  return {
    base,
    walks,
    issue: (n: number, kind: 'read' | 'write') => {
      log(`api: ${database}: issuing ${n} ${kind} keys …`);
      return issue(n, kind);
    },
    close: async () => {
      await app.close();
      await keys?.close();
    },
    measure: async (): Promise<DatabaseFigures> => {
      const keys = (n: number, kind: 'read' | 'write') => {
        log(`api: ${database}: issuing ${n} ${kind} keys …`);
        return issue(n, kind);
      };
      const r = await run('GET /accounts?limit=50', reads(seconds, await keys(o.keys.read, 'read')));
      const wk = await walks();
      log(`api: ${database}: issuing ${o.keys.read} read keys over ${WALK_WORKSPACES} workspaces …`);
      const wr = await run(`GET /accounts, ${wk.walks} walks over ${wk.distinct} pages of ${WALK_WORKSPACES} workspaces`, walkReads(seconds, await walkKeys(o.keys.read), wk));
      const w = await run('POST /outcomes', writes(seconds, await keys(o.keys.write, 'write')));
      return { database, reads: r.figures, walkReads: wr.figures, writes: w.figures, readPhases: r.phases, walkPhases: wr.phases, writePhases: w.phases, readCpu: [], walkCpu: [], writeCpu: [] };
    },
    /** The CPU profiles, last: the profiler leaves code to optimise again, which would weigh on the run after it. */
    profile: async (figures: DatabaseFigures): Promise<DatabaseFigures> => {
      const keys = (n: number, kind: 'read' | 'write') => issue(n, kind);
      const readCpu = await profiled('GET /accounts?limit=50', reads(PROFILE_SECONDS, await keys(Math.ceil((o.keys.read * PROFILE_SECONDS) / seconds), 'read')));
      const walkCpu = await profiled('GET /accounts, walks', walkReads(PROFILE_SECONDS, await walkKeys(Math.ceil((o.keys.read * PROFILE_SECONDS) / seconds)), await walks()));
      const writeCpu = await profiled('POST /outcomes', writes(PROFILE_SECONDS, await keys(Math.ceil((o.keys.write * PROFILE_SECONDS) / seconds), 'write')));
      return { ...figures, readCpu, walkCpu, writeCpu };
    },
  };
}

/** Runs `bench` over a fresh schema of the PostgreSQL database at `databaseUrl`, dropped afterwards. */
async function onPostgres(databaseUrl: string, bench: (db: Db) => Promise<{ measure(): Promise<DatabaseFigures>; profile(f: DatabaseFigures): Promise<DatabaseFigures>; close(): Promise<unknown> }>): Promise<DatabaseFigures> {
  const { openDatabase } = await import('../compose/database.js');
  const schema = await benchSchema(databaseUrl, 'bench_api');
  const db = await openDatabase({ databaseUrl: schema.url });
  try {
    const b = await bench(db);
    try {
      return await b.profile(await b.measure());
    } finally {
      await b.close();
    }
  } finally {
    await db.close();
    await schema.drop();
  }
}

/**
 * The benchmarks' workspace in `db` (named `name`): an owner, BENCH_ACCOUNTS scored accounts, and `issue(n, access)`
 * for n keys that read accounts or record outcomes.
 */
export async function seedBenchWorkspace(db: Db, now: Date, name = 'bench'): Promise<{ issue: (n: number, access: 'read' | 'write') => Promise<string[]> }> {
  const { issueApiKey } = await import('../members/issue-key.js');
  const { importAccounts } = await import('../accounts/store.js');
  const { createWorkspace } = await import('../workspaces/store.js');
  const { upsertMember } = await import('../members/store.js');
  const ws = await createWorkspace(db.kysely, name, now);
  await upsertMember(db.kysely, ws.id, 'owner@example.com', 'owner', now);
  await importAccounts(
    db,
    ws.id,
    Array.from({ length: BENCH_ACCOUNTS }, (_, i) => ({
      store_id: `store-${String(i).padStart(4, '0')}`,
      score: Math.round((1 - i / BENCH_ACCOUNTS) * 1e6) / 1e6,
      domain: `shop-${i}.example.com`,
      country: ['US', 'GB', 'DE', 'FR'][i % 4],
      category: ['apparel', 'beauty', 'home'][i % 3],
      plan: ['basic', 'grow', 'plus'][i % 3],
      in_market: i % 5 !== 4,
      evidence: [{ signal: 'ad_channel_started', detail: 'TikTok', month: '2026-09' }],
    })),
    now,
  );
  let issued = 0;
  const issue = async (n: number, access: 'read' | 'write') => {
    const scopes = access === 'read' ? (['read:accounts', 'read:watch'] as const) : (['write:outcomes'] as const);
    const keys: string[] = [];
    for (let i = 0; i < n; i++) keys.push((await issueApiKey(db, { workspaceId: ws.id, name: `bench-${access}-${++issued}`, scopes, createdBy: 'owner@example.com', now })).key);
    return keys;
  };
  return { issue };
}

/**
 * PostgreSQL on this machine: the CPU time (µs) of each server process connected to the
 * database `db` is on, by pid, from /proc; undefined on SQLite, or when /proc does not show them
 * (a database elsewhere).
 */
async function serverCpu(db: Db): Promise<Map<number, number> | undefined> {
  if (db.dialect !== 'postgres') return undefined;
  const { rows } = await sql<{ pid: number }>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`.execute(db.kysely);
  const out = new Map<number, number>();
  for (const { pid } of rows) {
    const us = processCpuMicros(Number(pid));
    if (us === undefined) return undefined;
    out.set(Number(pid), us);
  }
  return out;
}

async function listen(app: { listen(o: { port: number; host: string }): Promise<string>; server: { address(): unknown } }): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}
