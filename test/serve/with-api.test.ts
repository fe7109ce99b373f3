/** serve and the workspace API on one port, the way `serve --api` and `npm start` run them. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiPlugin } from '../../src/api/app.js';
import { ensureDemoKey } from '../../src/api/demo.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { freshDb, type TestDb } from '../helpers/db.js';
import { samplePublicationFiles, writePublication } from '../helpers/publication.js';
import { raw } from './http.js';

let out: string;
let t: TestDb;
let server: RunningServer;

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-with-api-'));
  await writePublication(out, samplePublicationFiles({ runId: 'api', months: ['2025-01'] }));
  t = await freshDb('SQLite');
  server = await startServer({
    out,
    port: 0,
    host: '127.0.0.1',
    live: { pollMs: 0 },
    plugins: [{ plugin: apiPlugin, options: { prefix: '/api/v1', db: t.db } }],
  });
});

afterAll(async () => {
  await server?.close();
  await t?.cleanup();
  await rm(out, { recursive: true, force: true });
});

describe('serve with apiPlugin under /api/v1', () => {
  it('answers the API with its own rules: query strings allowed, no-store', async () => {
    const demo = await ensureDemoKey(t.db);
    const res = await fetch(`${server.url}/api/v1/accounts?limit=2`, { headers: { authorization: `Bearer ${demo.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const unauth = await raw(server.url, '/api/v1/accounts');
    expect(unauth.status).toBe(401);
    expect(unauth.headers['content-type']).toMatch(/problem\+json/);
    expect(unauth.headers['cache-control']).toBe('no-store');
  });

  it('keeps the public rules under /api/data and /data', async () => {
    const ok = await raw(server.url, '/api/data/agentic-commerce');
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('public, s-maxage=3600');
    const q = await raw(server.url, '/api/data/agentic-commerce?limit=2');
    expect(q.status).toBe(404);
    expect(q.headers['cache-control']).toBe('public, s-maxage=60');
    expect((await raw(server.url, '/data/rss.xml', { method: 'POST' })).status).toBe(405);
  });
});
