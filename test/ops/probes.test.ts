/**
 * The probes every process answers (`/-/liveness`, `/-/readiness`): readiness turns 503 with a
 * problem naming the failed check when the database goes away (a SQLite file moved off, a
 * PostgreSQL server of the test's own stopped), when nothing is published (serve), and from
 * the first moment of a SIGTERM while requests drain; it comes back when the database does.
 * Liveness stays 200 throughout.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, existsSync, mkdtempSync, readdirSync, renameSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { runWorker } from '../../src/commands/worker.js';
import { runServe } from '../../src/commands/serve.js';
import { DATABASE_DOWN } from '../../src/compose/health-checks.js';
import { Health, healthOf } from '../../src/ops/health.js';
import { startServer } from '../../src/serve/server.js';
import { apiKey, call, workspace } from '../helpers/api.js';
import { capturedEnv, generate, publishPanel } from '../helpers/cli.js';
import { freshDb, pgUrl } from '../helpers/db.js';
import { spawnStorelens } from '../helpers/api-processes.js';
import { freePort } from '../helpers/ports.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-probes-');
afterAll(() => dirs.removeAll());

async function probe(base: string, which: 'liveness' | 'readiness') {
  const res = await fetch(`${base}/-/${which}`);
  return { status: res.status, type: res.headers.get('content-type'), body: (await res.json()) as any };
}

const origin = (apiUrl: string) => new URL(apiUrl).origin;

describe('probes over SQLite', () => {
  it('api: ready; 503 naming the database while its file is gone, liveness 200; ready again once it is back', async () => {
    const dir = await dirs.make();
    const file = join(dir, 'api.db');
    const env = capturedEnv();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: file, opsPort: 0, requestsOnly: true }, env.env, false);
    try {
      for (const base of [origin(api.url), api.ops!.url]) {
        expect(await probe(base, 'liveness')).toMatchObject({ status: 200, body: { status: 'alive' } });
        const ready = await probe(base, 'readiness');
        expect(ready.status).toBe(200);
        expect(ready.body.checks).toEqual([{ name: 'database', status: 'pass' }, { name: 'draining', status: 'pass' }]);
      }
      renameSync(file, `${file}.moved`);
      for (const base of [origin(api.url), api.ops!.url]) {
        const gone = await probe(base, 'readiness');
        expect(gone).toMatchObject({ status: 503, type: 'application/problem+json; charset=utf-8', body: { type: 'https://storelens.dev/problems/not-ready', status: 503, failed: ['database'] } });
        // The prober is not told the file's path (before: `database: /srv/…/api.db is gone`, on the public port too); the log is, once.
        expect(gone.body.detail).toBe(`database: ${DATABASE_DOWN}`);
        expect(JSON.stringify(gone.body)).not.toContain(dir);
        expect((await probe(base, 'liveness')).status).toBe(200);
      }
      expect(env.stderr().match(/not ready: the database does not answer: .*api\.db is gone/g)).toHaveLength(1);
      renameSync(`${file}.moved`, file);
      expect((await probe(api.ops!.url, 'readiness')).status).toBe(200);
      expect((await probe(origin(api.url), 'readiness')).status).toBe(200);
      // Every probe answered, on either port, is counted by probe and status, apart from the
      // requests (whose rate, errors and latency are the callers'): before, none was counted.
      const metrics = await (await fetch(`${api.ops!.url}/-/metrics`)).text();
      const counted = metrics.split('\n').filter((l) => /^storelens_(probe|http)_requests_total\{/.test(l));
      expect(counted.sort()).toEqual([
        'storelens_probe_requests_total{probe="liveness",status="200"} 4',
        'storelens_probe_requests_total{probe="readiness",status="200"} 4',
        'storelens_probe_requests_total{probe="readiness",status="503"} 2',
      ]);
    } finally {
      await api.close();
    }
  });

  it('api: the probe paths take GET and HEAD only, and cannot be mistaken for an API path', async () => {
    const dir = await dirs.make();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db'), requestsOnly: true }, capturedEnv().env, false);
    try {
      const post = await fetch(`${origin(api.url)}/-/readiness`, { method: 'POST' });
      expect(post.status).toBe(405);
      expect(post.headers.get('allow')).toBe('GET, HEAD');
      const head = await fetch(`${origin(api.url)}/-/readiness?verbose=1`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      // Under /api/v1 the same path is an API path like any other: the key comes first.
      expect((await fetch(`${api.url}/-/readiness`)).status).toBe(401);
    } finally {
      await api.close();
    }
  });

  it('api: on SIGTERM readiness answers 503 `draining` at once while a request is still in flight; liveness 200; exits 0', async () => {
    const dir = await dirs.make();
    const p = spawnStorelens({ dbPath: join(dir, 'api.db') }, ['api', '--port', '0', '--host', '127.0.0.1', '--ops-port', '0', '--requests-only']);
    const api = new URL((await p.waitFor(/storelens api: (http:\/\/\S+\/api\/v1)/))[1]!);
    const ops = (await p.waitFor(/probes at (http:\/\/\S+)\/-\/liveness/))[1]!;
    expect((await probe(ops, 'readiness')).status).toBe(200);
    // A request whose body has not all arrived: in flight (the server said 100 Continue) until the socket ends.
    const socket = connect(Number(api.port), api.hostname);
    const continued = new Promise<void>((resolve) => socket.on('data', (d) => String(d).includes('100 Continue') && resolve()));
    socket.write(`POST /api/v1/outcomes HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n`);
    await continued;
    p.child.kill('SIGTERM');
    const draining = await until(async () => {
      const r = await probe(ops, 'readiness');
      return r.status === 503 ? r : undefined;
    });
    expect(draining.body).toMatchObject({ failed: ['draining'], detail: 'draining: the process is stopping (SIGTERM)' });
    expect((await probe(ops, 'liveness')).status).toBe(200);
    // The serving port takes no new connection meanwhile.
    await expect(fetch(`${api.origin}/-/liveness`)).rejects.toThrow();
    socket.destroy();
    expect(await p.exited).toEqual({ code: 0, signal: null });
  });

  it('worker: answers the probes on its own port (--ops-port)', async () => {
    const dir = await dirs.make();
    const env = capturedEnv();
    const worker = await runWorker({ db: join(dir, 'w.db'), opsPort: 0, opsHost: '127.0.0.1', runs: join(dir, 'runs'), out: join(dir, 'out') }, env.env, false);
    try {
      expect(env.stderr()).toContain(`probes at ${worker.ops!.url}/-/liveness`);
      expect((await probe(worker.ops!.url, 'liveness')).status).toBe(200);
      expect((await probe(worker.ops!.url, 'readiness')).body.status).toBe('ready');
    } finally {
      await worker.close();
    }
  });

  it('a check that does not answer within --readiness-timeout fails, named, and was told how long it had', async () => {
    const dir = await dirs.make();
    const given: number[] = [];
    const health = healthOf({ readinessTimeout: 0.05 }).add({ name: 'stuck', check: (withinMs) => (given.push(withinMs), new Promise<undefined>(() => {})) });
    const server = await startServer({ out: join(dir, 'out'), port: 0, host: '127.0.0.1', health, live: { pollMs: 50 } });
    try {
      const answer = await probe(server.url, 'readiness');
      expect(answer).toMatchObject({ status: 503, body: { failed: ['stuck', 'release'] } });
      expect(answer.body.detail).toBe('stuck: no answer within 0.05 s; release: nothing is published in --out yet');
      expect(given).toEqual([50]);
    } finally {
      await server.close();
    }
  });

  it('serve: not ready until a release is live; ready once one is', async () => {
    const dir = await dirs.make();
    const out = join(dir, 'out');
    const server = await startServer({ out, port: 0, host: '127.0.0.1', health: new Health(), live: { pollMs: 50 } });
    try {
      const none = await probe(server.url, 'readiness');
      expect(none).toMatchObject({ status: 503, body: { failed: ['release'] } });
      // Not the folder's path (before: `release: nothing is published in /srv/…/out yet`, to anyone who asked).
      expect(none.body.detail).toBe('release: nothing is published in --out yet');
      expect(JSON.stringify(none.body)).not.toContain(dir);
      expect((await probe(server.url, 'liveness')).status).toBe(200);
      const panel = join(dir, 'panel');
      await generate(panel, { stores: 60, from: '2026-08', to: '2026-09', seed: 'probes' });
      await publishPanel(panel, out);
      await until(async () => (await probe(server.url, 'readiness')).status === 200);
    } finally {
      await server.close();
    }
  });
});

describe.skipIf(!pgUrl)(`probes over PostgreSQL${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  it('api: while a lock holds up the readiness check, each probe answers 503 and gives its connection back: requests still get one', async () => {
    const t = await freshDb('PostgreSQL');
    const ws = await workspace(t.db);
    const key = await apiKey(t.db, ws.id, ['read:accounts']);
    // Each probe waits --readiness-timeout for the check; the read on the server ends then too.
    const api = await runApi({ port: 0, host: '127.0.0.1', db: '', databaseUrl: t.databaseUrl, opsPort: 0, requestsOnly: true, readinessTimeout: 0.5 }, capturedEnv().env, false);
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = t.db.kysely.transaction().execute(async (trx) => {
      await sql`lock table kysely_migration in access exclusive mode`.execute(trx);
      locked();
      await held;
    });
    try {
      await isLocked;
      // Three rounds of as many probes as the process has connections (10). Before, each left its
      // read waiting behind the lock, holding a connection: the request below never got one.
      for (let round = 0; round < 3; round++) {
        const answers = await Promise.all(Array.from({ length: 10 }, () => probe(api.ops!.url, 'readiness')));
        expect(answers.map((a) => a.status)).toEqual(Array(10).fill(503));
        // Which ends it first, the probe's wait or the server's statement timeout, is the event loop's to say.
        for (const a of answers) expect(a.body.detail).toMatch(/^database: (no answer within 0\.5 s|the database does not answer)/);
      }
      expect((await call(api.url, 'GET', '/accounts?limit=1', { key })).status).toBe(200);
    } finally {
      release();
      await holder;
      await api.close();
      await t.cleanup();
    }
  });
});

/** A long migration's wait (an upgrade's): the migrator waits for its lock table, held here until `release`. */
async function holdMigrations(databaseUrl: string | undefined): Promise<{ release: () => Promise<void> }> {
  const holder = new pg.Client({ connectionString: databaseUrl });
  await holder.connect();
  await holder.query('begin');
  await holder.query('lock table kysely_migration_lock in access exclusive mode');
  return {
    release: async () => {
      await holder.query('commit');
      await holder.end();
    },
  };
}

