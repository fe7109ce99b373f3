/**
 * Two `storelens ingest` processes over one database and one runs folder, started together (as
 * two api processes ingest the run publish just wrote): each month is loaded once, by one of
 * them, and a month corrected after it was ingested is replaced whole, whichever process loads
 * it. Both exit 0; the database holds exactly one run per month (docs/signals.md).
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/published.js';
import { manyStores, writeRuns } from '../helpers/runs-fixture.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-ingest-race-');

for (const d of dialects) {
  describe.skipIf(d.skip)(`two ingest processes at once (${d.label})`, () => {
    let t: TestDb;
    let runs: string;
    beforeAll(async () => {
      t = await freshDb(d.name);
      runs = path.join(await dirs.make(), 'runs');
    });
    afterAll(async () => {
      await t?.cleanup();
      await dirs.removeAll();
    });

    /** Both processes at once; their summaries. */
    async function race(): Promise<{ months: string[]; stores: number }[]> {
      const args = ['ingest', '--runs', runs, '--json', ...(t.dbPath ? ['--db', t.dbPath] : [])];
      const done = await Promise.all([0, 1].map(() => spawnBin(args, { databaseUrl: t.databaseUrl ?? null }).done));
      for (const r of done) expect(r.code, r.stderr).toBe(0);
      return done.map((r) => JSON.parse(r.stdout) as { months: string[]; stores: number });
    }

    /** month → [rows, distinct run ids, the run id] as the database holds them. */
    async function held(): Promise<Record<string, [number, number, string]>> {
      const rows = await t.db.kysely
        .selectFrom('store_months')
        .select((e) => ['month', e.fn.countAll<string>().as('n'), e.fn.count<string>('run_id').distinct().as('runs'), e.fn.max('run_id').as('run_id')])
        .groupBy('month')
        .orderBy('month')
        .execute();
      return Object.fromEntries(rows.map((r) => [r.month, [Number(r.n), Number(r.runs), String(r.run_id)]]));
    }

    it('loads each month once, by one of them', async () => {
      const ids = await writeRuns(runs, { '2026-01': { stores: manyStores(2000) }, '2026-02': { stores: manyStores(2500, 1) } });
      const [a, b] = await race();
      expect([...a.months, ...b.months].sort()).toEqual(['2026-01', '2026-02']);
      expect(a.stores + b.stores).toBe(4500);
      expect(await held()).toEqual({ '2026-01': [2000, 1, ids['2026-01']], '2026-02': [2500, 1, ids['2026-02']] });
    });

    it('replaces a month corrected after it was ingested, whole, once', async () => {
      const ids = await writeRuns(runs, { '2026-01': { stores: manyStores(2000) }, '2026-02': { stores: manyStores(2400, 2) } });
      const [a, b] = await race();
      expect([...a.months, ...b.months]).toEqual(['2026-02']);
      expect(await held()).toEqual({ '2026-01': [2000, 1, ids['2026-01']], '2026-02': [2400, 1, ids['2026-02']] });
      const visible = await t.db.kysely.selectFrom('ingested_months').select(['month', 'run_id', 'stores']).orderBy('month').execute();
      expect(visible).toEqual([
        { month: '2026-01', run_id: ids['2026-01'], stores: 2000 },
        { month: '2026-02', run_id: ids['2026-02'], stores: 2400 },
      ]);
    });
  });
}
