import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { listOutcomes } from '../../src/accounts/outcomes-store.js';
import { findWebhookEndpoint, insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const ALL = ['read:accounts', 'write:outcomes', 'manage:webhooks'] as const;

for (const d of dialects) {
  describe.skipIf(d.skip)(`workspace isolation on ${d.label}`, () => {
    let h: Harness;
    let a: { id: string; key: string };
    let b: { id: string; key: string };
    beforeAll(async () => {
      h = await startApi(d.name);
      const wa = await workspace(h.db);
      const wb = await workspace(h.db);
      a = { id: wa.id, key: await apiKey(h.db, wa.id, ALL) };
      b = { id: wb.id, key: await apiKey(h.db, wb.id, ALL) };
      await importAccounts(h.db, wa.id, Array.from({ length: 5 }, (_, i) => ({ store_id: `a-${i}`, score: i })), new Date());
      await importAccounts(h.db, wb.id, Array.from({ length: 5 }, (_, i) => ({ store_id: `b-${i}`, score: i })), new Date());
    });
    afterAll(async () => h?.close());

    it("lists only the key's own accounts", async () => {
      const ra = await call(h.base, 'GET', '/accounts', { key: a.key });
      const rb = await call(h.base, 'GET', '/accounts', { key: b.key });
      expect(ra.body.data.map((x: any) => x.store_id).every((s: string) => s.startsWith('a-'))).toBe(true);
      expect(rb.body.data.map((x: any) => x.store_id).every((s: string) => s.startsWith('b-'))).toBe(true);
    });

    it("answers 404, never 403, for another workspace's webhook, and leaves it alone", async () => {
      const ep = await insertWebhookEndpoint(h.db.kysely, b.id, { url: 'https://b.example/h' }, new Date());
      const r = await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key: a.key, idem: freshIdem() });
      expect(r.status).toBe(404);
      expect(r.body.type).toBe('https://storelens.dev/problems/not-found');
      expect(await findWebhookEndpoint(h.db.kysely, b.id, ep.id)).toMatchObject({ id: ep.id, url: 'https://b.example/h', deleted_at: null });
      expect((await call(h.base, 'DELETE', `/webhooks/${ep.id}`, { key: b.key, idem: freshIdem() })).status).toBe(200);
    });

    it('records outcomes in the caller workspace only', async () => {
      await call(h.base, 'POST', '/outcomes', { key: a.key, idem: freshIdem(), body: { store_id: 'b-1', action: 'won' } });
      expect((await listOutcomes(h.db.kysely, a.id)).map((o) => o.store_id)).toEqual(['b-1']);
      expect(await listOutcomes(h.db.kysely, b.id)).toEqual([]);
    });

    it('keeps Idempotency-Keys apart between workspaces', async () => {
      const idem = freshIdem();
      const ra = await call(h.base, 'POST', '/outcomes', { key: a.key, idem, body: { store_id: 'x', action: 'won' } });
      const rb = await call(h.base, 'POST', '/outcomes', { key: b.key, idem, body: { store_id: 'y', action: 'lost', lost_reason: 'timing' } });
      expect([ra.status, rb.status]).toEqual([200, 200]);
      expect(rb.headers.get('idempotent-replayed')).toBeNull();
      expect(rb.body.store_id).toBe('y');
    });

    it("rejects another workspace's cursor with 400", async () => {
      const page = await call(h.base, 'GET', '/accounts?limit=2', { key: a.key });
      const r = await call(h.base, 'GET', `/accounts?limit=2&cursor=${encodeURIComponent(page.body.next_cursor)}`, { key: b.key });
      expect(r.status).toBe(400);
      expect(r.body.type).toBe('https://storelens.dev/problems/invalid-cursor');
    });
  });
}
