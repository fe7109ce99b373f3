/**
 * The api benchmark: req/s and p99 latency of `GET /api/v1/accounts?limit=50` and of
 * `POST /api/v1/outcomes` (a fresh Idempotency-Key per request), side by side with a Fastify
 * hello-world measured in the same run. The servers listen on 127.0.0.1 in this process; the
 * load generator (autocannon) runs in a child process, so it never shares their event loop.
 *
 * The database is a temporary SQLite file with one workspace, 500 accounts and many keys, with
 * the default per-key limits (read 120, write 20 per minute): requests go round-robin over
 * enough keys that no key passes its limit during the run, so every request takes the same
 * path as a real call (auth, scope, counted rate limit, idempotency) and answers 200.
 */
import { fork } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db } from '../compose/database.js';

/** One measured operation. */
export interface OpFigures {
  /** Mean 2xx responses per second. */
  rps: number;
  /** 99th percentile latency, milliseconds. */
  p99: number;
  requests: number;
  /** Responses that were not 2xx, and socket errors or timeouts (both should be 0). */
  non2xx: number;
  errors: number;
}

export interface ApiBenchResult {
  hello: OpFigures;
  reads: OpFigures;
  /** The same reads on an app that counts metrics and logs each request (JSON lines to a file). */
  observedReads: OpFigures;
  writes: OpFigures;
  /** observedReads.rps / reads.rps (goal ≥ 0.9). */
  observedRatio: number;
  /** reads.rps / hello.rps (goal ≥ 0.5). */
  readRatio: number;
  /** writes.rps / hello.rps. */
  writeRatio: number;
  connections: number;
  seconds: number;
}

export interface ApiBenchOptions {
  /** Seconds per measurement (default 10). */
  seconds?: number;
  /** Concurrent connections (default 32). */
  connections?: number;
  /** Keys per operation; default: enough for 8,000 req/s over the run without passing a limit. */
  readKeys?: number;
  writeKeys?: number;
  /** Operations to measure (default all three; for profiling one at a time). */
  only?: readonly ('hello' | 'reads' | 'observed' | 'writes')[];
}

const SKIPPED: OpFigures = { rps: NaN, p99: NaN, requests: 0, non2xx: 0, errors: 0 };

/** The load generator's entry module, beside this one (in dist/ as in src/). */
const LOAD_CHILD = fileURLToPath(new URL('./api-load.js', import.meta.url));
/** Scored accounts of the benchmarks' workspace (seedBenchWorkspace). */
export const BENCH_ACCOUNTS = 500;
const READ_LIMIT = 120;
const WRITE_LIMIT = 20;
const CEILING_RPS = 8_000;

/** A request plan for the load generator (sent to the child process). */
export interface LoadPlan {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
  /** Bearer keys used round-robin, `uses` requests each at most. */
  keys?: string[];
  uses?: number;
  /** POST /outcomes bodies with a fresh Idempotency-Key per request, over this many store ids. */
  outcomes?: { accounts: number };
}

