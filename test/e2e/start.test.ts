/**
 * `npm start`, the first command a newcomer runs (README): in an empty folder it generates the
 * demo panel, publishes it, serves the statistics and the workspace API on one port and prints a
 * demo key that works: the ranked accounts with their evidence, a statistics page, the release
 * feed. SIGTERM stops it cleanly (exit 0), card rendering in the background included. Behind a
 * proxy that terminates TLS (`--public-url`), its pages, feed, OAuth issuer and cookies name the
 * public origin.
 */
import { execFileSync, spawn } from 'node:child_process';
import { readdir } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copyTree, tempDirs } from '../helpers/tmp.js';

const BIN = join(resolve(import.meta.dirname, '../..'), 'bin/storelens.js');
const dirs = tempDirs('storelens-start-');
afterAll(() => dirs.removeAll());

/** A loopback port free a moment ago (start publishes its pages at the port it is given). */
const freePort = () =>
  new Promise<number>((done, fail) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => done(port));
    });
    s.on('error', fail);
  });

interface Started {
  /** What it printed on stderr once it was serving. */
  printed: string;
  /** What it has printed on stderr so far. */
  stderr(): string;
  key: string;
  /** Resolves to the exit code once it stopped. */
  stop(): Promise<number | null>;
}

/**
 * The folder of the newcomer's run (the first test) once it stopped: its demo panel, publication,
 * runs and database. The later tests start again in a copy of it, as a person runs `npm start` a
 * second time with other flags: the pages, feed and cookies are published anew for them, where
 * generating the demo panel and computing its figures again would test nothing more.
 */
let newcomer: string | undefined;

/**
 * `storelens start` in a new folder (empty, or a copy of `from`), on a free loopback port, once
 * it serves.
 */
async function start(port: number, extra: string[] = [], from?: string): Promise<Started & { cwd: string }> {
  const cwd = await dirs.make();
  if (from) await copyTree(`${from}/.`, cwd);
  const env: Record<string, string> = { ...(process.env as Record<string, string>), TZ: 'UTC' };
  delete env.DATABASE_URL;
  const child = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--host', '127.0.0.1', ...extra], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let err = '';
  child.stdout.resume();
  const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    return exited;
  };
  try {
    const printed = await new Promise<string>((done, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (/stop with Ctrl-C/.test(err)) done(err);
      });
      void exited.then((code) => fail(new Error(`storelens start exited (${code}):\n${err}`)));
    });
    return { printed, stderr: () => err, key: /\b(slk_[A-Za-z0-9_-]+)/.exec(printed)![1]!, stop, cwd };
  } catch (e) {
    await stop();
    throw e;
  }
}

