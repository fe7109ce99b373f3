import { request as httpRequest } from 'node:http';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import { importAccounts } from '../../src/accounts/store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, freshIdem, startApi, workspace, type CallResult, type Harness } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const LIFTED = { read: 10_000, write: 10_000, report: 10_000 };
const outcome = { store_id: 's1', action: 'won' };

function expectProblem(r: CallResult, status: number, kind: string): void {
  expect(r.status, JSON.stringify(r.body)).toBe(status);
  expect(r.contentType).toMatch(/^application\/problem\+json/);
  expect(r.body).toMatchObject({ type: PROBLEM + kind, status });
}

/** A raw request over node:http (bytes as given, headers exactly as set). */
function raw(base: string, method: string, path: string, headers: Record<string, string>, body: Buffer): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(base + path, { method, headers: { ...headers, 'content-length': String(body.length) } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`strict request input on ${d.label}`, () => {
    let h: Harness;
    let wsId: string;
    let key: string;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: LIFTED });
      wsId = (await workspace(h.db)).id;
      key = await apiKey(h.db, wsId, ['read:accounts', 'write:outcomes']);
    });
    afterAll(async () => h?.close());

    describe('query integers', () => {
      it.each(['0x10', '1e2', '%2B5', '05', '%205', '5%20', '5.0', '-0'])('answers 400 for limit=%s', async (limit) => {
        const r = await call(h.base, 'GET', `/accounts?limit=${limit}`, { key });
        expectProblem(r, 400, 'invalid-parameters');
        expect(r.body.detail).toMatch(/^limit: must be a whole number in decimal digits/);
      });
      it('accepts plain decimal digits', async () => {
        for (const limit of ['1', '10', '200']) expect((await call(h.base, 'GET', `/accounts?limit=${limit}`, { key })).status).toBe(200);
      });
      it('says a repeated parameter was given more than once', async () => {
        for (const q of ['limit=5&limit=6', 'limit=5&limit=5', 'filter=all&filter=in_market']) {
          const r = await call(h.base, 'GET', `/accounts?${q}`, { key });
          expectProblem(r, 400, 'invalid-parameters');
          const name = q.split('=')[0];
          expect(r.body.detail).toBe(`${name}: given more than once; send it once`);
          expect(r.body.errors).toEqual([{ path: name, message: 'given more than once; send it once' }]);
        }
      });
    });

    describe('body encodings', () => {
      it('answers 415 for a gzip-coded JSON body and records nothing', async () => {
        const ws = await workspace(h.db);
        const k = await apiKey(h.db, ws.id, ['write:outcomes']);
        const headers = { authorization: `Bearer ${k}`, 'idempotency-key': freshIdem(), 'content-type': 'application/json', 'content-encoding': 'gzip' };
        const r = await raw(h.base, 'POST', '/outcomes', headers, gzipSync(JSON.stringify(outcome)));
        expect(r.status).toBe(415);
        expect(r.body.type).toBe(PROBLEM + 'unsupported-media-type');
        expect(r.body.detail).toMatch(/Content-Encoding: gzip/);
        expect(await listOutcomes(h.db.kysely, ws.id)).toEqual([]);
      });
      it.each(['br', 'deflate', 'identity, gzip', 'x-custom'])('answers 415 for Content-Encoding: %s', async (coding) => {
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: outcome, headers: { 'content-encoding': coding } });
        expectProblem(r, 415, 'unsupported-media-type');
      });
      it('accepts Content-Encoding: identity', async () => {
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: outcome, headers: { 'content-encoding': 'identity' } });
        expect(r.status).toBe(200);
      });
      it.each(['application/json; charset=iso-8859-1', 'application/json; charset=utf-16', 'application/json; charset="latin1"', 'application/json;charset=us-ascii'])(
        'answers 415 for Content-Type %s',
        async (ct) => {
          const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: JSON.stringify(outcome), headers: { 'content-type': ct } });
          expectProblem(r, 415, 'unsupported-media-type');
          expect(r.body.detail).toMatch(/UTF-8/);
        },
      );
      it.each(['application/json; charset=UTF-8', 'application/json; Charset="utf-8"', 'application/json'])('accepts Content-Type %s', async (ct) => {
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: JSON.stringify(outcome), headers: { 'content-type': ct } });
        expect(r.status).toBe(200);
      });
      it('ignores Content-Encoding on a request without a body', async () => {
        expect((await call(h.base, 'GET', '/accounts', { key, headers: { 'content-encoding': 'gzip' } })).status).toBe(200);
      });
      it('checks the key before the body encoding', async () => {
        const r = await call(h.base, 'POST', '/outcomes', { idem: freshIdem(), body: outcome, headers: { 'content-encoding': 'gzip' } });
        expectProblem(r, 401, 'unauthorized');
      });
    });

    describe('body members', () => {
      it('answers 400 naming a member its object gives twice, and records nothing', async () => {
        const ws = await workspace(h.db);
        const k = await apiKey(h.db, ws.id, ['write:outcomes']);
        const bodies: [string, string][] = [
          ['{"store_id":"s1","action":"won","action":"lost"}', 'action'],
          ['{"store_id":"s1","action":"won","\\u0061ction":"lost","lost_reason":"budget"}', 'action'],
          ['{"store_id":"s1","action":"won","note":"a,\\"note\\":","note":"b"}', 'note'],
        ];
        for (const [rawBody, path] of bodies) {
          const r = await call(h.base, 'POST', '/outcomes', { key: k, idem: freshIdem(), rawBody });
          expectProblem(r, 400, 'invalid-body');
          expect(r.body.errors).toEqual([{ path, message: 'given more than once in its object; send it once' }]);
        }
        expect(await listOutcomes(h.db.kysely, ws.id)).toEqual([]);
      });
      it('names a repeated member inside a nested object or list by its path', async () => {
        const ws = await workspace(h.db);
        await importAccounts(h.db, ws.id, [{ store_id: 'shop', score: 1 }], new Date());
        const k = await apiKey(h.db, ws.id, ['write:watch']);
        const rawBody = '{"type":"self_directed","store_ids":["shop",{"a":1,"b":{"a":2},"a":3}]}';
        const r = await call(h.base, 'POST', '/watches', { key: k, idem: freshIdem(), rawBody });
        expectProblem(r, 400, 'invalid-body');
        expect(r.body.errors).toEqual([{ path: 'store_ids.1.a', message: 'given more than once in its object; send it once' }]);
      });
      it('takes a body whose repeated name is only text inside a string value', async () => {
        const rawBody = '{"store_id":"s1","action":"won","note":"{\\"action\\":1}"}';
        expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody })).status).toBe(200);
      });
    });

    describe('If-Match', () => {
      it('answers 400 for an If-Match on a change of a resource without a version, and changes nothing', async () => {
        const ws = await workspace(h.db);
        await importAccounts(h.db, ws.id, [{ store_id: 'shop', score: 1 }], new Date());
        const k = await apiKey(h.db, ws.id, ['read:accounts', 'write:contacts']);
        const added = await call(h.base, 'POST', '/contacts', { key: k, idem: freshIdem(), body: { store_id: 'shop', email: 'kim@shop.example', role: 'Buyer' } });
        for (const tag of ['"7"', '7', 'W/"7"', '"a", "b"']) {
          const r = await call(h.base, 'PATCH', `/contacts/${added.body.id}`, { key: k, idem: freshIdem(), body: { role: 'Owner' }, headers: { 'if-match': tag } });
          expectProblem(r, 400, 'invalid-parameters');
          expect(r.body.errors).toEqual([{ path: 'if-match', message: expect.stringMatching(/^update_contact changes a resource without a version: it takes no If-Match/) }]);
        }
        expect((await call(h.base, 'GET', `/contacts/${added.body.id}`, { key: k })).body.role).toBe('Buyer');
        const any = await call(h.base, 'PATCH', `/contacts/${added.body.id}`, { key: k, idem: freshIdem(), body: { role: 'Owner' }, headers: { 'if-match': '*' } });
        expect([any.status, any.body.role]).toEqual([200, 'Owner']);
      });
      it('still takes an If-Match version where the operation declares one (deals)', async () => {
        const ws = await workspace(h.db);
        await importAccounts(h.db, ws.id, [{ store_id: 'shop', score: 1 }], new Date());
        const k = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
        const deal = await call(h.base, 'POST', '/deals', { key: k, idem: freshIdem(), body: { store_id: 'shop', title: 'Relaunch' } });
        const r = await call(h.base, 'PATCH', `/deals/${deal.body.id}`, { key: k, idem: freshIdem(), body: { title: 'Relaunch 2' }, headers: { 'if-match': '"1"' } });
        expect([r.status, r.body.version]).toEqual([200, 2]);
      });
    });
  });
}
