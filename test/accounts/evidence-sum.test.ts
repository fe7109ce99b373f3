import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';

interface Row {
  store_id: string;
  logit: number;
  score: number;
  evidence: { contribution: number }[];
}

/** The contributions as a client adds them up: in the order listed, from the intercept. */
const added = (r: Row) => r.evidence.reduce((s, e) => s + e.contribution, 0);

const APPS = ['klaviyo', 'recharge', 'judgeme', 'gorgias', 'omnisend'];
const ADS = ['meta', 'google', 'tiktok', 'pinterest'] as const;

// An account's evidence explains its logit exactly (docs/rest-api.md): a client adding up the
// contributions as listed gets the row's logit to the last digit, on the list and the detail.
for (const d of dialects) {
  describe.skipIf(d.skip)(`evidence that adds up to the logit on ${d.label}`, () => {
    let h: Harness;
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: { read: 1000, write: 1000, report: 5 } });
      const stores: SeedStore[] = [];
      const signals: SeedSignal[] = [];
      for (let i = 0; i < 150; i++) {
        const id = `ev${String(i).padStart(3, '0')}`;
        stores.push({
          store_id: id,
          country: ['US', 'GB', 'DE'][i % 3],
          category: ['toys', 'beauty', 'home'][i % 5 % 3],
          plan: ['grow', 'plus', 'basic'][i % 7 % 3],
          monthly_visits: 300 + 137 * i,
          product_count: 10 + 7 * i,
          est_monthly_revenue_usd: 1000 + 311 * i,
          apps: APPS.filter((_, k) => (i + k) % 3 === 0),
          ads: ADS.filter((_, k) => (i + k) % 4 === 1),
        });
        signals.push({ store_id: id, type: i % 4 ? 'app_installed' : 'traffic_up', subject: i % 4 ? APPS[i % 5] : null, strength: 0.3 + (i % 7) / 10, detail: 'A change' });
      }
      await seedRun(h.db, '2026-10', 'run-ev-2026-10', stores, signals);
    });
    afterAll(async () => h?.close());

    it('lists rows and details whose contributions, added up as listed, are exactly their logit, before and after outcomes refit the model', async () => {
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes']);
      const check = async () => {
        const r = await call(h.base, 'GET', '/accounts?filter=all&limit=200', { key });
        expect(r.status).toBe(200);
        const rows = r.body.data as Row[];
        expect(rows).toHaveLength(150);
        expect(rows.filter((row) => added(row) !== row.logit).map((row) => row.store_id)).toEqual([]);
        for (const row of rows) expect(row.score).toBeCloseTo(1 / (1 + Math.exp(-row.logit)), 12);
        for (const row of rows.slice(0, 20)) {
          const one = await call(h.base, 'GET', `/accounts/${row.store_id}`, { key });
          expect(added(one.body)).toBe(one.body.logit);
          expect(one.body.logit).toBe(row.logit);
        }
      };
      await refreshWorkspace(h.db, ws.id, h.clock.now());
      await check();
      for (let i = 0; i < 30; i++) {
        const body = i % 3 ? { store_id: `ev${String(i * 5).padStart(3, '0')}`, action: 'lost', lost_reason: 'timing' } : { store_id: `ev${String(i * 5).padStart(3, '0')}`, action: 'won' };
        expect((await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body })).status).toBe(200);
      }
      expect(await refreshWorkspace(h.db, ws.id, h.clock.now())).toMatchObject({ refreshed: true });
      await check();
    });
  });
}
