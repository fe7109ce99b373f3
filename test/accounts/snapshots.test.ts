import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadSnapshots } from '../../src/accounts/snapshots.js';
import type { Db } from '../../src/compose/database.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { seedRun, type SeedStore } from '../helpers/accounts.js';

// More stores than one read of the panel takes (20,000), so the reads' parts meet.
const MANY = 20_050;
const id = (i: number) => `s${String(i).padStart(6, '0')}`;

for (const d of dialects) {
  describe.skipIf(d.skip)(`the panel's snapshots on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
      const stores: SeedStore[] = Array.from({ length: MANY }, (_, i) => ({ store_id: id(i), country: 'US', category: 'beauty', plan: 'grow', monthly_visits: 100 }));
      // s000001 left the panel after September; s000002 is in both months and grew; a run not yet visible is not read.
      await seedRun(db, '2026-09', 'run-09', stores, [{ store_id: id(1), type: 'app_installed', subject: 'klaviyo', strength: 1, detail: 'Installed Klaviyo' }]);
      const october = stores.filter((s) => s.store_id !== id(1)).map((s) => (s.store_id === id(2) ? { ...s, monthly_visits: 5000, apps: ['klaviyo'] } : s));
      await seedRun(db, '2026-10', 'run-10', october, [{ store_id: id(2), type: 'app_installed', subject: 'klaviyo', strength: 1, detail: 'Installed Klaviyo' }]);
      await seedRun(db, '2026-11', 'run-11', [{ store_id: id(3), country: 'DE' }], [], false);
    });
    afterAll(async () => t?.cleanup());

    it('gives every store once, in store_id order, with its latest visible month and its recent signals', async () => {
      const snaps = await loadSnapshots(db.kysely, '2026-10');
      expect(snaps).toHaveLength(MANY);
      expect(snaps.every((s, k) => s.store_id === id(k))).toBe(true);
      expect(snaps[1]).toMatchObject({ store_id: id(1), month: '2026-09', monthly_visits: 100 });
      expect(snaps[1].signals.map((g) => g.detail)).toEqual(['Installed Klaviyo']);
      expect(snaps[2]).toMatchObject({ store_id: id(2), month: '2026-10', monthly_visits: 5000, apps: ['klaviyo'] });
      expect(snaps[2].signals.map((g) => g.month)).toEqual(['2026-10']);
      expect(snaps[3]).toMatchObject({ month: '2026-10', country: 'US' });
      expect(snaps[MANY - 1]).toMatchObject({ store_id: id(MANY - 1), month: '2026-10', signals: [] });
    });
  });
}
