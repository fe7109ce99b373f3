/**
 * The response headers openapi.json promises (`required: true`) are on the answers, over real
 * HTTP: the ETag of a versioned resource on its reads and changes, the Location of what a
 * create makes, Retry-After on 429 and 503. Each answer is checked against the document a client
 * generates its code from, and every operation promising a success header is exercised.
 */
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { credit } from '../../src/wallet/billing.js';
import { ROUTES } from '../../src/compose/modules.js';
import { SCOPES } from '../../src/api/scopes.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects, freshDb } from '../helpers/db.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import { apiKey, call, freshIdem, startApi, workspace, type CallResult, type Harness } from '../helpers/api.js';

type Json = Record<string, any>;
const ALL_AVAILABLE = Object.fromEntries(ROUTES.map((r) => [r.operationId, 'available' as const]));
const ajv = new Ajv({ strict: false });

/** `#/components/…` references of the document followed. */
const resolve = (doc: Json, node: Json): Json => (node.$ref ? resolve(doc, (node.$ref as string).slice(2).split('/').reduce((n: Json, k) => n[k], doc)) : node);

/** The headers the document says an operation's answer with this status always carries, with their schemas. */
function promised(doc: Json, operationId: string, status: number): [string, Json][] {
  const op = Object.values(doc.paths as Json)
    .flatMap((p) => Object.values(p as Json))
    .find((o: Json) => o.operationId === operationId) as Json;
  const response = op.responses[String(status)];
  expect(response, `${operationId} declares no ${status}`).toBeDefined();
  return Object.entries((resolve(doc, response).headers ?? {}) as Json)
    .map(([name, h]) => [name, resolve(doc, h as Json)] as [string, Json])
    .filter(([, h]) => h.required === true);
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`promised response headers on ${d.label}`, () => {
    let h: Harness;
    let doc: Json;
    let key: string;
    /** Operation ids whose answers were checked, by status. */
    const checked = new Set<string>();

    /** Every header the document promises for this answer is there, with a value its schema takes. */
    function expectPromised(operationId: string, r: CallResult | Response): void {
      const status = r.status;
      // What every 429 and 503 says in its prose is a promise in the document too.
      if (status === 429 || status === 503) expect(promised(doc, operationId, status).map(([n]) => n)).toContain('Retry-After');
      for (const [name, header] of promised(doc, operationId, status)) {
        const value = r.headers.get(name);
        expect(value, `${operationId} ${status}: ${name}`).not.toBeNull();
        const typed = header.schema?.type === 'integer' ? Number(value) : value;
        expect(ajv.validate(header.schema, typed), `${operationId} ${status}: ${name}: ${value}`).toBe(true);
      }
      checked.add(`${operationId} ${status}`);
    }

    beforeAll(async () => {
      // Webhook URLs resolve to a public address without asking DNS.
      const t = await freshDb(d.name);
      const outbound = await webhookRuntime(t.db.kysely, { allowLocal: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
      await t.cleanup();
      h = await startApi(d.name, { operations: ALL_AVAILABLE, rateLimits: { read: 100_000, write: 100_000, report: 100_000 }, outbound });
      doc = (await call(h.base, 'GET', '/openapi.json')).body;
      const ws = await workspace(h.db);
      key = await apiKey(h.db, ws.id, SCOPES);
      await seedAccounts(h.db, ws.id, [{ store_id: 'hdr-a', score: 0.9, domain: 'a.example' }]);
      await h.db.kysely.transaction().execute((trx) => credit(trx, ws.id, 100_000, 'tests', 'member:owner@example.com', 'headers-test', new Date()));
    });
    afterAll(async () => {
      await h?.close();
    });

    const post = (path: string, body: unknown, headers: Record<string, string> = {}) => call(h.base, 'POST', path, { key, idem: freshIdem(), body, headers });

    it('promises ETag on every answer of a deal, and Location on its creation', async () => {
      const created = await post('/deals', { store_id: 'hdr-a', title: 'Headers' });
      expect(created.status).toBe(201);
      expectPromised('create_deal', created);
      expect(promised(doc, 'create_deal', 201).map(([n]) => n)).toEqual(expect.arrayContaining(['ETag', 'Location']));
      const id = created.body.id as string;
      const read = await call(h.base, 'GET', `/deals/${id}`, { key });
      expectPromised('get_deal', read);
      const notModified = await fetch(`${h.base}/deals/${id}`, { headers: { authorization: `Bearer ${key}`, 'if-none-match': read.headers.get('etag')! } });
      expect(notModified.status).toBe(304);
      expectPromised('get_deal', notModified);
      const updated = await call(h.base, 'PATCH', `/deals/${id}`, { key, idem: freshIdem(), body: { title: 'Changed' }, headers: { 'if-match': read.headers.get('etag')! } });
      expectPromised('update_deal', updated);
      expectPromised('move_deal_stage', await post(`/deals/${id}/stage`, { stage: 'proposal' }, { 'if-match': updated.headers.get('etag')! }));
    });

    it('promises Location on what a create makes or accepts, and it reads that resource', async () => {
      const contact = await post('/contacts', { store_id: 'hdr-a', email: 'ana@a.example' });
      const watch = await post('/watches', { type: 'client', client_name: 'Northwind', store_ids: ['hdr-a'] });
      const report = await post('/reports/growth', { store_id: 'hdr-a' });
      const cadence = await post('/outreach/cadences', { name: 'intro', steps: [{ day: 0, name: 'intro email' }] });
      const enrollment = await post('/outreach/enrollments', { store_id: 'hdr-a', contact_id: contact.body.id, cadence_id: cadence.body.id });
      const webhook = await post('/webhooks', { url: 'https://hooks.test/in' });
      for (const [operationId, r] of [['add_contact', contact], ['add_watch', watch], ['request_growth_report', report], ['enroll_outreach', enrollment], ['register_webhook', webhook]] as const) {
        expect(r.status, JSON.stringify(r.body)).toBeLessThan(300);
        expectPromised(operationId, r);
        const there = await call(h.base, 'GET', r.headers.get('location')!.slice('/api/v1'.length), { key });
        expect([there.status, there.body.id], operationId).toEqual([200, r.body.id]);
      }
    });

    it('promises Retry-After on a 429', async () => {
      const limited = await startApi(d.name, { operations: ALL_AVAILABLE, rateLimits: { read: 1 } });
      try {
        const k = await apiKey(limited.db, (await workspace(limited.db)).id, ['read:accounts']);
        expect((await call(limited.base, 'GET', '/accounts', { key: k })).status).toBe(200);
        const refused = await call(limited.base, 'GET', '/accounts', { key: k });
        expect(refused.status).toBe(429);
        expectPromised('list_accounts', refused);
      } finally {
        await limited.close();
      }
    });

    it('promises Retry-After on a 503 (the database away)', async () => {
      const lost = await startApi(d.name, { operations: ALL_AVAILABLE });
      const close = lost.db.close.bind(lost.db);
      try {
        const k = await apiKey(lost.db, (await workspace(lost.db)).id, ['read:accounts']);
        await close();
        lost.db.close = async () => {};
        const r = await call(lost.base, 'GET', '/accounts', { key: k });
        expect(r.status).toBe(503);
        expectPromised('list_accounts', r);
      } finally {
        await lost.close();
      }
    });

    it('promises Retry-After on a 503 of a charge with no price set', async () => {
      const unpriced = await startApi(d.name, { operations: ALL_AVAILABLE });
      try {
        const ws = await workspace(unpriced.db);
        const k = await apiKey(unpriced.db, ws.id, SCOPES);
        await seedAccounts(unpriced.db, ws.id, [{ store_id: 'hdr-a', score: 0.9 }]);
        await unpriced.db.kysely.deleteFrom('prices').where('unit', '=', 'growth_report').execute();
        const r = await call(unpriced.base, 'POST', '/reports/growth', { key: k, idem: freshIdem(), body: { store_id: 'hdr-a' } });
        expect([r.status, r.body.type]).toEqual([503, 'https://storelens.dev/problems/service-unavailable']);
        expectPromised('request_growth_report', r);
      } finally {
        await unpriced.close();
      }
    });

    it('exercised every operation whose success answer promises a header', () => {
      const promising = ROUTES.filter((r) => promised(doc, r.operationId, r.status ?? 200).some(([name]) => !name.startsWith('RateLimit'))).map((r) => `${r.operationId} ${r.status ?? 200}`);
      expect(promising.length).toBeGreaterThan(0);
      expect(promising.filter((p) => !checked.has(p))).toEqual([]);
    });
  });
}