/** `which` starting on a fresh PostgreSQL database while its migration waits (holdMigrations), and its operations listener's URL. */
async function startWhileMigrating(which: 'api' | 'worker', signals: boolean) {
  const t = await freshDb('PostgreSQL');
  const migrating = await holdMigrations(t.databaseUrl);
  const opsPort = await freePort();
  const opts = { host: '127.0.0.1', db: '', databaseUrl: t.databaseUrl, opsPort };
  const running = which === 'api' ? runApi({ ...opts, port: 0, requestsOnly: true }, capturedEnv().env, signals) : runWorker(opts, capturedEnv().env, signals);
  return { t, running, ops: `http://127.0.0.1:${opsPort}`, migrating };
}

describe.skipIf(!pgUrl)(`while a process starts${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  for (const which of ['api', 'worker'] as const)
    it(`${which}: alive and not ready (\`starting\`) on its operations listener while its database is migrated, then ready`, async () => {
      const { t, running, ops, migrating } = await startWhileMigrating(which, false);
      try {
        // Before: nothing listened until the database was migrated (and, for api, ranked), so the
        // documented liveness probe restarted a process whose start took over 30 s, mid-migration.
        await until(() => probe(ops, 'liveness').then((r) => r.status === 200, () => false));
        const starting = await probe(ops, 'readiness');
        expect(starting).toMatchObject({ status: 503, body: { failed: ['starting'] } });
        expect(starting.body.detail).toMatch(/^starting: the process is starting: opening and migrating the database/);
        expect(await (await fetch(`${ops}/-/metrics`)).text()).toMatch(/^storelens_readiness_check\{check="starting"\} 0$/m);
      } finally {
        await migrating.release();
      }
      const started = await running;
      try {
        const ready = await probe(ops, 'readiness');
        expect(ready.status).toBe(200);
        expect(ready.body.checks).toEqual([{ name: 'database', status: 'pass' }, { name: 'draining', status: 'pass' }]);
      } finally {
        await started.close();
        await t.cleanup();
      }
    }, 60_000);

  for (const which of ['api', 'worker'] as const)
    it(`${which}: a SIGTERM while it starts turns readiness to \`draining\` at once, and it stops once started`, async () => {
      // With its signal handlers, as the command line runs it: it resolves once stopped.
      const { t, running, ops, migrating } = await startWhileMigrating(which, true);
      try {
        await until(() => probe(ops, 'liveness').then((r) => r.status === 200, () => false));
        process.emit('SIGTERM');
        const stopping = await probe(ops, 'readiness');
        // Before: `starting` alone, as if the process were going to serve.
        expect(stopping).toMatchObject({ status: 503, body: { failed: ['starting', 'draining'] } });
      } finally {
        await migrating.release();
      }
      await running;
      await expect(fetch(`${ops}/-/liveness`)).rejects.toThrow();
      await t.cleanup();
    }, 60_000);

  it('serve --api: alive and not ready (`starting`) on its operations listener while its database is migrated, then ready', async () => {
    const t = await freshDb('PostgreSQL');
    const dir = await dirs.make();
    await generate(join(dir, 'panel'), { stores: 60, from: '2026-08', to: '2026-09', seed: 'starting' });
    await publishPanel(join(dir, 'panel'), join(dir, 'out'));
    const migrating = await holdMigrations(t.databaseUrl);
    const opsPort = await freePort();
    const env = capturedEnv();
    const running = runServe({ out: join(dir, 'out'), port: 0, host: '127.0.0.1', api: true, db: '', databaseUrl: t.databaseUrl, opsPort }, env.env);
    const ops = `http://127.0.0.1:${opsPort}`;
    try {
      await until(() => probe(ops, 'liveness').then((r) => r.status === 200, () => false));
      expect(await probe(ops, 'readiness')).toMatchObject({ status: 503, body: { failed: ['starting'] } });
    } finally {
      await migrating.release();
    }
    try {
      await until(() => /stop with Ctrl-C/.test(env.stderr()));
      const ready = await probe(ops, 'readiness');
      expect(ready.status).toBe(200);
      expect(ready.body.checks.map((c: { name: string }) => c.name)).toEqual(['database', 'release', 'draining']);
    } finally {
      process.emit('SIGTERM');
      await running;
      await t.cleanup();
    }
  }, 60_000);
});

