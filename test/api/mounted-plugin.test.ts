import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import { workspaceApi as apiPlugin } from '../../src/compose/workspace-app.js';
import { ensureDemoKey } from '../../src/compose/demo.js';
import { demoWithAccounts } from '../helpers/accounts.js';
import { freshDb, type TestDb } from '../helpers/db.js';

describe('apiPlugin mounted beside public routes on one port', () => {
  let t: TestDb;
  let app: FastifyInstance;
  let origin: string;
  beforeAll(async () => {
    t = await freshDb('SQLite');
    app = Fastify();
    app.get('/api/data/:slug', async () => ({ public: true }));
    app.post('/echo', async (req) => req.body);
    app.setNotFoundHandler(async (_req, reply) => reply.code(404).type('text/plain').send('public 404'));
    app.setErrorHandler(async (_err, _req, reply) => reply.code(418).send('public error'));
    await app.register(apiPlugin, { db: t.db, prefix: '/api/v1' });
    await app.listen({ port: 0, host: '127.0.0.1' });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await app?.close();
    await t?.cleanup();
  });

  it('serves /api/v1 with the demo key and no-store', async () => {
    const demo = await demoWithAccounts(t.db);
    const res = await fetch(`${origin}/api/v1/accounts`, { headers: { authorization: `Bearer ${demo.key}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const body = (await res.json()) as { data: unknown[] };
    expect(body.data.length).toBeGreaterThan(0);
  });

  it('answers unknown /api/v1 paths with its own problem+json (401 before 404)', async () => {
    const res = await fetch(`${origin}/api/v1/nope`, { headers: { authorization: 'Bearer x' } });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/problem\+json/);
  });

  it('leaves the public routes, 404 handler, error handler and JSON parser alone', async () => {
    const pub = await fetch(`${origin}/api/data/x`);
    expect(pub.status).toBe(200);
    expect(pub.headers.get('cache-control')).toBeNull();
    const missing = await fetch(`${origin}/data/none`);
    expect(missing.status).toBe(404);
    expect(await missing.text()).toBe('public 404');
    const echo = await fetch(`${origin}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"a":1}' });
    expect(await echo.json()).toEqual({ a: 1 });
    const broken = await fetch(`${origin}/echo`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{' });
    expect(broken.status).toBe(418);
  });

  it('creates the demo workspace idempotently with a fresh key each time', async () => {
    const a = await ensureDemoKey(t.db);
    const b = await ensureDemoKey(t.db);
    expect(a.workspace).toBe(b.workspace);
    expect(a.key).not.toBe(b.key);
    const ws = await t.db.kysely.selectFrom('workspaces').selectAll().where('name', '=', 'demo').execute();
    expect(ws).toHaveLength(1);
    const res = await fetch(`${origin}/api/v1/outcomes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${b.key}`, 'idempotency-key': 'demo-1', 'content-type': 'application/json' },
      body: JSON.stringify({ store_id: 'demo-store-001', action: 'won', value: 5000 }),
    });
    expect(res.status).toBe(200);
  });
});
