import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { openDatabase, type Db } from '../../src/compose/database.js';
import { ingestedMonths, visibleStoreMonths, visibleStoreSignals } from '../../src/ingest/stores.js';
import { IngestStopped, ingestRuns } from '../../src/ingest/ingest.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { manyStores, writeRuns, type FixtureMonth } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';

const NOW = new Date('2026-11-02T09:30:00.000Z');
const opts = { now: () => NOW };

const JAN: FixtureMonth = {
  stores: [
    { store_id: 'a', domain: 'a.example', country: 'US', category: 'apparel', plan: 'plus', created_month: '2025-03', product_count: 120, monthly_visits: 12_000, est_monthly_revenue_usd: 5000.25, apps: ['klaviyo', 'yotpo'], ads: ['meta'], agentic: ['llms_txt'] },
    { store_id: 'b', country: 'GB' },
  ],
  signals: [{ store_id: 'a', type: 'ad_channel_started', subject: 'meta', strength: 0.6, detail: 'Started advertising on Meta' }],
};
const FEB: FixtureMonth = {
  stores: [
    { store_id: 'a', country: 'US', plan: 'plus', monthly_visits: 17_040, apps: ['klaviyo'], ads: ['meta', 'tiktok'] },
    { store_id: 'c', country: 'DE', created_month: '2026-02' },
  ],
  signals: [
    { store_id: 'a', type: 'ad_channel_started', subject: 'tiktok', strength: 0.7, detail: 'Started advertising on TikTok' },
    { store_id: 'a', type: 'app_removed', subject: 'yotpo', strength: 0.4, detail: 'Removed yotpo' },
    { store_id: 'a', type: 'traffic_up', strength: 0.42, detail: 'Monthly visits up 42% (12,000 → 17,040)' },
    { store_id: 'b', type: 'store_closed', strength: 1, detail: 'Store closed' },
    { store_id: 'c', type: 'store_opened', strength: 1, detail: 'Store opened' },
  ],
};

