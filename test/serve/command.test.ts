import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runServe } from '../../src/commands/serve.js';
import { isCliError } from '../../src/core/errors.js';
import { startServer } from '../../src/serve/server.js';
import { capturedEnv } from '../helpers/cli.js';
import { samplePublicationFiles, switchCurrent, writePublication } from '../helpers/publication.js';
import { until } from '../helpers/wait.js';

let out: string;

beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-cmd-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

const fakeEnv = () => capturedEnv(new Date('2025-02-03T00:00:00Z'));

describe('storelens serve', () => {
  it('prints the URLs, serves the publication and stops on SIGTERM', async () => {
    await writePublication(out, samplePublicationFiles({ runId: 'cmd', months: ['2025-01'] }), { latest_month: '2025-01' });
    const { env, stderr } = fakeEnv();
    const running = runServe({ out, port: 0, host: '127.0.0.1' }, env);
    await until(() => /listening on/.test(stderr()));
    const base = /listening on (http:\/\/\S+)/.exec(stderr())![1];
    expect(stderr()).toContain(`${base}/api/data/agentic-commerce`);
    expect(stderr()).toContain(`${base}/data/agentic-commerce`);
    expect(stderr()).toMatch(/serving publication \S+ from .* latest month 2025-01/);
    expect((await fetch(`${base}/api/data/agentic-commerce`)).status).toBe(200);

    process.emit('SIGTERM');
    await running;
    expect(stderr()).toContain('stopped (SIGTERM)');
    expect(process.listenerCount('SIGTERM')).toBe(0);
    expect(process.listenerCount('SIGINT')).toBe(0);
    await expect(fetch(`${base}/api/data/agentic-commerce`)).rejects.toThrow();
  });

  it('says that nothing is published yet, and stops on SIGINT', async () => {
    const { env, stderr } = fakeEnv();
    const running = runServe({ out, port: 0, host: '127.0.0.1' }, env);
    await until(() => /listening on/.test(stderr()));
    expect(stderr()).toMatch(/nothing is published .* yet/);
    process.emit('SIGINT');
    await running;
    expect(stderr()).toContain('stopped (SIGINT)');
  });

  it('without --api, tells a request under /api/v1 that the flag is missing; other unknown paths keep their 404', async () => {
    const { env, stderr } = fakeEnv();
    const running = runServe({ out, port: 0, host: '127.0.0.1' }, env);
    try {
      await until(() => /listening on/.test(stderr()));
      const base = /listening on (http:\/\/\S+)/.exec(stderr())![1];
      const asked = [
        await fetch(`${base}/api/v1/accounts?limit=2`, { headers: { authorization: 'Bearer sl_whatever' } }),
        await fetch(`${base}/api/v1`),
        await fetch(`${base}/api/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' }),
      ];
      for (const res of asked) {
        expect(res.status).toBe(404);
        expect(res.headers.get('content-type')).toBe('application/problem+json; charset=utf-8');
        expect(res.headers.get('cache-control')).toBe('no-store');
        const problem = (await res.json()) as { detail: string };
        expect(problem).toMatchObject({ type: 'https://storelens.dev/problems/not-found', status: 404 });
        expect(problem.detail).toMatch(/workspace API .* not served by this process.*--api/);
      }
      for (const elsewhere of ['/elsewhere', '/api/v1x', '/api/v2/accounts']) {
        const res = await fetch(`${base}${elsewhere}`);
        expect(res.status).toBe(404);
        expect(((await res.json()) as { detail: string }).detail).toBe(`No route GET ${elsewhere}.`);
      }
    } finally {
      process.emit('SIGTERM');
      await running;
    }
  });

  it('tells its own notices as JSON log lines (a failed load at warn): only the banner of URLs is plain text', async () => {
    await writePublication(out, samplePublicationFiles({ runId: 'json', months: ['2025-01'] }), { latest_month: '2025-01' });
    const { env, stderr } = fakeEnv();
    const running = runServe({ out, port: 0, host: '127.0.0.1', logFormat: 'json', opsPort: 0 }, env);
    await until(() => /stop with Ctrl-C/.test(stderr()));
    // A release that cannot be loaded: the previous one goes on being served, and that is a failure.
    await mkdir(path.join(out, '.releases', 'broken'), { recursive: true });
    await writeFile(path.join(out, '.releases', 'broken', 'manifest.json'), '{');
    await switchCurrent(out, 'broken');
    await until(() => /not loaded/.test(stderr()));
    process.emit('SIGTERM');
    await running;
    const lines = stderr().split('\n').filter((l) => l !== '');
    const banner = lines.filter((l) => !l.startsWith('{'));
    // Before: the publication loaded, the probes' URLs, the failed load, the signal and the stop were plain text among the JSON.
    expect(banner[0]).toMatch(/^storelens serve: listening on http:/);
    expect(banner.slice(1).every((l) => l.startsWith('  '))).toBe(true);
    const entries = lines.filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, string>);
    const told = (re: RegExp) => entries.find((e) => re.test(e.msg));
    expect(told(/^storelens serve: serving publication \S+ from .* latest month 2025-01/)).toMatchObject({ level: 'info', process: 'storelens serve' });
    expect(told(/^storelens serve: probes at http:/)).toMatchObject({ level: 'info', process: 'storelens serve' });
    expect(told(/^storelens serve: publication not loaded, still serving the previous one/)).toMatchObject({ level: 'warn', process: 'storelens serve' });
    expect(told(/^storelens serve: SIGTERM: finishing requests in flight/)).toMatchObject({ level: 'info' });
    expect(entries.at(-1)).toMatchObject({ level: 'info', process: 'storelens serve', msg: 'storelens serve: stopped (SIGTERM)' });
  });

  it('exits 2 on a bad port and 1 on a port in use', async () => {
    const { env } = fakeEnv();
    await expect(runServe({ out, port: 70000, host: '127.0.0.1' }, env)).rejects.toSatisfy(
      (e) => isCliError(e) && e.exitCode === 2 && /--port/.test(e.message),
    );
    const taken = createServer();
    await new Promise<void>((r) => taken.listen(0, '127.0.0.1', r));
    const port = (taken.address() as AddressInfo).port;
    try {
      await expect(runServe({ out, port, host: '127.0.0.1' }, env)).rejects.toSatisfy(
        (e) => isCliError(e) && e.exitCode === 1 && /in use/.test(e.message),
      );
      // With --api, said before the workspace database is opened (migrated, ingested into, ranked).
      const db = path.join(out, 'api.db');
      await expect(runServe({ out, port, host: '127.0.0.1', api: true, db }, env)).rejects.toSatisfy(
        (e) => isCliError(e) && e.exitCode === 1 && /in use/.test(e.message),
      );
      expect(existsSync(db)).toBe(false);
    } finally {
      taken.close();
    }
    expect(process.listenerCount('SIGTERM')).toBe(0);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    await writePublication(out, samplePublicationFiles({ runId: 'g', months: ['2025-01'] }));
    const server = await startServer({
      out,
      port: 0,
      host: '127.0.0.1',
      live: { pollMs: 0 },
      mount: (app) => {
        app.get('/slow', async () => {
          arrived();
          await finish;
          return { done: true };
        });
      },
    });
    let arrived!: () => void;
    let release!: () => void;
    const started = new Promise<void>((r) => (arrived = r));
    const finish = new Promise<void>((r) => (release = r));
    const inFlight = fetch(`${server.url}/slow`);
    await started;
    const closed = server.close();
    // Closing has begun with the request still in its handler; it ends, then the server does.
    let done = false;
    void closed.then(() => (done = true));
    await Promise.resolve();
    expect(done).toBe(false);
    release();
    const res = await inFlight;
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ done: true });
    await closed;
    await expect(fetch(`${server.url}/api/data/agentic-commerce`)).rejects.toThrow();
  });
});
