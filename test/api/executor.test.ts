import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { capabilityReader } from '../../src/api/capabilities.js';
import { type OperationExecutor, type OperationRequest, createExecutor } from '../../src/api/executor.js';
import { routeById } from '../../src/compose/modules.js';
import { importAccounts } from '../../src/accounts/store.js';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { apiKey, fakeClock, freshIdem, workspace } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';

/** A plain request, as a transport without HTTP (an MCP tool call) would build it. */
function request(o: { key?: string; idem?: string; params?: Record<string, unknown>; query?: Record<string, unknown>; body?: unknown }): OperationRequest {
  const headers: Record<string, string> = {};
  if (o.key) headers.authorization = `Bearer ${o.key}`;
  if (o.idem) headers['idempotency-key'] = o.idem;
  const query = o.query ?? {};
  return {
    params: o.params ?? {},
    query,
    headers,
    rawBody: o.body === undefined ? undefined : JSON.stringify(o.body),
    target: `tool?${JSON.stringify(query)}`,
  };
}

const route = (id: string) => routeById(id)!;

for (const d of dialects) {
  describe.skipIf(d.skip)(`the operation executor without HTTP on ${d.label}`, () => {
    let t: TestDb;
    let exec: OperationExecutor;
    let wsId: string;
    let key: string;
    beforeAll(async () => {
      t = await freshDb(d.name);
      exec = await createExecutor({ db: t.db, now: fakeClock().now, capability: capabilityReader(), rateLimits: { write: 3 } });
      wsId = (await workspace(t.db)).id;
      await importAccounts(t.db, wsId, [{ store_id: 'a', score: 2 }, { store_id: 'b', score: 1 }], new Date());
      key = await apiKey(t.db, wsId, ['read:accounts', 'write:outcomes', 'manage:webhooks']);
    });
    afterAll(async () => t?.cleanup());

    it('answers a read with JSON text and the rate-limit headers', async () => {
      const r = await exec.execute(route('list_accounts'), request({ key, query: { limit: 1 } }));
      expect(r.status).toBe(200);
      expect(r.problem).toBeUndefined();
      expect(r.headers.ratelimit).toMatch(/^"read";r=\d+;t=\d+$/);
      const body = JSON.parse(r.body);
      expect(body.data.map((a: any) => a.store_id)).toEqual(['a']);
      expect(body.next_cursor).toEqual(expect.any(String));
    });

    it('computes a read that many callers ask for at once a single time, and gives each the same answer', async () => {
      const base = route('list_accounts');
      let runs = 0;
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      const counted = { ...base, handler: async (ctx: Parameters<NonNullable<typeof base.handler>>[0]) => {
        runs++;
        await gate;
        return base.handler!(ctx);
      } };
      // Every caller admitted (each counted by the limiter), then all asking at once while the
      // first one's handler is held: the others find its computation running and wait for it.
      const asked = request({ key, query: { limit: 2, filter: 'all' } });
      const admissions = await Promise.all(Array.from({ length: 8 }, () => exec.admit(counted, asked.headers)));
      const answers = Promise.all(admissions.map((a) => exec.perform(counted, asked, a)));
      expect(runs).toBe(1);
      release();
      const all = await answers;
      expect(runs).toBe(1);
      expect(new Set(all.map((a) => a.body)).size).toBe(1);
      expect(all.every((a) => a.status === 200)).toBe(true);
      expect(admissions.every((a) => a.headers.ratelimit !== undefined)).toBe(true);
      // A read that is not shared (another target) runs on its own.
      await exec.execute(counted, request({ key, query: { limit: 1, filter: 'all' } }));
      expect(runs).toBe(2);
    });

    it('keeps more pages than it did by count (its bound is their gzipped bytes), and answers a kept page gzipped and as text', async () => {
      const own = await createExecutor({ db: t.db, now: fakeClock().now, capability: capabilityReader(), rateLimits: { read: 1_000_000 } });
      // A key of its own: calls are counted in the database, whichever executor admits them.
      const reader = await apiKey(t.db, wsId, ['read:accounts']);
      const base = route('list_accounts');
      let runs = 0;
      const counted = { ...base, handler: async (ctx: Parameters<NonNullable<typeof base.handler>>[0]) => (runs++, base.handler!(ctx)) };
      // 1,200 targets (a transport's target decides the answer): far more than the 500 pages kept before.
      const asked = (i: number) => ({ ...request({ key: reader, query: { limit: 1 + (i % 2) } }), target: `tool?page=${i}` });
      const first = [];
      for (let i = 0; i < 1200; i++) first.push(await own.execute(counted, asked(i)));
      expect(runs).toBe(1200);
      for (let i = 0; i < 1200; i++) {
        const again = await own.execute(counted, asked(i));
        expect(again.status).toBe(200);
        expect(gunzipSync(again.gzipped!()).toString('utf8')).toBe(first[i]!.body);
        expect(again.body).toBe(first[i]!.body);
      }
      expect(runs).toBe(1200);
    });

    it('runs the checks in the same order as REST: 401, 404, 403, 400', async () => {
      const unauth = await exec.execute(route('record_outcome'), request({ body: { store_id: 's', action: 'won' } }));
      expect([unauth.status, JSON.parse(unauth.body).type]).toEqual([401, PROBLEM + 'unauthorized']);
      expect(unauth.problem).toBe(true);
      expect(unauth.headers['www-authenticate']).toMatch(/^Bearer/);
      const unavailable = await exec.execute(route('get_current_list'), request({ key: await apiKey(t.db, wsId, ['read:watch']) }));
      expect(JSON.parse(unavailable.body).type).toBe(PROBLEM + 'operation-unavailable');
      const readOnly = await apiKey(t.db, wsId, ['read:accounts']);
      const scope = await exec.execute(route('record_outcome'), request({ key: readOnly, body: { store_id: 's' } }));
      expect([scope.status, JSON.parse(scope.body).type]).toEqual([403, PROBLEM + 'insufficient-scope']);
      const noIdem = await exec.execute(route('record_outcome'), request({ key, body: { store_id: 's' } }));
      expect(JSON.parse(noIdem.body).type).toBe(PROBLEM + 'idempotency-key-required');
      const badBody = await exec.execute(route('record_outcome'), request({ key, idem: freshIdem(), body: { store_id: 's' } }));
      expect([badBody.status, JSON.parse(badBody.body).type]).toEqual([400, PROBLEM + 'invalid-body']);
      expect(badBody.headers.ratelimit).toMatch(/^"write";/);
    });

    it('takes typed arguments as well as strings for query integers, and refuses a repeated one', async () => {
      expect((await exec.execute(route('list_accounts'), request({ key, query: { limit: '2' } }))).status).toBe(200);
      const repeated = await exec.execute(route('list_accounts'), request({ key, query: { limit: ['1', '2'] } }));
      expect(repeated.status).toBe(400);
      expect(JSON.parse(repeated.body).detail).toBe('limit: given more than once; send it once');
    });

    it('records a write once and replays it for the same Idempotency-Key', async () => {
      const ws = await workspace(t.db);
      const k = await apiKey(t.db, ws.id, ['write:outcomes']);
      const idem = freshIdem();
      const first = await exec.execute(route('record_outcome'), request({ key: k, idem, body: { store_id: 's', action: 'won' } }));
      const again = await exec.execute(route('record_outcome'), request({ key: k, idem, body: { action: 'won', store_id: 's' } }));
      expect(first.status).toBe(200);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expect(again.body).toBe(first.body);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(await listOutcomes(t.db.kysely, ws.id)).toHaveLength(1);
    });

    it('stores a problem a handler throws and replays it for the same Idempotency-Key', async () => {
      const ws = await workspace(t.db);
      const k = await apiKey(t.db, ws.id, ['manage:webhooks']);
      const idem = freshIdem();
      const missing = await exec.execute(route('delete_webhook'), request({ key: k, idem, params: { id: 'whe_nope' } }));
      expect([missing.status, missing.problem, JSON.parse(missing.body).type]).toEqual([404, true, PROBLEM + 'not-found']);
      const replay = await exec.execute(route('delete_webhook'), request({ key: k, idem, params: { id: 'whe_nope' } }));
      expect([replay.status, replay.problem, replay.body]).toEqual([404, true, missing.body]);
      expect(replay.headers['idempotent-replayed']).toBe('true');
      const ep = await insertWebhookEndpoint(t.db.kysely, ws.id, { url: 'https://example.com/h' }, new Date());
      const other = await exec.execute(route('delete_webhook'), request({ key: k, idem, params: { id: ep.id } }));
      expect(JSON.parse(other.body).type).toBe(PROBLEM + 'idempotency-key-reused');
    });

    it('answers 429 with Retry-After past the write limit', async () => {
      const ws = await workspace(t.db);
      const k = await apiKey(t.db, ws.id, ['write:outcomes']);
      for (let i = 0; i < 3; i++) {
        expect((await exec.execute(route('record_outcome'), request({ key: k, idem: freshIdem(), body: { store_id: 's', action: 'won' } }))).status).toBe(200);
      }
      const over = await exec.execute(route('record_outcome'), request({ key: k, idem: freshIdem(), body: { store_id: 's', action: 'won' } }));
      expect([over.status, JSON.parse(over.body).type]).toEqual([429, PROBLEM + 'rate-limited']);
      expect(Number(over.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    });

    it('answers a lost database with a 503 problem without internals, and reports the error', async () => {
      const lost = await freshDb(d.name);
      const ws = await workspace(lost.db);
      const k = await apiKey(lost.db, ws.id, ['read:accounts']);
      const errors: unknown[] = [];
      const e = await createExecutor({ db: lost.db, now: () => new Date(), capability: capabilityReader(), onError: (err) => errors.push(err) });
      await lost.db.close();
      try {
        const r = await e.execute(route('list_accounts'), request({ key: k }));
        expect([r.status, r.problem, r.headers['retry-after']]).toEqual([503, true, '1']);
        expect(JSON.parse(r.body)).toEqual({
          type: PROBLEM + 'service-unavailable',
          title: 'Temporarily unavailable',
          status: 503,
          detail: 'The service is temporarily unavailable; retry shortly.',
        });
        expect(errors).toHaveLength(1);
      } finally {
        lost.db.close = async () => {};
        await lost.cleanup();
      }
    });
  });
}