async function counts(db: Db) {
  const all = async (table: 'store_months' | 'store_signals') => Number((await db.kysely.selectFrom(table).select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  return { store_months: await all('store_months'), store_signals: await all('store_signals') };
}

async function visibleByMonth(db: Db): Promise<Record<string, number>> {
  const rows = await visibleStoreMonths(db.kysely).select(['sm.month', (e) => e.fn.countAll().as('n')]).groupBy('sm.month').orderBy('sm.month').execute();
  return Object.fromEntries(rows.map((r) => [r.month, Number(r.n)]));
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`ingest (${d.label})`, () => {
    let t: TestDb;
    const dirs = tempDirs('storelens-runs-');
    beforeAll(async () => {
      t = await freshDb(d.name);
    });
    afterAll(async () => {
      await t?.cleanup();
      await dirs.removeAll();
    });
    afterEach(async () => {
      for (const table of ['store_months', 'store_signals', 'ingested_months', 'settings', 'leases'] as const) await t.db.kysely.deleteFrom(table).execute();
    });

    it('loads every month of the runs folder with its features and signals', async () => {
      const runs = await dirs.make();
      const ids = await writeRuns(runs, { '2026-01': JAN, '2026-02': FEB });
      const s = await ingestRuns(t.db, runs, opts);
      expect(s).toEqual({ months: ['2026-01', '2026-02'], stores: 4, signals: 6 });
      expect(await ingestedMonths(t.db.kysely)).toEqual([
        { month: '2026-01', run_id: ids['2026-01'], stores: 2, signals: 1, loaded_at: NOW.toISOString() },
        { month: '2026-02', run_id: ids['2026-02'], stores: 2, signals: 5, loaded_at: NOW.toISOString() },
      ]);
      const a = await visibleStoreMonths(t.db.kysely).selectAll('sm').where('sm.store_id', '=', 'a').orderBy('sm.month').execute();
      expect(a[0]).toMatchObject({ month: '2026-01', domain: 'a.example', country: 'US', category: 'apparel', plan: 'plus', created_month: '2025-03', est_monthly_revenue_usd: 5000.25 });
      expect(Number(a[0]!.product_count)).toBe(120);
      expect(Number(a[0]!.monthly_visits)).toBe(12_000);
      expect(JSON.parse(a[0]!.apps)).toEqual(['klaviyo', 'yotpo']);
      expect(JSON.parse(a[0]!.ads)).toEqual(['meta']);
      expect(JSON.parse(a[0]!.agentic)).toEqual(['llms_txt']);
      expect(JSON.parse(a[1]!.ads)).toEqual(['meta', 'tiktok']);
      const b = await visibleStoreMonths(t.db.kysely).selectAll('sm').where('sm.store_id', '=', 'b').executeTakeFirstOrThrow();
      expect(b).toMatchObject({ domain: null, product_count: null, est_monthly_revenue_usd: null, apps: '[]', ads: '[]', agentic: '[]' });
      const sig = await visibleStoreSignals(t.db.kysely).selectAll('ss').where('ss.store_id', '=', 'a').where('ss.type', '=', 'traffic_up').executeTakeFirstOrThrow();
      expect(sig).toMatchObject({ month: '2026-02', subject: null, strength: 0.42, detail: 'Monthly visits up 42% (12,000 → 17,040)' });
      expect(sig.id).toMatch(/^sig_[0-9a-f]{32}$/);
    });

    it('changes nothing when the same runs are ingested again', async () => {
      const runs = await dirs.make();
      await writeRuns(runs, { '2026-01': JAN, '2026-02': FEB });
      await ingestRuns(t.db, runs, opts);
      const before = await ingestedMonths(t.db.kysely);
      const later = new Date(NOW.getTime() + 3600_000);
      expect(await ingestRuns(t.db, runs, { now: () => later })).toEqual({ months: [], stores: 0, signals: 0 });
      expect(await ingestedMonths(t.db.kysely)).toEqual(before);
      expect(await counts(t.db)).toEqual({ store_months: 4, store_signals: 6 });
    });

    it('replaces a corrected month: its old rows are gone and the counts are the new ones', async () => {
      const runs = await dirs.make();
      const first = await writeRuns(runs, { '2026-01': JAN, '2026-02': FEB });
      await ingestRuns(t.db, runs, opts);
      const corrected: FixtureMonth = { stores: [...JAN.stores, { store_id: 'z', country: 'FR' }], signals: [] };
      const second = await writeRuns(runs, { '2026-01': corrected, '2026-02': FEB });
      expect(second['2026-01']).not.toBe(first['2026-01']);
      expect(await ingestRuns(t.db, runs, opts)).toEqual({ months: ['2026-01'], stores: 3, signals: 0 });
      const months = await ingestedMonths(t.db.kysely);
      expect(months.map((m) => [m.month, m.run_id, m.stores, m.signals])).toEqual([
        ['2026-01', second['2026-01'], 3, 0],
        ['2026-02', first['2026-02'], 2, 5],
      ]);
      expect(await counts(t.db)).toEqual({ store_months: 5, store_signals: 5 });
      const left = await t.db.kysely.selectFrom('store_months').select('run_id').where('run_id', '=', first['2026-01']!).execute();
      expect(left).toEqual([]);
      expect(await visibleByMonth(t.db)).toEqual({ '2026-01': 3, '2026-02': 2 });
    });

    it('removes the rows a crashed ingest left behind before loading again', async () => {
      const runs = await dirs.make();
      const ids = await writeRuns(runs, { '2026-01': JAN });
      // A crash mid-load: part of the run's rows written, the month never flipped; and rows of a run no index names.
      const stale = 'f'.repeat(64);
      await t.db.write((trx) =>
        trx
          .insertInto('store_months')
          .values([
            { run_id: ids['2026-01']!, month: '2026-01', store_id: 'a', apps: '[]', ads: '[]', agentic: '[]' },
            { run_id: stale, month: '2026-01', store_id: 'ghost', apps: '[]', ads: '[]', agentic: '[]' },
          ])
          .execute(),
      );
      await t.db.write((trx) =>
        trx.insertInto('store_signals').values({ run_id: stale, id: 'sig_x', month: '2026-01', store_id: 'ghost', type: 'store_opened', subject: null, strength: 1, detail: 'x' }).execute(),
      );
      expect(await visibleByMonth(t.db)).toEqual({});
      expect(await ingestRuns(t.db, runs, opts)).toEqual({ months: ['2026-01'], stores: 2, signals: 1 });
      expect(await counts(t.db)).toEqual({ store_months: 2, store_signals: 1 });
      const ghosts = await t.db.kysely.selectFrom('store_months').select('store_id').where('run_id', '=', stale).execute();
      expect(ghosts).toEqual([]);
    });

    it('loads each month once when two ingests run at once (the second waits for the lease)', async () => {
      const runs = await dirs.make();
      await writeRuns(runs, { '2026-01': { stores: manyStores(3000) }, '2026-02': FEB });
      const other = t.dbPath ? await openDatabase({ dbPath: t.dbPath }) : await openDatabase({ databaseUrl: t.databaseUrl! });
      try {
        const both = await Promise.all([ingestRuns(t.db, runs, { ...opts, chunkRows: 500 }), ingestRuns(other, runs, { ...opts, chunkRows: 500 })]);
        expect(both.map((s) => s.months).sort()).toEqual([[], ['2026-01', '2026-02']]);
      } finally {
        await other.close();
      }
      expect(await counts(t.db)).toEqual({ store_months: 3002, store_signals: 5 });
      expect(await t.db.kysely.selectFrom('leases').selectAll().where('name', '=', 'ingest').execute()).toEqual([]);
    });

    it('stops between chunks when its process is stopping: nothing flipped, the lease given back, the next ingest loads it all', async () => {
      const runs = await dirs.make();
      await writeRuns(runs, { '2026-01': { stores: manyStores(3000) } });
      let asked = 0;
      await expect(ingestRuns(t.db, runs, { ...opts, chunkRows: 500, stopping: () => ++asked > 1 })).rejects.toBeInstanceOf(IngestStopped);
      expect(await ingestedMonths(t.db.kysely)).toEqual([]);
      expect(await t.db.kysely.selectFrom('leases').selectAll().execute()).toEqual([]);
      expect(await ingestRuns(t.db, runs, opts)).toMatchObject({ months: ['2026-01'], stores: 3000 });
      expect((await counts(t.db)).store_months).toBe(3000);
    });

    it('takes over the lease of an ingest that died, once it has expired', async () => {
      const runs = await dirs.make();
      await writeRuns(runs, { '2026-01': JAN });
      await t.db.write((trx) => trx.insertInto('leases').values({ name: 'ingest', owner: 'dead-1', until_ms: NOW.getTime() + 1000 }).execute());
      await expect(ingestRuns(t.db, runs, { ...opts, leaseWaitMs: 300 })).rejects.toThrow(/another ingest \(dead-1\) is loading/);
      expect(await ingestRuns(t.db, runs, { now: () => new Date(NOW.getTime() + 2000) })).toMatchObject({ months: ['2026-01'] });
    });

    it('refuses a run whose folder is missing, naming the file, and flips nothing for that month', async () => {
      const runs = await dirs.make();
      const first = await writeRuns(runs, { '2026-01': JAN });
      await ingestRuns(t.db, runs, opts);
      const ids = await writeRuns(runs, { '2026-01': { stores: [{ store_id: 'q' }] }, '2026-02': FEB });
      await rm(path.join(runs, '2026-02', ids['2026-02']!), { recursive: true });
      await expect(ingestRuns(t.db, runs, opts)).rejects.toThrow(`${path.join(runs, '2026-02', ids['2026-02']!, 'run.json')}: missing`);
      expect((await ingestedMonths(t.db.kysely)).map((m) => [m.month, m.run_id])).toEqual([['2026-01', first['2026-01']]]);
      expect(await counts(t.db)).toEqual({ store_months: 2, store_signals: 1 });
    });

    it('refuses a changed stores file, a corrupt Parquet file and a row that breaks the contract, naming file, row and field', async () => {
      const runs = await dirs.make();
      const ids = await writeRuns(runs, { '2026-01': JAN });
      const stores = path.join(runs, '2026-01', ids['2026-01']!, 'stores.ndjson');
      await writeFile(stores, '{"store_id": "a"}\n');
      await expect(ingestRuns(t.db, runs, opts)).rejects.toThrow(`${stores}: its content does not match run.json`);
      await writeRuns(runs, { '2026-01': JAN });
      const signalsOf = path.join(runs, '2026-01', ids['2026-01']!, 'signals.parquet');
      await writeFile(signalsOf, 'not parquet');
      // Written by publish (run.json here keeps no sha256 of it, as runs written before it did): the way out is said.
      const unreadable = String(await ingestRuns(t.db, runs, opts).catch((e: unknown) => e));
      expect(unreadable).toContain(`${signalsOf}: not a readable Parquet file (`);
      expect(unreadable).toMatch(/; remove its folder \(.*\) and publish again, which writes the folder anew$/);
      // The stores are checked by the panel's input contract, as publish checked them.
      const negative = await writeRuns(runs, { '2026-01': { stores: [{ store_id: 'a' }, { store_id: 'b', product_count: -3 }] } });
      const negativeFile = path.join(runs, '2026-01', negative['2026-01']!, 'stores.ndjson');
      await expect(ingestRuns(t.db, runs, opts)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining(`${negativeFile}: row 2, column product_count: expected an integer of 0 or more`) });
      const bad = await writeRuns(runs, { '2026-01': { stores: [{ store_id: 'a' }], signals: [{ store_id: 'a', type: 'traffic_up', strength: 1.5 }] } });
      const signals = path.join(runs, '2026-01', bad['2026-01']!, 'signals.parquet');
      await expect(ingestRuns(t.db, runs, opts)).rejects.toThrow(`${signals}: row 1: field "strength" is not in (0, 1]; remove its folder (${path.dirname(signals)})`);
      // U+0000 in a text value: PostgreSQL would refuse it mid-load; the check names it first.
      // (A store id keeps every character; text dimensions are typed as publish types them.)
      const nul = await writeRuns(runs, { '2026-01': { stores: [{ store_id: 'a' }, { store_id: 'b\u0000c' }] } });
      const withNul = path.join(runs, '2026-01', nul['2026-01']!, 'stores.ndjson');
      await expect(ingestRuns(t.db, runs, opts)).rejects.toThrow(`${withNul}: row 2, column store_id: contains the character U+0000`);
      const nulApp = await writeRuns(runs, { '2026-01': { stores: [{ store_id: 'a', apps: ['kla\u0000viyo'] }] } });
      const withNulApp = path.join(runs, '2026-01', nulApp['2026-01']!, 'stores.ndjson');
      await expect(ingestRuns(t.db, runs, opts)).rejects.toThrow(`${withNulApp}: row 1, column apps: contains the character U+0000`);
      expect(await ingestedMonths(t.db.kysely)).toEqual([]);
      expect(await counts(t.db)).toEqual({ store_months: 0, store_signals: 0 });
    });

    it('refuses a missing runs folder and a malformed index.json with a clear message', async () => {
      const runs = await dirs.make();
      await expect(ingestRuns(t.db, path.join(runs, 'nope'), opts)).rejects.toMatchObject({ exitCode: 2, message: expect.stringContaining('no runs folder') });
      await writeFile(path.join(runs, 'index.json'), JSON.stringify({ runs_version: 1, months: { '../../etc': 'a'.repeat(64) } }));
      await expect(ingestRuns(t.db, runs, opts)).rejects.toThrow(`${path.join(runs, 'index.json')}: months: "../../etc" is not a month (YYYY-MM)`);
    });

    it('keeps hostile strings as data, byte for byte', async () => {
      const runs = await dirs.make();
      const nasty = `'); DROP TABLE store_months; --`;
      const stores = [
        { store_id: '=HYPERLINK("x")', domain: nasty, country: 'US', category: 'a,b\n"c"\\d', plan: '<script>alert(1)</script>', apps: ['it\'s', 'q"uote', 'back\\slash', 'ünïcødé 🛍', ''], ads: [] },
        { store_id: `-1'; select 1; --`, category: '{"json":true}', apps: ['{a,b}', 'NULL'] },
      ];
      await writeRuns(runs, { '2026-01': { stores, signals: [{ store_id: '=HYPERLINK("x")', type: 'app_installed', subject: "it's", detail: 'Installed it\'s <b>"x"</b>' }] } });
      await ingestRuns(t.db, runs, opts);
      const rows = await visibleStoreMonths(t.db.kysely).selectAll('sm').orderBy('sm.store_id').execute();
      const got = rows.map((r) => ({ store_id: r.store_id, domain: r.domain, country: r.country, category: r.category, plan: r.plan, apps: JSON.parse(r.apps) as string[] }));
      const want = stores
        // The stores are read as a panel file: an app list is sorted, an empty app id dropped.
        .map((s) => ({ store_id: s.store_id, domain: s.domain ?? null, country: s.country ?? null, category: s.category, plan: s.plan ?? null, apps: s.apps.filter((a) => a !== '').sort() }))
        .sort((x, y) => (x.store_id < y.store_id ? -1 : 1));
      expect(got).toEqual(want);
      const sig = await visibleStoreSignals(t.db.kysely).selectAll('ss').executeTakeFirstOrThrow();
      expect(sig).toMatchObject({ store_id: '=HYPERLINK("x")', subject: "it's", detail: 'Installed it\'s <b>"x"</b>' });
      expect(await counts(t.db)).toEqual({ store_months: 2, store_signals: 1 });
    });

    it('never shows a reader part of a month while a big month loads or is corrected', async () => {
      const runs = await dirs.make();
      const N = 5_000;
      const big: FixtureMonth = { stores: manyStores(N), signals: manyStores(N).filter((_, i) => i % 4 === 0).map((s) => ({ store_id: s.store_id, type: 'traffic_up' as const, strength: 0.3 })) };
      const corrected: FixtureMonth = { stores: manyStores(N, 1), signals: big.signals };
      const reader = t.dbPath ? await openDatabase({ dbPath: t.dbPath }) : await openDatabase({ databaseUrl: t.databaseUrl! });
      const seen = new Set<string>();
      let stop = false;
      const poll = (async () => {
        while (!stop) {
          const r = await sql<{ n: number | string; runs: number | string; signals: number | string }>`
            select (select count(*) from store_months sm join ingested_months im on im.month = sm.month and im.run_id = sm.run_id where sm.month = '2026-03') as n,
                   (select count(distinct sm.run_id) from store_months sm join ingested_months im on im.month = sm.month and im.run_id = sm.run_id where sm.month = '2026-03') as runs,
                   (select count(*) from store_signals ss join ingested_months im on im.month = ss.month and im.run_id = ss.run_id where ss.month = '2026-03') as signals`.execute(reader.kysely);
          const row = r.rows[0]!;
          seen.add(`${Number(row.n)}/${Number(row.runs)}/${Number(row.signals)}`);
          await new Promise((res) => setTimeout(res, 2));
        }
      })();
      try {
        await writeRuns(runs, { '2026-03': big });
        await ingestRuns(t.db, runs, { ...opts, chunkRows: 250 });
        await writeRuns(runs, { '2026-03': corrected });
        await ingestRuns(t.db, runs, { ...opts, chunkRows: 250 });
      } finally {
        stop = true;
        await poll;
        await reader.close();
      }
      expect([...seen].every((s) => s === '0/0/0' || s === `${N}/1/${N / 4}`)).toBe(true);
      expect(seen.has(`${N}/1/${N / 4}`)).toBe(true);
      const plans = await visibleStoreMonths(t.db.kysely).select('sm.plan').where('sm.store_id', '=', 's000001').execute();
      expect(plans).toEqual([{ plan: manyStores(1, 1)[0]!.plan }]);
      expect(await counts(t.db)).toEqual({ store_months: N, store_signals: N / 4 });
    }, 120_000);
  });
}
