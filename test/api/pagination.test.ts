import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { dialects } from '../helpers/db.js';
import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';

const LIFTED = { read: 100_000, write: 100_000, report: 100_000 };

for (const d of dialects) {
  describe.skipIf(d.skip)(`pagination of GET /accounts on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: LIFTED });
    });
    afterAll(async () => h?.close());

    async function seeded(n: number) {
      const ws = await workspace(h.db);
      // Ties on score on purpose: order falls back to store_id.
      const rows = Array.from({ length: n }, (_, i) => ({ store_id: `store-${String(i).padStart(4, '0')}`, score: Math.floor(i / 3) / 10, in_market: i % 7 !== 0 }));
      await importAccounts(h.db, ws.id, rows, new Date());
      return { ws, rows, key: await apiKey(h.db, ws.id, ['read:accounts']) };
    }

    async function walk(key: string, limit: number, filter = '', between?: (page: number) => Promise<void>) {
      const seen: any[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const q: string = `/accounts?limit=${limit}${filter}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`;
        const r = await call(h.base, 'GET', q, { key });
        expect(r.status, JSON.stringify(r.body)).toBe(200);
        expect(r.body.data.length).toBeLessThanOrEqual(limit);
        seen.push(...r.body.data);
        cursor = r.body.next_cursor;
        pages++;
        if (between) await between(pages);
      } while (cursor);
      return { seen, pages };
    }

    it('defaults to 50 in-market rows in ranking order', async () => {
      const { key, rows } = await seeded(120);
      const r = await call(h.base, 'GET', '/accounts', { key });
      expect(r.body.data).toHaveLength(50);
      const expected = rows
        .filter((x) => x.in_market)
        .sort((a, b) => b.score - a.score || (a.store_id < b.store_id ? -1 : 1))
        .slice(0, 50)
        .map((x) => x.store_id);
      expect(r.body.data.map((x: any) => x.store_id)).toEqual(expected);
      expect(r.body.data.every((x: any) => x.selected_for_first_party_surface && x.delivered_to_agent)).toBe(true);
    });

    it('walks the whole list exactly once while rows are inserted', async () => {
      const { ws, key, rows } = await seeded(95);
      let added = 0;
      const { seen } = await walk(key, 7, '&filter=all', async () => {
        const extra = Array.from({ length: 3 }, () => ({ store_id: `new-${++added}`, score: (added % 11) / 10 }));
        await importAccounts(h.db, ws.id, extra, new Date());
      });
      const ids = seen.map((x) => x.store_id);
      expect(new Set(ids).size).toBe(ids.length);
      for (const r of rows) expect(ids).toContain(r.store_id);
    });

    it('returns next_cursor null on the last page, also when the list ends exactly at a page boundary', async () => {
      const { key } = await seeded(10);
      const { seen, pages } = await walk(key, 5, '&filter=all');
      expect(seen).toHaveLength(10);
      expect(pages).toBe(2);
    });

    it('marks delivered rows and leaves the rest undelivered; in_market decides selection', async () => {
      const { key } = await seeded(30);
      await call(h.base, 'GET', '/accounts?limit=5&filter=all', { key });
      const all = await walk(key, 200, '&filter=all');
      expect(all.seen.every((x) => x.delivered_to_agent)).toBe(true);
      expect(all.seen.filter((x) => !x.selected_for_first_party_surface).every((x) => !x.in_market)).toBe(true);
      expect(all.seen.some((x) => !x.selected_for_first_party_surface)).toBe(true);
    });

    it('answers 400 for a tampered cursor', async () => {
      const { key } = await seeded(20);
      const first = await call(h.base, 'GET', '/accounts?limit=5', { key });
      const cursor: string = first.body.next_cursor;
      const [payload, sig] = cursor.split('.');
      const state = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      state.s = 99;
      const forged = `${Buffer.from(JSON.stringify(state)).toString('base64url')}.${sig}`;
      for (const bad of [forged, `${cursor}x`, 'garbage', cursor.replace('.', '')]) {
        const r = await call(h.base, 'GET', `/accounts?limit=5&cursor=${encodeURIComponent(bad)}`, { key });
        expect(r.status).toBe(400);
        expect(r.body.type).toBe('https://storelens.dev/problems/invalid-cursor');
      }
    });

    it('answers 400 for a cursor used with other filters', async () => {
      const { key } = await seeded(20);
      const first = await call(h.base, 'GET', '/accounts?limit=5', { key });
      const c = encodeURIComponent(first.body.next_cursor);
      expect((await call(h.base, 'GET', `/accounts?limit=5&filter=all&cursor=${c}`, { key })).status).toBe(400);
      expect((await call(h.base, 'GET', `/accounts?limit=9&cursor=${c}`, { key })).status).toBe(200);
    });

    it('keeps walking the ranking it started on while accounts are re-scored', async () => {
      const { ws, key } = await seeded(60);
      const before = (await walk(key, 200, '&filter=all')).seen.map((x) => x.store_id);
      let round = 0;
      const { seen } = await walk(key, 8, '&filter=all', async () => {
        round++;
        // Re-score a few existing accounts (and move one out of the market) after every page.
        const changes = [0, 1, 2].map((k) => ({ store_id: `store-${String((round * 7 + k * 13) % 60).padStart(4, '0')}`, score: ((round * 31 + k) % 17) / 3, in_market: k !== 2 }));
        await importAccounts(h.db, ws.id, changes, new Date());
      });
      expect(round).toBeGreaterThan(3);
      expect(seen.map((x) => x.store_id)).toEqual(before);
      const fresh = await call(h.base, 'GET', '/accounts?limit=200&filter=all', { key });
      expect(fresh.body.data.map((x: any) => x.store_id)).not.toEqual(before);
    });

    it('keeps the in-market list of the ranking it started on', async () => {
      const { ws, key } = await seeded(40);
      const before = (await walk(key, 200)).seen.map((x) => x.store_id);
      const first = await call(h.base, 'GET', '/accounts?limit=10', { key });
      await importAccounts(h.db, ws.id, before.slice(10, 20).map((store_id) => ({ store_id, score: 0.05, in_market: false })), new Date());
      let cursor: string | null = first.body.next_cursor;
      const rest: string[] = [];
      while (cursor) {
        const r = await call(h.base, 'GET', `/accounts?limit=10&cursor=${encodeURIComponent(cursor)}`, { key });
        rest.push(...r.body.data.map((x: any) => x.store_id));
        cursor = r.body.next_cursor;
      }
      expect([...first.body.data.map((x: any) => x.store_id), ...rest]).toEqual(before);
    });

    it('answers 400 once the ranking a cursor walks has been gone for over an hour', async () => {
      const { ws, key } = await seeded(20);
      const first = await call(h.base, 'GET', '/accounts?limit=5', { key });
      const c = encodeURIComponent(first.body.next_cursor);
      const t0 = Date.now();
      await importAccounts(h.db, ws.id, [{ store_id: 'store-0001', score: 42 }], new Date(t0));
      expect((await call(h.base, 'GET', `/accounts?limit=5&cursor=${c}`, { key })).status).toBe(200);
      await importAccounts(h.db, ws.id, [{ store_id: 'store-0002', score: 43 }], new Date(t0 + 59 * 60_000));
      expect((await call(h.base, 'GET', `/accounts?limit=5&cursor=${c}`, { key })).status).toBe(200);
      await importAccounts(h.db, ws.id, [{ store_id: 'store-0003', score: 44 }], new Date(t0 + 61 * 60_000));
      const r = await call(h.base, 'GET', `/accounts?limit=5&cursor=${c}`, { key });
      expect(r.status).toBe(400);
      expect(r.body.type).toBe('https://storelens.dev/problems/invalid-cursor');
      expect(r.body.detail).toMatch(/expired/);
    });

    it('accepts the documented bounds of limit', async () => {
      const { key } = await seeded(3);
      expect((await call(h.base, 'GET', '/accounts?limit=1', { key })).status).toBe(200);
      expect((await call(h.base, 'GET', '/accounts?limit=200', { key })).status).toBe(200);
    });
  });
}