// The two tests of an empty folder are independent (each its own folder and port): they run side
// by side, the refusals (which exit before generating anything) while the newcomer's run publishes.
describe('storelens start in an empty folder', () => {
  it.concurrent('serves the demo publication and API with the key it prints, and stops cleanly on SIGTERM', async () => {
    const port = await freePort();
    const s = await start(port);
    try {
      expect(s.printed).toMatch(/generating a demo panel/);
      const base = /storelens is running on (http:\/\/\S+)/.exec(s.printed)![1]!;
      expect(base).toBe(`http://127.0.0.1:${port}`);
      const accounts = await fetch(`${base}/api/v1/accounts?limit=3`, { headers: { authorization: `Bearer ${s.key}` } });
      expect(accounts.status).toBe(200);
      const page = (await accounts.json()) as { data: { store_id: string; score: number; logit: number; evidence: { contribution: number }[] }[] };
      expect(page.data).toHaveLength(3);
      for (const a of page.data) expect(a.evidence.reduce((sum, e) => sum + e.contribution, 0)).toBeCloseTo(a.logit, 9);
      expect(page.data.map((a) => a.score)).toEqual([...page.data.map((a) => a.score)].sort((x, y) => y - x));
      expect((await fetch(`${base}/api/v1/accounts`)).status).toBe(401);

      const html = await fetch(`${base}/data/agentic-commerce`);
      expect([html.status, html.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      const feed = await new Parser().parseString(await (await fetch(`${base}/data/rss.xml`)).text());
      expect(feed.items.length).toBeGreaterThan(0);
      expect(feed.items.every((i) => i.link?.startsWith(`${base}/`))).toBe(true);
    } finally {
      expect(await s.stop()).toBe(0);
    }
    // The runs publish wrote were loaded once and the demo ranked once on them, with no warning
    // on the way: no "no runs folder" while the first publish wrote it, no second ingest racing
    // the worker's own.
    const said = s.stderr();
    const warned = said.split('\n').filter((l) => /"level":"warn"|no runs folder|another ingest/.test(l));
    // (oidc-provider's own warning on Node 20: docs/assistant.md)
    expect(warned.filter((l) => !l.includes('oidc-provider WARNING'))).toEqual([]);
    expect(said.match(/storelens start: ingested /g)).toHaveLength(1);
    expect(said.match(/re-ranked workspace \S+: [1-9]/g)).toHaveLength(1);
    newcomer = s.cwd;
  }, 180_000);

  it.concurrent('refuses a port in use at once (exit 1, naming it), before generating or publishing anything', async () => {
    const taken = createServer();
    await new Promise<void>((done) => taken.listen(0, '127.0.0.1', done));
    const port = (taken.address() as { port: number }).port;
    try {
      const cwd = await dirs.make();
      const env: Record<string, string> = { ...(process.env as Record<string, string>), TZ: 'UTC' };
      delete env.DATABASE_URL;
      const child = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--host', '127.0.0.1'], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      const code = await new Promise<number | null>((done) => child.on('exit', done));
      expect(code, err).toBe(1);
      expect(err).toContain(`port ${port} is in use: stop the other server or run \`npm start -- --port 8081\``);
      expect(err).not.toMatch(/generating|published/);
      expect(await readdir(cwd)).not.toContain('output');
      // Nor is the database opened: a second `npm start` beside a running one would otherwise give
      // the demo owner a new password (the running one's printed sign-in failing) and add a key.
      expect(await readdir(join(cwd, '.storelens')).catch(() => [])).toEqual([]);
      // The operations port too, though it is bound only once the demo is published.
      const ops = spawn(process.execPath, [BIN, 'start', '--port', '0', '--host', '127.0.0.1', '--ops-port', String(port)], { cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let opsErr = '';
      ops.stderr.on('data', (c: Buffer) => (opsErr += c.toString()));
      expect(await new Promise<number | null>((done) => ops.on('exit', done)), opsErr).toBe(1);
      expect(opsErr).toContain(`--ops-port ${port}: already in use on 127.0.0.1`);
      expect(await readdir(cwd)).not.toContain('output');
      expect(await readdir(join(cwd, '.storelens')).catch(() => [])).toEqual([]);
    } finally {
      await new Promise((done) => taken.close(done));
    }
  }, 60_000);
});

describe('storelens start again, in the folder of a run that stopped', () => {
  const PUBLIC = 'https://demo.storelens.example';
  /**
   * The `--public-url` start and the `--port 0` one (below), each in its own copy of the
   * newcomer's folder on its own port, are started side by side: neither reads or writes the
   * other's folder. The `--public-url` test comes first and stops its start once read.
   */
  let publicRun: Promise<{ port: number; s: Started & { cwd: string } }> | undefined;
  let portZeroRun: Promise<Started & { cwd: string }> | undefined;
  beforeAll(() => {
    expect(newcomer, 'the first test ran').toBeDefined();
    publicRun = (async () => {
      const port = await freePort();
      return { port, s: await start(port, ['--public-url', PUBLIC], newcomer) };
    })();
    portZeroRun = start(0, [], newcomer);
    // A start that failed fails what reads it (below), not this hook.
    publicRun.catch(() => {});
    portZeroRun.catch(() => {});
  });
  afterAll(async () => {
    // Each is stopped where it is read; here only if that did not run to its end.
    await (await publicRun?.catch(() => undefined))?.s.stop();
    await (await portZeroRun?.catch(() => undefined))?.stop();
  });

  it('with --public-url, names the public origin in its pages, feed and OAuth metadata, and sets Secure cookies', async () => {
    const { port, s } = await publicRun!;
    try {
      expect(s.printed).toContain(`storelens is running on http://127.0.0.1:${port}, reached at ${PUBLIC}`);
      const local = `http://127.0.0.1:${port}`;
      const feed = await new Parser().parseString(await (await fetch(`${local}/data/rss.xml`)).text());
      expect(feed.items.length).toBeGreaterThan(0);
      expect(feed.items.every((i) => i.link?.startsWith(`${PUBLIC}/`))).toBe(true);
      const metadata = (await (await fetch(`${local}/.well-known/oauth-authorization-server`)).json()) as { issuer: string };
      expect(metadata.issuer).toBe(PUBLIC);
      const signin = await fetch(`${local}/signin`);
      const cookies = signin.headers.getSetCookie();
      expect(cookies.length).toBeGreaterThan(0);
      for (const c of cookies) expect(c, c).toMatch(/;\s*Secure/i);
    } finally {
      expect(await s.stop()).toBe(0);
    }
  }, 180_000);

  /**
   * One `start --port 0` in a copy of the newcomer's folder, for the tests that need a demo
   * running there: its pages, and a second start beside it. Its exit on SIGTERM is checked once
   * it stopped.
   */
  describe('with --port 0', () => {
    let s: Started & { cwd: string };
    beforeAll(async () => {
      expect(newcomer, 'the first test ran').toBeDefined();
      // (started with the --public-url one, which publishes beside it: the time of two)
      s = await portZeroRun!;
    }, 300_000);
    afterAll(async () => {
      if (s) expect(await s.stop()).toBe(0);
    });

    it('a second start beside it, in its folder, refuses the port in use and writes nothing: the running demo keeps its sign-in and keys', async () => {
      const port = Number(/storelens is running on http:\/\/127\.0\.0\.1:(\d+)/.exec(s.printed)![1]);
      const db = join(s.cwd, '.storelens', 'demo.db');
      // The demo's SQLite file, whatever DATABASE_URL the suite runs with (it would win over --db).
      const env: Record<string, string> = { ...(process.env as Record<string, string>), TZ: 'UTC' };
      delete env.DATABASE_URL;
      const keys = () => execFileSync(process.execPath, [BIN, 'keys', 'list', '--workspace', 'demo', '--db', db, '--json'], { encoding: 'utf8', env });
      const before = keys();
      const child = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--host', '127.0.0.1'], { cwd: s.cwd, env, stdio: ['ignore', 'ignore', 'pipe'] });
      let err = '';
      child.stderr.on('data', (c: Buffer) => (err += c.toString()));
      expect(await new Promise<number | null>((done) => child.on('exit', done)), err).toBe(1);
      expect(err).toContain(`port ${port} is in use`);
      expect(err).not.toMatch(/applied migrations/);
      // The running demo's keys and sign-in are as they were: no new key, the printed password works.
      expect(keys()).toBe(before);
      const [, email, password] = /signin\s+email (\S+)\s+password (\S+)/.exec(s.printed)!;
      const page = await fetch(`http://127.0.0.1:${port}/signin`);
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
      const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const signedIn = await fetch(`http://127.0.0.1:${port}/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ csrf, next: '/integrations', email: email!, password: password! }),
      });
      expect(signedIn.status).toBe(303);
    }, 120_000);

    it('publishes its pages and feed at the port it bound, and says so', async () => {
      const base = /storelens is running on (http:\/\/\S+)/.exec(s.printed)![1]!;
      expect(base).toMatch(/^http:\/\/127\.0\.0\.1:[1-9][0-9]*$/);
      const feed = await new Parser().parseString(await (await fetch(`${base}/data/rss.xml`)).text());
      expect(feed.items.length).toBeGreaterThan(0);
      expect(feed.link).toBe(`${base}/`);
      expect(feed.items.every((i) => i.link?.startsWith(`${base}/`)), feed.items.map((i) => i.link).join(' ')).toBe(true);
      const html = await (await fetch(`${base}/data/agentic-commerce`)).text();
      expect(html).toContain(`<link rel="canonical" href="${base}/data/agentic-commerce">`);
    });
  });

});
