/**
 * The scale-out benchmark: reads (`GET /api/v1/accounts?limit=50`) and writes (`POST
 * /api/v1/outcomes`, each a label that starts a re-rank) per second and their p99, first with
 * one `storelens api` process, then with two `api` processes and one `storelens worker` over the
 * same PostgreSQL database, printed side by side. Every server is a real child process of the
 * built CLI; the load comes from autocannon in child processes too (one per api process, the
 * connections split between them), so nothing shares an event loop with a server.
 *
 * Needs DATABASE_URL (a postgres:// URL): the run gets a schema of its own there, dropped after.
 * On two cores the figures show the shape (and that nothing regressed), not a speed-up.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { type OpFigures, runLoad } from './api.js';

export interface ScaleOutFigures {
  reads: OpFigures;
  writes: OpFigures;
}

export interface ScaleOutResult {
  one: ScaleOutFigures;
  two: ScaleOutFigures;
  connections: number;
  seconds: number;
}

const BIN = fileURLToPath(new URL('../../bin/storelens.js', import.meta.url));
const ACCOUNTS = 500;
const READ_LIMIT = 120;
const WRITE_LIMIT = 20;
/** More requests a second than two cores serve, so no key passes its limit during a run. */
const CEILING_RPS = 6_000;

/** Undefined (with the reason logged) when DATABASE_URL names no PostgreSQL database. */
export async function benchScaleOut(databaseUrl: string | undefined, log: (line: string) => void, opts: { seconds?: number; connections?: number } = {}): Promise<ScaleOutResult | undefined> {
  const { isPostgresUrl, openDatabase } = await import('../db/index.js');
  if (!isPostgresUrl(databaseUrl)) {
    log('scale-out: skipped (set DATABASE_URL to a postgres:// database: the run makes a schema of its own there)');
    return undefined;
  }
  const seconds = opts.seconds ?? 5;
  const connections = opts.connections ?? 32;
  const { default: pg } = await import('pg');
  const { issueApiKey } = await import('../api/issue-key.js');
  const { importAccounts } = await import('../db/accounts.js');
  const { createWorkspace, upsertMember } = await import('../db/workspaces.js');

  const schema = `bench_scaleout_${randomBytes(4).toString('hex')}`;
  const admin = async (text: string) => {
    const c = new pg.Client({ connectionString: databaseUrl });
    await c.connect();
    try {
      await c.query(text);
    } finally {
      await c.end();
    }
  };
  await admin(`create schema "${schema}"`);
  const url = new URL(databaseUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const schemaUrl = url.toString();
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-scaleout-'));
  const children: ChildProcess[] = [];
  const db = await openDatabase({ databaseUrl: schemaUrl });
  try {
    const now = new Date();
    const ws = await createWorkspace(db.kysely, 'bench', now);
    await upsertMember(db.kysely, ws.id, 'owner@example.com', 'owner', now);
    await importAccounts(
      db,
      ws.id,
      Array.from({ length: ACCOUNTS }, (_, i) => ({ store_id: `store-${String(i).padStart(4, '0')}`, score: Math.round((1 - i / ACCOUNTS) * 1e6) / 1e6, in_market: i % 5 !== 4 })),
      now,
    );
    // Each of the four measurements gets keys of its own: a window's counts never carry over.
    const perRun = { read: Math.ceil((CEILING_RPS * seconds) / READ_LIMIT), write: Math.ceil((CEILING_RPS * seconds) / WRITE_LIMIT) };
    log(`scale-out: issuing ${2 * perRun.read} read keys and ${2 * perRun.write} write keys …`);
    const issue = async (n: number, access: 'read' | 'write') => {
      const scopes = access === 'read' ? (['read:accounts'] as const) : (['write:outcomes'] as const);
      const keys: string[] = [];
      for (let i = 0; i < n; i++) keys.push((await issueApiKey(db, { workspaceId: ws.id, name: `bench-${access}-${i}`, scopes, createdBy: 'owner@example.com', now })).key);
      return keys;
    };
    const keys = { one: { read: await issue(perRun.read, 'read'), write: await issue(perRun.write, 'write') }, two: { read: await issue(perRun.read, 'read'), write: await issue(perRun.write, 'write') } };

    const start = async (args: string[], ready: RegExp): Promise<string> => {
      const child = spawn(process.execPath, [BIN, ...args], { env: { ...process.env, DATABASE_URL: schemaUrl }, stdio: ['ignore', 'ignore', 'pipe'] });
      children.push(child);
      let err = '';
      return new Promise((resolve, reject) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          err += chunk.toString();
          const m = err.match(ready);
          if (m) resolve(m[1] ?? '');
        });
        child.on('exit', (code) => reject(new Error(`storelens ${args[0]} exited (${code}) before it was ready:\n${err}`)));
      });
    };
    const api = () => start(['api', '--port', '0', '--host', '127.0.0.1', '--runs', path.join(dir, 'runs'), '--out', path.join(dir, 'out')], /storelens api: (http:\/\/\S+)\/api\/v1 /);

    /** Reads then writes, the connections split evenly over the servers. */
    const measure = async (label: string, bases: string[], k: { read: string[]; write: string[] }): Promise<ScaleOutFigures> => {
      const share = <T>(items: T[], i: number) => items.filter((_, j) => j % bases.length === i);
      const each = Math.max(1, Math.floor(connections / bases.length));
      log(`scale-out: ${label}: reads, ${seconds} s, ${connections} connections …`);
      const reads = combine(await Promise.all(bases.map((b, i) => runLoad({ url: `${b}/api/v1/accounts?limit=50`, method: 'GET', connections: each, seconds, keys: share(k.read, i), uses: READ_LIMIT }))));
      log(`scale-out: ${label}: writes, ${seconds} s, ${connections} connections …`);
      const writes = combine(await Promise.all(bases.map((b, i) => runLoad({ url: `${b}/api/v1/outcomes`, method: 'POST', connections: each, seconds, keys: share(k.write, i), uses: WRITE_LIMIT, outcomes: { accounts: ACCOUNTS } }))));
      return { reads, writes };
    };

    const first = await api();
    const one = await measure('one api process', [first], keys.one);
    const second = await api();
    await start(['worker'], /(storelens worker: .*)/);
    const two = await measure('two api processes and a worker', [first, second], keys.two);
    for (const [name, f] of [['one: reads', one.reads], ['one: writes', one.writes], ['two: reads', two.reads], ['two: writes', two.writes]] as const) {
      if (f.non2xx || f.errors) log(`scale-out: warning: ${name} had ${f.non2xx} non-2xx responses and ${f.errors} errors`);
    }
    return { one, two, connections, seconds };
  } finally {
    await Promise.all(children.map((c) => (c.exitCode === null && c.signalCode === null ? new Promise((r) => (c.once('exit', r), c.kill('SIGTERM'))) : undefined)));
    await db.close();
    await admin(`drop schema "${schema}" cascade`).catch(() => undefined);
    await rm(dir, { recursive: true, force: true });
  }
}

/** Figures of loads run side by side: requests and rates add up; p99 is the worse of them. */
function combine(parts: OpFigures[]): OpFigures {
  return parts.reduce((a, b) => ({ rps: a.rps + b.rps, p99: Math.max(a.p99, b.p99), requests: a.requests + b.requests, non2xx: a.non2xx + b.non2xx, errors: a.errors + b.errors }));
}
