/**
 * The ranking benchmark: a workspace of N visible accounts (contract runs, ingested into SQLite,
 * and into PostgreSQL as well when DATABASE_URL is set)
 * is scored once (the goal: ≤ 20 s at 1,000,000 accounts); then one new outcome ⇒ a refit and
 * re-rank (the goal: ≤ 1.3 s at 200,000 accounts, ≤ 3 s at 1,000,000), each with the time of its
 * phases (refresh.ts RefreshPhase); then `GET /accounts?limit=50` at 64 connections from a load generator in a child
 * process, first alone (the baseline) and then while another refit runs beside the server,
 * as `storelens api` does it.
 */
import { mkdtemp, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { refreshWorkspace, type RefreshPhase } from '../accounts/refresh.js';
import { startRefresher } from '../accounts/refresher.js';
import { buildApiApp } from '../compose/api-app.js';
import { issueApiKey } from '../members/issue-key.js';
import { keyScopes } from '../api/scopes.js';
import { newId } from '../db/ids.js';
import { openDatabase } from '../compose/database.js';
import { insertOutcome } from '../accounts/outcomes-store.js';
import { createWorkspace } from '../workspaces/store.js';
import { upsertMember } from '../members/store.js';
import { ingestRuns } from '../ingest/ingest.js';
import { runLoad } from './load.js';
import { writeBenchRuns } from './ingest.js';
import { benchSchema } from './pg-schema.js';

export interface RankingBenchResult {
  accounts: number;
  firstSeconds: number;
  refitSeconds: number;
  /** Where the time of each went, ms by phase. */
  firstPhases: Phases;
  refitPhases: Phases;
  alone: Latency;
  duringRefit: Latency;
  /** Bytes of one page (the load's response size). */
  pageBytes: number;
}

export interface Latency {
  requests: number;
  rps: number;
  p99: number;
  /** Responses that were not 2xx, plus socket errors (both should be 0). */
  failed: number;
}

export type Phases = Partial<Record<RefreshPhase, number>>;

/** A refresh's options that add the time of each phase into `into`. */
const timed = (into: Phases) => ({ onPhase: (p: RefreshPhase, ms: number) => void (into[p] = (into[p] ?? 0) + ms) });

const MONTHS = ['2026-09', '2026-10'];
const CLIENTS = 64;
const LIFTED = { read: 1e9, write: 1e9, report: 1e9 };
const seconds = (t0: number) => (performance.now() - t0) / 1000;

/** The benchmark on SQLite (a temporary file), or with `databaseUrl` on PostgreSQL (a schema of its own there). */
export async function benchRanking(o: { accounts: number; dataDir: string; log: (line: string) => void; databaseUrl?: string }): Promise<RankingBenchResult> {
  const runs = path.join(o.dataDir, `runs-rank-${o.accounts}`);
  if (!(await stat(path.join(runs, 'index.json')).then(() => true, () => false))) {
    o.log(`writing runs of ${o.accounts.toLocaleString('en-US')} stores × ${MONTHS.length} months into ${runs} …`);
    await writeBenchRuns(runs, o.accounts, MONTHS);
  }
  const tmp = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-ranking-'));
  const schema = o.databaseUrl === undefined ? undefined : await benchSchema(o.databaseUrl, 'bench_ranking');
  const db = await openDatabase(schema ? { databaseUrl: schema.url } : { dbPath: path.join(tmp, 'ranking.db') });
  try {
    o.log('ingest …');
    await ingestRuns(db, runs, { now: () => new Date() });
    const ws = await createWorkspace(db.kysely, 'bench', new Date());
    await upsertMember(db.kysely, ws.id, 'owner@bench.example', 'owner', new Date());
    o.log('first scoring …');
    let t0 = performance.now();
    const firstPhases: Phases = {};
    const first = await refreshWorkspace(db, ws.id, new Date(), timed(firstPhases));
    const firstSeconds = seconds(t0);
    let labelled = 0;
    const label = async () => {
      const store = `s${String(labelled * 97).padStart(8, '0')}`;
      labelled++;
      await db.write((trx) =>
        insertOutcome(trx, {
          id: newId('out'), workspace_id: ws.id, api_key_id: 'bench', store_id: store, action: labelled % 2 ? 'won' : 'lost', value: null,
          occurred_at: null, note: null, lost_reason: labelled % 2 ? null : 'timing', lost_reason_other: null, recorded_at: new Date().toISOString(),
        }),
      );
    };
    await label();
    o.log('refit and re-rank after one outcome …');
    t0 = performance.now();
    const refitPhases: Phases = {};
    await refreshWorkspace(db, ws.id, new Date(), timed(refitPhases));
    const refitSeconds = seconds(t0);

    const app = await buildApiApp({ db, rateLimits: LIFTED });
    await app.listen({ port: 0, host: '127.0.0.1' });
    try {
      const port = (app.server.address() as { port: number }).port;
      const key = (await issueApiKey(db, { workspaceId: ws.id, name: 'bench', scopes: keyScopes(['read']), createdBy: 'owner@bench.example', now: new Date() })).key;
      const url = `http://127.0.0.1:${port}/api/v1/accounts?limit=50`;
      o.log(`GET /accounts?limit=50 from ${CLIENTS} clients, alone …`);
      const window = Math.max(3, Math.ceil(refitSeconds) + 2);
      const bytes = (await (await fetch(url, { headers: { authorization: `Bearer ${key}` } })).arrayBuffer()).byteLength;
      o.log(`one page is ${(bytes / 1024).toFixed(0)} KiB`);
      // Warm first (JIT, caches), so "alone" is the server's steady state, not its first seconds.
      await load(url, key, async () => {}, 2);
      const alone = await load(url, key, async () => {}, window);
      // As `storelens api` re-ranks: on the refresher (a worker thread with its own connection),
      // warmed by one refit as a running server's is.
      const refresher = startRefresher(db);
      let duringRefit: Latency;
      try {
        await label();
        await refresher.refreshAll(new Date());
        await label();
        o.log(`… and during a refit (${refresher.where})`);
        duringRefit = await load(url, key, async () => void (await refresher.refreshAll(new Date())), window);
      } finally {
        await refresher.close();
      }
      return { accounts: first.accounts, firstSeconds, refitSeconds, firstPhases, refitPhases, alone, duringRefit, pageBytes: bytes };
    } finally {
      await app.close();
    }
  } finally {
    await db.close();
    await schema?.drop();
    await rm(tmp, { recursive: true, force: true });
  }
}

/** GET url at CLIENTS connections from a child process (autocannon) for as long as `during` runs. */
async function load(url: string, key: string, during: () => Promise<void>, seconds: number): Promise<Latency> {
  const figures = runLoad({ url, method: 'GET', connections: CLIENTS, seconds, keys: [key], uses: 1e9 });
  await new Promise((r) => setTimeout(r, 500)); // the load generator is up
  await during();
  const f = await figures;
  return { requests: f.requests, rps: f.rps, p99: f.p99, failed: f.non2xx + f.errors };
}
