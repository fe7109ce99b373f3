import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { currentRows, detailsFilter, pageRanking, type PageQuery } from '../../src/accounts/ranking-reads.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';

type PlanNode = Record<string, unknown> & { Plans?: PlanNode[] };

// list_accounts' signal_type filter reads the signals of that type only: on PostgreSQL by the index
// of the signals by type (migration 0039), not by reading every signal loaded for each batch of a page.
for (const d of dialects) {
  describe.skipIf(d.skip)(`the signal_type filter on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
      const stores: SeedStore[] = Array.from({ length: 40 }, (_, i) => ({ store_id: `sf${String(i).padStart(2, '0')}`, country: 'US', category: 'toys', plan: 'grow', monthly_visits: 1000 + i }));
      const signal = (i: number): SeedSignal => ({ store_id: `sf${String(i).padStart(2, '0')}`, type: i % 5 === 0 ? 'plan_upgraded' : 'app_installed', subject: i % 5 === 0 ? 'plus' : 'klaviyo', strength: 1, detail: 'A change' });
      await seedRun(db, '2026-09', 'run-sf-2026-09', stores, stores.map((_, i) => signal(i)).filter((s) => s.type === 'app_installed'));
      await seedRun(db, '2026-10', 'run-sf-2026-10', stores, stores.map((_, i) => signal(i)).filter((s) => s.type === 'plan_upgraded'));
    });
    afterAll(async () => t?.cleanup());

    it('keeps the accounts with a signal of the type (since the month given), and only those', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, new Date('2026-11-01T00:00:00Z'));
      const rows = await currentRows(db.kysely, ws.id);
      const version = (await db.kysely.selectFrom('workspaces').select('ranking_version').where('id', '=', ws.id).executeTakeFirstOrThrow()).ranking_version;
      const page = (p: Partial<PageQuery>) => pageRanking(db.kysely, ws.id, version, { inMarketOnly: false, limit: 100, ...p });
      const upgraded = rows.filter((r) => Number(r.store_id.slice(2)) % 5 === 0).map((r) => r.store_id);
      expect((await page({ signalType: 'plan_upgraded' })).map((r) => r.store_id)).toEqual(upgraded);
      expect((await page({ signalType: 'app_installed', signalsSince: '2026-10' })).map((r) => r.store_id)).toEqual([]);
      expect(await page({ signalType: 'app_installed', signalsSince: '2026-09' })).toHaveLength(32);
    });

    it.skipIf(d.name !== 'PostgreSQL')('reads the signals of the type through their index on PostgreSQL', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, new Date('2026-11-01T00:00:00Z'));
      const filters = detailsFilter({ inMarketOnly: false, limit: 50, signalType: 'plan_upgraded', signalsSince: '2026-09' });
      const plan = await db.kysely.transaction().execute(async (trx) => {
        // A few rows are read whole whatever the indexes: the planner is told to prefer an index where one serves.
        await sql`set local enable_seqscan = off`.execute(trx);
        const r = await sql<{ 'QUERY PLAN': { Plan: PlanNode }[] }>`explain (format json) select d.store_id from ranking_details d
          join accounts a on a.workspace_id = d.workspace_id and a.store_id = d.store_id
          where d.workspace_id = ${ws.id} ${filters.sql}`.execute(trx);
        return r.rows[0]!['QUERY PLAN'][0]!.Plan;
      });
      const nodes: PlanNode[] = [];
      const walk = (n: PlanNode) => (nodes.push(n), (n.Plans ?? []).forEach(walk));
      walk(plan);
      const signals = nodes.filter((n) => n['Relation Name'] === 'store_signals' || String(n['Index Name'] ?? '').startsWith('store_signals'));
      expect(signals.map((n) => n['Index Name'])).toContain('store_signals_by_type');
      expect(JSON.stringify(signals)).toMatch(/type = 'plan_upgraded'/);
    });
  });
}