export async function benchApi(log: (line: string) => void, opts: ApiBenchOptions = {}): Promise<ApiBenchResult> {
  const seconds = opts.seconds ?? 10;
  const connections = opts.connections ?? 32;
  const readKeys = opts.readKeys ?? Math.ceil((CEILING_RPS * seconds) / READ_LIMIT);
  const writeKeys = opts.writeKeys ?? Math.ceil((CEILING_RPS * seconds) / WRITE_LIMIT);

  const { default: Fastify } = await import('fastify');
  const { buildApiApp } = await import('../compose/api-app.js');
  const { openDatabase } = await import('../compose/database.js');
  const { Metrics } = await import('../ops/metrics.js');
  const { createLogger } = await import('../ops/logger.js');
  const { createWriteStream } = await import('node:fs');

  const dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-api-'));
  const db = await openDatabase({ dbPath: path.join(dir, 'bench.db') });
  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  let api: Awaited<ReturnType<typeof buildApiApp>> | undefined;
  let observed: Awaited<ReturnType<typeof buildApiApp>> | undefined;
  let logFile: ReturnType<typeof createWriteStream> | undefined;
  try {
    const { issue } = await seedBenchWorkspace(db, new Date());
    log(`api: issuing ${readKeys} read keys and ${writeKeys} write keys …`);
    const read = await issue(readKeys, 'read');
    // The observed reads run in two halves around a second half of the plain reads (A B A B), so
    // that a machine busier at one moment than another weighs on both alike.
    const halfKeys = Math.ceil(readKeys / 2);
    const observedRead = [await issue(halfKeys, 'read'), await issue(halfKeys, 'read')];
    const plainAgain = await issue(halfKeys, 'read');
    const write = await issue(writeKeys, 'write');

    api = await buildApiApp({ db });
    // As `api --ops-port`: metrics counted (and scraped by nobody meanwhile) and a log line per request.
    logFile = createWriteStream(path.join(dir, 'api.log'));
    const metrics = new Metrics();
    observed = await buildApiApp({ db, metrics, requestLog: true, loggerInstance: createLogger({ format: 'json', stream: logFile }) });
    const apiBase = await listen(api);
    const observedBase = await listen(observed);
    const helloBase = await listen(hello);

    const only = new Set(opts.only ?? ['hello', 'reads', 'observed', 'writes']);
    const measure = async (what: 'hello' | 'reads' | 'observed' | 'writes', title: string, plan: LoadPlan) => {
      if (!only.has(what)) return SKIPPED;
      log(`api: ${title}, ${seconds} s, ${connections} connections …`);
      return runLoad(plan);
    };
    const helloFigures = await measure('hello', 'hello-world', { url: `${helloBase}/`, method: 'GET', connections, seconds });
    const reads = await measure('reads', 'GET /accounts?limit=50', { url: `${apiBase}/api/v1/accounts?limit=50`, method: 'GET', connections, seconds, keys: read, uses: READ_LIMIT });
    const half = Math.max(1, Math.round(seconds / 2));
    const readsHalf = (keys: string[], base: string) => ({ url: `${base}/api/v1/accounts?limit=50`, method: 'GET' as const, connections, seconds: half, keys, uses: READ_LIMIT });
    const o1 = await measure('observed', 'GET /accounts?limit=50 with metrics and request logs (1 of 2)', readsHalf(observedRead[0]!, observedBase));
    const p2 = await measure('observed', 'GET /accounts?limit=50 without (2 of 2)', readsHalf(plainAgain, apiBase));
    const o2 = await measure('observed', 'GET /accounts?limit=50 with metrics and request logs (2 of 2)', readsHalf(observedRead[1]!, observedBase));
    const observedReads = combine(o1, o2);
    const plainForRatio = combine(reads, p2);
    const writes = await measure('writes', 'POST /outcomes', { url: `${apiBase}/api/v1/outcomes`, method: 'POST', connections, seconds, keys: write, uses: WRITE_LIMIT, outcomes: { accounts: BENCH_ACCOUNTS } });
    for (const [name, f] of [['hello-world', helloFigures], ['reads', reads], ['observed reads', observedReads], ['writes', writes]] as const) {
      if (f.non2xx || f.errors) log(`api: warning: ${name} had ${f.non2xx} non-2xx responses and ${f.errors} errors`);
    }
    return {
      hello: helloFigures,
      reads,
      observedReads,
      writes,
      observedRatio: observedReads.rps / plainForRatio.rps,
      readRatio: reads.rps / helloFigures.rps,
      writeRatio: writes.rps / helloFigures.rps,
      connections,
      seconds,
    };
  } finally {
    await hello.close();
    await api?.close();
    await observed?.close();
    logFile?.end();
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The benchmarks' workspace in `db`: an owner, BENCH_ACCOUNTS scored accounts, and `issue(n, access)`
 * for n keys that read accounts or record outcomes.
 */
export async function seedBenchWorkspace(db: Db, now: Date): Promise<{ issue: (n: number, access: 'read' | 'write') => Promise<string[]> }> {
  const { issueApiKey } = await import('../api/issue-key.js');
  const { importAccounts } = await import('../accounts/store.js');
  const { createWorkspace, upsertMember } = await import('../workspaces/store.js');
  const ws = await createWorkspace(db.kysely, 'bench', now);
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

async function listen(app: { listen(o: { port: number; host: string }): Promise<string>; server: { address(): unknown } }): Promise<string> {
  await app.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** Two measurements of one operation as one: mean rate, the worse p99, counts added. */
function combine(a: OpFigures, b: OpFigures): OpFigures {
  return { rps: (a.rps + b.rps) / 2, p99: Math.max(a.p99, b.p99), requests: a.requests + b.requests, non2xx: a.non2xx + b.non2xx, errors: a.errors + b.errors };
}

/** Runs one plan in a child process (src/bench/api-load.ts), which gets it over IPC. */
export function runLoad(plan: LoadPlan): Promise<OpFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(LOAD_CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: OpFigures | undefined;
    child.on('message', (m) => (result = m as OpFigures));
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`the load generator exited with ${code}`))));
    child.send(plan);
  });
}
