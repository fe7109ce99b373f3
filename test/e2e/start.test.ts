/**
 * `npm start`, the first command a newcomer runs (README): in an empty folder it generates the
 * demo panel, publishes it, serves the statistics and the workspace API on one port and prints a
 * demo key that works: the ranked accounts with their evidence, a statistics page, the release
 * feed. SIGTERM stops it cleanly (exit 0), card rendering in the background included.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { join, resolve } from 'node:path';
import Parser from 'rss-parser';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDirs } from '../helpers/tmp.js';

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

describe('storelens start in an empty folder', () => {
  it('serves the demo publication and API with the key it prints, and stops cleanly on SIGTERM', async () => {
    const cwd = await dirs.make();
    const port = await freePort();
    const env: Record<string, string> = { ...(process.env as Record<string, string>), TZ: 'UTC' };
    delete env.DATABASE_URL;
    const child = spawn(process.execPath, [BIN, 'start', '--port', String(port), '--host', '127.0.0.1'], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stdout.resume();
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const running = new Promise<string>((done, fail) => {
      child.stderr.on('data', (chunk: Buffer) => {
        err += chunk.toString();
        if (/stop with Ctrl-C/.test(err)) done(err);
      });
      void exited.then((code) => fail(new Error(`storelens start exited (${code}):\n${err}`)));
    });
    try {
      const printed = await running;
      const base = /storelens is running on (http:\/\/\S+)/.exec(printed)![1]!;
      expect(base).toBe(`http://127.0.0.1:${port}`);
      const key = /\b(slk_[A-Za-z0-9_-]+)/.exec(printed)![1]!;

      const accounts = await fetch(`${base}/api/v1/accounts?limit=3`, { headers: { authorization: `Bearer ${key}` } });
      expect(accounts.status).toBe(200);
      const page = (await accounts.json()) as { data: { store_id: string; score: number; logit: number; evidence: { contribution: number }[] }[] };
      expect(page.data).toHaveLength(3);
      for (const a of page.data) expect(a.evidence.reduce((s, e) => s + e.contribution, 0)).toBeCloseTo(a.logit, 9);
      expect(page.data.map((a) => a.score)).toEqual([...page.data.map((a) => a.score)].sort((x, y) => y - x));
      expect((await fetch(`${base}/api/v1/accounts`)).status).toBe(401);

      const html = await fetch(`${base}/data/agentic-commerce`);
      expect([html.status, html.headers.get('content-type')]).toEqual([200, 'text/html; charset=utf-8']);
      const feed = await new Parser().parseString(await (await fetch(`${base}/data/rss.xml`)).text());
      expect(feed.items.length).toBeGreaterThan(0);
      expect(feed.items.every((i) => i.link?.startsWith(`${base}/`))).toBe(true);
    } finally {
      if (child.exitCode === null) child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  }, 180_000);
});