/** A PostgreSQL server of the test's own: initdb in a temporary folder, on a free port, run as the `postgres` user when root. */
function ownPostgres(): { skip: string } | { bin: string; asPostgres: (cmd: string, args: string[]) => void; dir: string } {
  const root = '/usr/lib/postgresql';
  const version = existsSync(root) ? readdirSync(root).sort().at(-1) : undefined;
  if (!version || !existsSync(join(root, version, 'bin', 'initdb'))) return { skip: 'no PostgreSQL server binaries under /usr/lib/postgresql' };
  const bin = join(root, version, 'bin');
  const root_ = process.getuid?.() === 0;
  if (root_ && spawnSync('runuser', ['-u', 'postgres', '--', 'true']).status !== 0) return { skip: 'running as root, and `runuser -u postgres` does not work here' };
  const dir = mkdtempSync(join(tmpdir(), 'storelens-pg-'));
  chmodSync(dir, 0o755);
  if (root_) chownSync(dir, Number(execFileSync('id', ['-u', 'postgres']).toString()), Number(execFileSync('id', ['-g', 'postgres']).toString()));
  const asPostgres = (cmd: string, args: string[]) => {
    const r = root_ ? spawnSync('runuser', ['-u', 'postgres', '--', join(bin, cmd), ...args]) : spawnSync(join(bin, cmd), args);
    if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  };
  return { bin, asPostgres, dir };
}

