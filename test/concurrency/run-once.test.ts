/**
 * Background work runs once per unit of work however many processes share the database: two
 * handles opened separately (as two processes would) race the same task, and the work is done
 * once — one re-rank of a workspace (its lease), one check of a watch (its conditional UPDATE).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshAll } from '../../src/accounts/refresh.js';
import { openDatabase, type Db } from '../../src/compose/database.js';
import { tryLease } from '../../src/db/leases.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import { addWatchStores, insertWatch } from '../../src/watches/store.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { evaluateWatches } from '../../src/watches/evaluate.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

const NOW = new Date('2026-11-02T09:30:00.000Z');

function panel(): { stores: SeedStore[]; signals: SeedSignal[] } {
  const stores: SeedStore[] = [];
  const signals: SeedSignal[] = [];
  for (let i = 0; i < 600; i++) {
    const id = `s${String(i).padStart(3, '0')}`;
    stores.push({ store_id: id, country: i % 3 === 0 ? 'US' : 'GB', category: i % 2 === 0 ? 'beauty' : 'toys', plan: 'grow', monthly_visits: 1000 + i, apps: ['klaviyo'] });
    signals.push({ store_id: id, type: i % 5 === 0 ? 'ad_channel_started' : 'app_installed', subject: 'x', strength: 1, detail: 'Did something' });
  }
  return { stores, signals };
}

const reopen = (t: TestDb): Promise<Db> => (t.dbPath ? openDatabase({ dbPath: t.dbPath }) : openDatabase({ databaseUrl: t.databaseUrl! }));

for (const d of dialects) {
  describe.skipIf(d.skip)(`background work runs once across processes (${d.label})`, () => {
    let t: TestDb;
    let other: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      other = await reopen(t);
      const { stores, signals } = panel();
      await seedRun(t.db, '2026-09', 'run-09', stores, []);
      await seedRun(t.db, '2026-10', 'run-10', stores, signals);
    });
    afterAll(async () => {
      await other?.close();
      await t?.cleanup();
    });

    it('re-ranks a workspace once when two processes refresh it at once: one model version, one ranking, one set of events', async () => {
      const ws = await createWorkspace(t.db.kysely, `race-${d.name}`, NOW);
      const [a, b] = await Promise.all([refreshAll(t.db, NOW), refreshAll(other, NOW)]);
      const results = [a.get(ws.id), b.get(ws.id)].filter((r) => r !== undefined);
      // One took the lease and refitted; the other found it held (left out) or found nothing moved.
      expect(results.filter((r) => r.refreshed)).toHaveLength(1);
      const won = results.find((r) => r.refreshed)!;
      expect(won).toMatchObject({ model_version: 1, accounts: 600 });
      const model = await t.db.kysely.selectFrom('workspace_models').selectAll().where('workspace_id', '=', ws.id).execute();
      expect(model.map((m) => m.version)).toEqual([1]);
      // One version number was ever handed out (the sequence starts at 1): the other process never started writing rows.
      const seq = await t.db.kysely.selectFrom('workspaces').select('ranking_seq').where('id', '=', ws.id).executeTakeFirstOrThrow();
      expect(Number(seq.ranking_seq)).toBe(2);
      const versions = await t.db.kysely.selectFrom('ranking_versions').select(['version', 'state']).where('workspace_id', '=', ws.id).execute();
      expect(versions).toEqual([{ version: expect.anything(), state: 'current' }]);
      const entered = (await listEvents(t.db.kysely, ws.id)).filter((e) => e.type === 'store.entered');
      expect(entered).toHaveLength(won.in_market);
      expect(new Set(entered.map((e) => e.data.store_id)).size).toBe(won.in_market);
      // The lease is given back: the next turn may take it.
      expect(await t.db.kysely.selectFrom('leases').selectAll().where('name', '=', `refresh:${ws.id}`).execute()).toEqual([]);
    });

    it('leaves out a workspace whose re-rank another process holds', async () => {
      const ws = await createWorkspace(t.db.kysely, `held-${d.name}`, NOW);
      const lease = await tryLease(other, `refresh:${ws.id}`, { nowMs: Date.now, ms: 60_000 });
      expect(lease).not.toBeNull();
      try {
        expect((await refreshAll(t.db, NOW)).has(ws.id)).toBe(false);
      } finally {
        await lease!.release();
      }
      expect((await refreshAll(t.db, NOW)).get(ws.id)).toMatchObject({ refreshed: true });
    });

    it('checks a watch once when two processes check it at once: one receipt, one health_changed event', async () => {
      const ws = await createWorkspace(t.db.kysely, `watch-${d.name}`, NOW);
      const watch = await t.db.write(async (trx) => {
        const row = await insertWatch(trx, { workspace_id: ws.id, type: 'self_directed', client_name: null, capacity: null, health: 'healthy', health_reason: 'Not checked yet' }, NOW);
        await addWatchStores(trx, row.id, ['s001', 'gone'], NOW);
        return row;
      });
      const [a, b] = await Promise.all([evaluateWatches(t.db, NOW), evaluateWatches(other, NOW)]);
      expect(a.changed + b.changed).toBe(1);
      const receipts = await t.db.kysely.selectFrom('watch_receipts').select('id').where('watch_id', '=', watch.id).execute();
      expect(receipts).toHaveLength(1);
      const changed = (await listEvents(t.db.kysely, ws.id)).filter((e) => e.type === 'watch.health_changed');
      expect(changed).toHaveLength(1);
    });
  });
}
