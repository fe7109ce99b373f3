import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { importAccounts } from '../../src/accounts/store.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, startApi, workspace, type Harness } from '../helpers/api.js';

const LIFTED = { read: 1e9, write: 1e9, report: 1e9 };
const RUNS = Number(process.env.FUZZ_RUNS ?? 120);

interface Req {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
}

async function send(base: string, r: Req) {
  const res = await fetch(base + r.path, { method: r.method, headers: r.headers, body: r.method === 'GET' ? undefined : r.body });
  const text = await res.text();
  return { status: res.status, type: res.headers.get('content-type') ?? '', cache: res.headers.get('cache-control'), text };
}

function expectWellFormed(res: Awaited<ReturnType<typeof send>>, r: Req): void {
  const where = `${r.method} ${r.path} ${JSON.stringify(r.headers)} ${r.body?.slice(0, 200)}`;
  expect(res.status, where).toBeLessThan(500);
  expect(res.cache, where).toBe('no-store');
  if (res.status >= 400) {
    expect(res.type, where).toMatch(/^application\/problem\+json/);
    const p = JSON.parse(res.text);
    expect(p.status, where).toBe(res.status);
    expect(p.type, where).toMatch(/^https:\/\/storelens\.dev\/problems\//);
    expect(typeof p.title === 'string' && typeof p.detail === 'string', where).toBe(true);
  }
}

const headerValue = fc.string({ maxLength: 40 }).map((s) => s.replace(/[^\x20-\x7e]/g, ''));
const pathSegment = fc.oneof(
  fc.constantFrom('accounts', 'outcomes', 'webhooks', 'deals', 'openapi.json', 'docs', '', '..', '%', '%zz', '%00', '%2F', 'x'.repeat(300)),
  fc.string({ maxLength: 12 }).map(encodeURIComponent),
  // Any code point, U+0000 included (a NUL in a parameter once reached PostgreSQL).
  fc.string({ maxLength: 12, unit: 'binary' }).map(encodeURIComponent),
);
const outcomeLike = fc.record(
  {
    store_id: fc.oneof(fc.string(), fc.string({ unit: 'binary' }), fc.integer(), fc.constant(null)),
    action: fc.oneof(fc.constantFrom('discovery', 'qualifying', 'proposal', 'negotiation', 'won', 'lost'), fc.string()),
    value: fc.oneof(fc.double(), fc.string(), fc.constant(null)),
    occurred_at: fc.string(),
    note: fc.oneof(fc.string(), fc.string({ unit: 'binary' })),
    lost_reason: fc.oneof(fc.constantFrom('no_response', 'timing', 'budget', 'chose_another_agency', 'project_cancelled', 'not_a_fit', 'other'), fc.string()),
    lost_reason_other: fc.string(),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);
const bodyText = fc.oneof(
  outcomeLike.map((o) => JSON.stringify(o)),
  fc.jsonValue().map((v) => JSON.stringify(v)),
  fc.string({ maxLength: 200 }),
  fc.constantFrom('', '{', '{"store_id":"s","action":"won"', 'null', '[]', '"x"', '\u0000'),
);

for (const d of dialects) {
  describe.skipIf(d.skip)(`fuzzing /api/v1 on ${d.label}`, () => {
    let h: Harness;
    let key: string;
    let hook: string;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: LIFTED });
      const ws = await workspace(h.db);
      key = await apiKey(h.db, ws.id, ['read:accounts', 'read:watch', 'write:outcomes', 'manage:webhooks', 'generate:reports']);
      hook = (await insertWebhookEndpoint(h.db.kysely, ws.id, { url: 'https://example.com/h' }, new Date())).id;
      await importAccounts(h.db, ws.id, [{ store_id: 'a', score: 1 }], new Date());
    });
    afterAll(async () => h?.close());

    it('answers any POST /outcomes body and headers without a 5xx, errors as problem+json', async () => {
      await fc.assert(
        fc.asyncProperty(
          bodyText,
          fc.constantFrom('application/json', 'application/json; charset=utf-8', 'text/plain', 'application/x-www-form-urlencoded', 'APPLICATION/JSON', 'application/jsonx', ''),
          fc.oneof(fc.constant(undefined), headerValue, fc.string({ minLength: 250, maxLength: 300 }).map((s) => s.replace(/[^\x21-\x7e]/g, 'a'))),
          fc.oneof(fc.constant(`Bearer ${key}`), fc.constant(undefined), headerValue.map((s) => `Bearer ${s}`)),
          async (body, contentType, idem, auth) => {
            const headers: Record<string, string> = {};
            if (contentType) headers['content-type'] = contentType;
            if (idem !== undefined) headers['idempotency-key'] = idem;
            if (auth !== undefined) headers.authorization = auth;
            const r: Req = { method: 'POST', path: '/outcomes', headers, body };
            expectWellFormed(await send(h.base, r), r);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('answers any path, method and query without a 5xx, errors as problem+json', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('GET', 'POST', 'DELETE', 'PUT', 'PATCH', 'OPTIONS'),
          fc.array(pathSegment, { minLength: 1, maxLength: 4 }),
          fc.oneof(fc.constant(''), fc.string({ maxLength: 30 }).map((q) => `?${encodeURIComponent(q).replace(/%3D/g, '=').replace(/%26/g, '&')}`), fc.constantFrom('?limit=0', '?limit=999999999999999999999', '?cursor=x', '?limit=5&limit=6', '?filter=all', '?cursor=')),
          fc.boolean(),
          fc.option(bodyText, { nil: undefined }),
          async (method, segments, query, withKey, body) => {
            const headers: Record<string, string> = { 'idempotency-key': 'fuzz-path' };
            if (withKey) headers.authorization = `Bearer ${key}`;
            if (body !== undefined) headers['content-type'] = 'application/json';
            const path = `/${segments.join('/').replace('{hook}', hook)}${query}`;
            const r: Req = { method, path, headers, body };
            expectWellFormed(await send(h.base, r), r);
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('answers any DELETE /webhooks/{id} without a 5xx', async () => {
      await fc.assert(
        fc.asyncProperty(fc.oneof(fc.constant(hook), fc.string({ minLength: 1, maxLength: 120 }).map(encodeURIComponent), fc.string({ minLength: 1, maxLength: 40, unit: 'binary' }).map(encodeURIComponent)), headerValue, async (id, idem) => {
          const r: Req = { method: 'DELETE', path: `/webhooks/${id}`, headers: { authorization: `Bearer ${key}`, 'idempotency-key': idem } };
          expectWellFormed(await send(h.base, r), r);
        }),
        { numRuns: RUNS },
      );
    });
  });
}
