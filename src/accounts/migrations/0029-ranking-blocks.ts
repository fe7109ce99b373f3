/**
 * 0029_ranking_blocks: a ranking version's rows move from rankings (a row per account) to
 * ranking_blocks (accounts/blocks.ts: a row per BLOCK_ROWS positions, each column packed), so a
 * refit of a million accounts writes about four thousand rows instead of a million, and deleting a
 * version deletes as few. ranking_versions gains `in_market`, the version's in-market count (read
 * once, where it was counted over the rows). Each kept version's rows are copied into its blocks,
 * then rankings is dropped. On PostgreSQL the functions that read a packed column in SQL are made
 * (db/binary.ts; SQLite registers them on each connection), and the blocks are stored
 * uncompressed (random floats do not compress; their ids little).
 */
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { BLOCK_ROWS, encodeBlock } from '../blocks.js';
import { PG_BINARY_FUNCTIONS } from '../../db/binary.js';

const COLUMNS = ['store_ids', 'scores', 'logits', 'logit_sds', 'model_versions', 'flags'] as const;

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    if (pg) for (const f of PG_BINARY_FUNCTIONS) await sql.raw(f).execute(db);
    const blob = pg ? sql`bytea` : sql`blob`;
    await db.schema
      .createTable('ranking_blocks')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('block', 'integer', (c) => c.notNull())
      .addColumn('store_ids', 'text', (c) => c.notNull())
      .addColumn('scores', blob, (c) => c.notNull())
      .addColumn('logits', blob, (c) => c.notNull())
      .addColumn('logit_sds', blob, (c) => c.notNull())
      .addColumn('model_versions', blob, (c) => c.notNull())
      .addColumn('flags', blob, (c) => c.notNull())
      .addPrimaryKeyConstraint('ranking_blocks_pk', ['workspace_id', 'version', 'block'])
      .execute();
    if (pg) for (const c of COLUMNS) await sql`alter table ranking_blocks alter column ${sql.ref(c)} set storage external`.execute(db);
    await db.schema.alterTable('ranking_versions').addColumn('in_market', 'integer', (c) => c.notNull().defaultTo(0)).execute();

    const versions = await db.selectFrom('ranking_versions').select(['workspace_id', 'version']).orderBy('workspace_id').orderBy('version').execute();
    for (const v of versions) {
      let inMarket = 0;
      // A block's worth of rows at a time, in position order (a version's positions run 1, 2, … without gaps).
      for (let block = 0, after = 0; ; block++) {
        const rows = await db
          .selectFrom('rankings')
          .select(['pos', 'store_id', 'score', 'logit', 'logit_sd', 'in_market', 'explore', 'model_version'])
          .where('workspace_id', '=', v.workspace_id)
          .where('version', '=', v.version)
          .where('pos', '>', after)
          .orderBy('pos')
          .limit(BLOCK_ROWS)
          .execute();
        if (rows.length === 0) break;
        after = Number(rows[rows.length - 1].pos);
        for (const r of rows) if (Number(r.in_market) === 1) inMarket++;
        const columns = encodeBlock({
          storeIds: rows.map((r) => r.store_id as string),
          score: Float64Array.from(rows, (r) => Number(r.score)),
          logit: Float64Array.from(rows, (r) => Number(r.logit)),
          logitSd: Float64Array.from(rows, (r) => (r.logit_sd === null ? Number.NaN : Number(r.logit_sd))),
          modelVersion: Int32Array.from(rows, (r) => Number(r.model_version)),
          flags: Uint8Array.from(rows, (r) => (Number(r.in_market) === 1 ? 1 : 0) | (Number(r.explore) === 1 ? 2 : 0)),
        });
        await db.insertInto('ranking_blocks').values({ workspace_id: v.workspace_id, version: v.version, block, ...columns }).execute();
        if (rows.length < BLOCK_ROWS) break;
      }
      await db.updateTable('ranking_versions').set({ in_market: inMarket }).where('workspace_id', '=', v.workspace_id).where('version', '=', v.version).execute();
    }
    await db.schema.dropTable('rankings').execute();
  },
};
