/**
 * PostgreSQL plans a ranking's reads from its tables' statistics: a ranking of 1,000 rows or more
 * has them read once it is current (db/prepared.ts analyze), so the next reads are not planned
 * for a handful of rows (a one-account import into 9,001 accounts took 23 s that way). So does a
 * smaller one while the statistics describe fewer than ten times its rows (a new installation's
 * first workspaces); else it is left to autovacuum.
 */
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { BLOCK_ROWS } from '../../src/accounts/blocks.js';
import { bucketOf } from '../../src/accounts/positions.js';
import { inWrites, startRanking, writeRanking } from '../../src/accounts/rankings.js';
import { importAccounts } from '../../src/accounts/store.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

const pg = dialects.find((d) => d.name === 'PostgreSQL')!;
const TABLES = ['accounts', 'ranking_blocks', 'ranking_details', 'ranking_position_buckets'];

describe.skipIf(pg.skip)(`the statistics of a ranking on ${pg.label}`, () => {
  let t: TestDb | undefined;
  afterEach(async () => {
    await t?.cleanup();
    t = undefined;
  });

  /** Rows PostgreSQL's statistics count in each ranking table of the test's schema (-1: never analysed). */
  const counted = async (db: TestDb['db']) => {
    const rows = await sql<{ relname: string; reltuples: number }>`select relname, reltuples::float8 as reltuples from pg_class
      where relnamespace = current_schema()::regnamespace and relkind = 'r' and relname in (${sql.join(TABLES)}) order by relname`.execute(db.kysely);
    return Object.fromEntries(rows.rows.map((r) => [r.relname, Number(r.reltuples)]));
  };
  /** A fresh schema whose ranking tables autovacuum leaves alone, so that what the statistics hold is what the import did. */
  const fresh = async () => {
    t = await freshDb('PostgreSQL');
    for (const table of TABLES) await sql`alter table ${sql.id(table)} set (autovacuum_enabled = false)`.execute(t.db.kysely);
    return t.db;
  };
  const accounts = (n: number) => Array.from({ length: n }, (_, i) => ({ store_id: `store-${String(i).padStart(5, '0')}`, score: (i % 97) / 100 }));

  /** What the statistics count once `n` accounts of one workspace were analysed. */
  const analysed = (n: number) => {
    // A row per account, a row per bucket of positions the accounts fill (accounts/positions.ts), a row per block of positions (accounts/blocks.ts).
    const buckets = new Set(accounts(n).map((a) => bucketOf(a.store_id))).size;
    const rows: Record<string, number> = { ranking_position_buckets: buckets, ranking_blocks: Math.ceil(n / BLOCK_ROWS) };
    return Object.fromEntries(TABLES.map((name) => [name, rows[name] ?? n]));
  };

  it('are read once a ranking of 1,000 accounts is current', async () => {
    const db = await fresh();
    await importAccounts(db, (await workspace(db)).id, accounts(1_000), new Date());
    expect(await counted(db)).toEqual(analysed(1_000));
  });

  it('are read after a smaller ranking while they describe fewer than ten times its rows', async () => {
    const db = await fresh();
    await importAccounts(db, (await workspace(db)).id, accounts(500), new Date());
    expect(await counted(db)).toEqual(analysed(500));
  });

  it('are read again after a re-rank only for the tables it wrote: its blocks and buckets, not the details or accounts it left as they were', async () => {
    const db = await fresh();
    const ws = (await workspace(db)).id;
    await importAccounts(db, ws, accounts(1_000), new Date());
    // Rows the statistics have not seen yet in the tables a re-rank does not write.
    await sql`insert into ranking_details (workspace_id, gen, store_id, evidence, signals) select ${ws}, 999, 'extra-' || i, '[]', '[]' from generate_series(1, 500) i`.execute(db.kysely);
    const run = inWrites(db);
    const v = await startRanking(run, ws, false, new Date());
    const rows = accounts(1_000).map((a) => ({ store_id: a.store_id, score: 1 - a.score, logit: 0, logit_sd: null, in_market: false, explore: false, model_version: 1 }));
    expect(await writeRanking(run, ws, v, { rows, now: new Date() })).toBe(true);
    const blocks = Number((await sql<{ n: number }>`select count(*) as n from ranking_blocks`.execute(db.kysely)).rows[0].n);
    expect(blocks).toBeGreaterThan(analysed(1_000).ranking_blocks);
    expect(await counted(db)).toEqual({ ...analysed(1_000), ranking_blocks: blocks, ranking_position_buckets: Number((await sql<{ n: number }>`select count(*) as n from ranking_position_buckets`.execute(db.kysely)).rows[0].n) });
  });

  it('are left to autovacuum after a smaller ranking of under a tenth of the rows they describe', async () => {
    const db = await fresh();
    await importAccounts(db, (await workspace(db)).id, accounts(1_000), new Date());
    await importAccounts(db, (await workspace(db, 'small')).id, accounts(99), new Date());
    expect(await counted(db)).toEqual(analysed(1_000));
  });
});
