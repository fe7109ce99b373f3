/** serve and the workspace API on one port, the way `serve --api` and `npm start` run them. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDemoKey } from '../../src/compose/demo.js';
import type { RunningServer } from '../../src/serve/server.js';
import type { TestDb } from '../helpers/db.js';
import { startServeWithApi, type ServeWithApi } from '../helpers/serve-with-api.js';
import { raw } from './http.js';

let t: TestDb;
let server: RunningServer;
let running: ServeWithApi;

beforeAll(async () => {
  running = await startServeWithApi('api', ['2025-01']);
  ({ t, server } = running);
});

afterAll(async () => {
  await running?.close();
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
