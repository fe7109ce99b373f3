/**
 * 0028_ranking_position_buckets: where each store is in a ranking version moves from
 * ranking_positions (a row per store and version) to ranking_position_buckets (accounts/positions.ts:
 * POSITION_BUCKETS rows per version, each the text of its stores' positions), so a refit writes
 * a few thousand rows of positions instead of one per account. Each kept version's positions are
 * copied into its buckets, then ranking_positions is dropped. On PostgreSQL, `instr(text, text)`
 * (SQLite's, the position of the first match, 0 for none) is made over strpos so the lookup is
 * one SQL text on both, and the entries are stored uncompressed (they are read far more often
 * than they are written, and pglz would compress a refit's megabytes to little gain).
 */
import { type Kysely, type Migration, PostgresAdapter, sql } from 'kysely';
import { positionBuckets } from '../positions.js';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const pg = db.getExecutor().adapter instanceof PostgresAdapter;
    if (pg) await sql`create or replace function instr(text, text) returns integer language sql immutable strict parallel safe as 'select strpos($1, $2)'`.execute(db);
    await db.schema
      .createTable('ranking_position_buckets')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('bucket', 'integer', (c) => c.notNull())
      .addColumn('entries', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ranking_position_buckets_pk', ['workspace_id', 'version', 'bucket'])
      .execute();
    if (pg) await sql`alter table ranking_position_buckets alter column entries set storage external`.execute(db);
    const versions = await db.selectFrom('ranking_versions').select(['workspace_id', 'version']).orderBy('workspace_id').orderBy('version').execute();
    for (const v of versions) {
      const rows = await db
        .selectFrom('ranking_positions')
        .select(['store_id', 'pos'])
        .where('workspace_id', '=', v.workspace_id)
        .where('version', '=', v.version)
        .execute();
      const buckets = positionBuckets(
        rows.map((r) => r.store_id as string),
        Int32Array.from(rows, (r) => Number(r.pos)),
      );
      for (let i = 0; i < buckets.length; i += 100) {
        await db
          .insertInto('ranking_position_buckets')
          .values(buckets.slice(i, i + 100).map((b) => ({ workspace_id: v.workspace_id, version: v.version, bucket: b.bucket, entries: b.entries })))
          .execute();
      }
    }
    await db.schema.dropTable('ranking_positions').execute();
  },
};
