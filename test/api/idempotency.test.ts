import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { fingerprint } from '../../src/api/idempotency.js';
import { canonicalJson } from '../../src/core/canonical-json.js';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const LIFTED = { read: 100_000, write: 100_000, report: 100_000 };

describe('fingerprint', () => {
  it('ignores key order and whitespace of the body but not its values', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (obj) => {
        const reversed = Object.fromEntries(Object.entries(obj).reverse());
        expect(canonicalJson(reversed)).toBe(canonicalJson(obj));
        expect(fingerprint('POST', '/outcomes', {}, reversed)).toBe(fingerprint('POST', '/outcomes', {}, obj));
      }),
    );
    expect(fingerprint('POST', '/outcomes', {}, { a: 1 })).not.toBe(fingerprint('POST', '/outcomes', {}, { a: 2 }));
    expect(fingerprint('DELETE', '/webhooks/{id}', { id: 'a' }, undefined)).not.toBe(fingerprint('DELETE', '/webhooks/{id}', { id: 'b' }, undefined));
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`idempotency on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: LIFTED, poolSize: 20 });
    });
    afterAll(async () => h?.close());

    async function fresh() {
      const ws = await workspace(h.db);
      return { ws, key: await apiKey(h.db, ws.id, ['write:outcomes', 'manage:webhooks']) };
    }

    it('replays the identical response for the same key and input', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      const body = { store_id: 's1', action: 'won', value: 10 };
      const first = await call(h.base, 'POST', '/outcomes', { key, idem, body });
      h.clock.advance(5_000);
      const second = await call(h.base, 'POST', '/outcomes', { key, idem, rawBody: JSON.stringify({ value: 10, action: 'won', store_id: 's1' }) });
      expect(first.status).toBe(200);
      expect(first.headers.get('idempotent-replayed')).toBeNull();
      expect(second.status).toBe(200);
      expect(second.body).toEqual(first.body);
      expect(second.headers.get('idempotent-replayed')).toBe('true');
      expect(await listOutcomes(h.db.kysely, ws.id)).toHaveLength(1);
    });

    it('answers 409 and records nothing when the same key comes with a changed body', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      await call(h.base, 'POST', '/outcomes', { key, idem, body: { store_id: 's1', action: 'won' } });
      const r = await call(h.base, 'POST', '/outcomes', { key, idem, body: { store_id: 's1', action: 'proposal' } });
      expect(r.status).toBe(409);
      expect(r.contentType).toMatch(/problem\+json/);
      expect(r.body.type).toBe('https://storelens.dev/problems/idempotency-key-reused');
      const rows = await listOutcomes(h.db.kysely, ws.id);
      expect(rows.map((o) => o.action)).toEqual(['won']);
    });

    it('answers 409 when a key is reused on another operation', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      await call(h.base, 'POST', '/outcomes', { key, idem, body: { store_id: 's1', action: 'won' } });
      const ep = await insertWebhookEndpoint(h.db.kysely, ws.id, { url: 'https://example.com/h' }, new Date());
      expect((await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key, idem })).status).toBe(409);
    });

    it('does not store requests that failed validation', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      expect((await call(h.base, 'POST', '/outcomes', { key, idem, body: { store_id: 's1', action: 'lost' } })).status).toBe(400);
      const ok = await call(h.base, 'POST', '/outcomes', { key, idem, body: { store_id: 's1', action: 'lost', lost_reason: 'budget' } });
      expect(ok.status).toBe(200);
      expect(await listOutcomes(h.db.kysely, ws.id)).toHaveLength(1);
    });

    it('makes exactly one row of 50 concurrent requests with one key', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      const body = { store_id: 'concurrent', action: 'negotiation' };
      const results = await Promise.all(Array.from({ length: 50 }, () => call(h.base, 'POST', '/outcomes', { key, idem, body })));
      const rows = await listOutcomes(h.db.kysely, ws.id);
      expect(rows).toHaveLength(1);
      for (const r of results) {
        expect([200, 409]).toContain(r.status);
        if (r.status === 200) expect(r.body.id).toBe(rows[0]!.id);
        else expect(r.body.type).toBe('https://storelens.dev/problems/idempotency-request-in-progress');
      }
      expect(results.filter((r) => r.status === 200 && r.headers.get('idempotent-replayed') === null)).toHaveLength(1);
    });

    it('makes exactly one row of 50 concurrent requests with one key and different bodies', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      const results = await Promise.all(
        Array.from({ length: 50 }, (_, i) => call(h.base, 'POST', '/outcomes', { key, idem, body: { store_id: `s${i}`, action: 'won' } })),
      );
      expect(await listOutcomes(h.db.kysely, ws.id)).toHaveLength(1);
      expect(results.filter((r) => r.status === 200)).toHaveLength(1);
      expect(results.filter((r) => r.status === 409)).toHaveLength(49);
    });

    it('remembers a key for 24 hours, then treats it as new', async () => {
      const { ws, key } = await fresh();
      const idem = freshIdem();
      const body = { store_id: 's1', action: 'won' };
      await call(h.base, 'POST', '/outcomes', { key, idem, body });
      h.clock.advance(24 * 3600_000 - 1000);
      expect((await call(h.base, 'POST', '/outcomes', { key, idem, body })).headers.get('idempotent-replayed')).toBe('true');
      h.clock.advance(2000);
      const later = await call(h.base, 'POST', '/outcomes', { key, idem, body });
      expect(later.status).toBe(200);
      expect(later.headers.get('idempotent-replayed')).toBeNull();
      expect(await listOutcomes(h.db.kysely, ws.id)).toHaveLength(2);
    });
  });
}
