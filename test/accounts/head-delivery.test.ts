import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';

// `delivered_to_agent` proves delivery to an agent, and a delivery is recorded for the monthly
// statement: a HEAD, which answers a read's status and headers without its body, delivers nothing.
for (const d of dialects) {
  describe.skipIf(d.skip)(`HEAD of the account reads on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: { read: 1000, write: 1000, report: 5 } });
    });
    afterAll(async () => h?.close());

    async function seeded() {
      const ws = await workspace(h.db);
      await importAccounts(h.db, ws.id, Array.from({ length: 12 }, (_, i) => ({ store_id: `hd-${String(i).padStart(2, '0')}`, score: 0.9 - i / 100 })), h.clock.now());
      return { ws, key: await apiKey(h.db, ws.id, ['read:accounts']) };
    }
    const delivered = async (wsId: string) =>
      (await h.db.kysely.selectFrom('accounts').select('store_id').where('workspace_id', '=', wsId).where('delivered_to_agent', '=', 1).orderBy('store_id').execute()).map((r) => r.store_id);
    const deliveries = async (wsId: string) =>
      (await h.db.kysely.selectFrom('supervision_entries').select('quantity').where('workspace_id', '=', wsId).where('kind', '=', 'accounts_delivered').execute()).reduce((n, r) => n + Number(r.quantity), 0);

    it('marks no row delivered and records no delivery for a HEAD of the list or of an account', async () => {
      const { ws, key } = await seeded();
      const list = await call(h.base, 'HEAD', '/accounts?limit=5', { key });
      expect(list.status).toBe(200);
      expect(list.body).toBe('');
      const one = await call(h.base, 'HEAD', '/accounts/hd-07', { key });
      expect(one.status).toBe(200);
      expect(await delivered(ws.id)).toEqual([]);
      expect(await deliveries(ws.id)).toBe(0);
    });

    it('delivers the rows of a GET made after a HEAD of the same page', async () => {
      const { ws, key } = await seeded();
      expect((await call(h.base, 'HEAD', '/accounts?limit=3', { key })).status).toBe(200);
      const page = await call(h.base, 'GET', '/accounts?limit=3', { key });
      expect(page.body.data.map((r: { store_id: string }) => r.store_id)).toEqual(['hd-00', 'hd-01', 'hd-02']);
      expect(page.body.data.every((r: { delivered_to_agent: boolean }) => r.delivered_to_agent)).toBe(true);
      expect(await delivered(ws.id)).toEqual(['hd-00', 'hd-01', 'hd-02']);
      expect(await deliveries(ws.id)).toBe(3);
      // The detail likewise.
      expect((await call(h.base, 'HEAD', '/accounts/hd-09', { key })).status).toBe(200);
      expect((await call(h.base, 'GET', '/accounts/hd-09', { key })).body.delivered_to_agent).toBe(true);
      expect(await delivered(ws.id)).toEqual(['hd-00', 'hd-01', 'hd-02', 'hd-09']);
      expect(await deliveries(ws.id)).toBe(4);
    });
  });
}