// Skipped only where PostgreSQL's server binaries (initdb, pg_ctl) are missing or cannot run as a
// non-root user; the reason is in the suite's name. .ci/run installs postgresql, so CI runs it.
const own = ownPostgres();
const noServer = 'skip' in own ? own.skip : undefined;
describe.skipIf(noServer !== undefined)(`probes over a PostgreSQL server the test starts and stops itself${noServer ? ` (skipped: ${noServer})` : ''}`, () => {
  const pg = own as Exclude<typeof own, { skip: string }>;
  afterAll(() => rmSync(pg.dir, { recursive: true, force: true }));

  it('api: ready; 503 naming the database while the server is stopped, liveness 200; ready again once it runs', async () => {
    const data = join(pg.dir, 'data');
    pg.asPostgres('initdb', ['-D', data, '-A', 'trust', '-U', 'postgres', '--no-sync']);
    const port = await freePort();
    const start = () => pg.asPostgres('pg_ctl', ['-D', data, '-w', '-l', join(pg.dir, 'log'), '-o', `-p ${port} -k ${pg.dir} -c listen_addresses=127.0.0.1 -c fsync=off`, 'start']);
    const stop = () => pg.asPostgres('pg_ctl', ['-D', data, '-w', '-m', 'fast', 'stop']);
    start();
    const api = await runApi({ port: 0, host: '127.0.0.1', db: '', databaseUrl: `postgres://postgres@127.0.0.1:${port}/postgres`, opsPort: 0, requestsOnly: true }, capturedEnv().env, false);
    try {
      expect((await probe(api.ops!.url, 'readiness')).status).toBe(200);
      stop();
      for (const base of [api.ops!.url, origin(api.url)]) {
        const down = await probe(base, 'readiness');
        expect(down).toMatchObject({ status: 503, body: { failed: ['database'], detail: `database: ${DATABASE_DOWN}` } });
        // Not the driver's error, which names the server (before: `connect ECONNREFUSED 127.0.0.1:<port>`).
        expect(JSON.stringify(down.body)).not.toContain(String(port));
      }
      expect((await probe(api.ops!.url, 'liveness')).status).toBe(200);
      start();
      await until(async () => (await probe(api.ops!.url, 'readiness')).status === 200);
      expect((await probe(origin(api.url), 'readiness')).status).toBe(200);
    } finally {
      await api.close();
      try {
        stop();
      } catch {
        // already stopped
      }
    }
  }, 60_000);
});
