/**
 * 0027_ranking_details_rowid: on SQLite, ranking_details becomes an ordinary (rowid) table with
 * its primary key as an index. A details row (domain, evidence, signals) is most of a kilobyte;
 * in a WITHOUT ROWID table a row that size fills its B-tree pages half at best, and a row over
 * about 1,000 bytes spills into an overflow page of its own, so a million accounts' details
 * wrote three times their size. A rowid table written in key order packs its pages full.
 * PostgreSQL tables have no such layout: nothing changes there.
 */
import { type Kysely, type Migration, SqliteAdapter, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (!(db.getExecutor().adapter instanceof SqliteAdapter)) return;
    await db.schema
      .createTable('ranking_details_rowid')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('gen', 'integer', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text')
      .addColumn('country', 'text')
      .addColumn('category', 'text')
      .addColumn('plan', 'text')
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('signals', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('ranking_details_pk', ['workspace_id', 'gen', 'store_id'])
      .execute();
    await sql`insert into ranking_details_rowid (workspace_id, gen, store_id, domain, country, category, plan, evidence, signals)
      select workspace_id, gen, store_id, domain, country, category, plan, evidence, signals from ranking_details
      order by workspace_id, gen, store_id`.execute(db);
    await db.schema.dropTable('ranking_details').execute();
    await db.schema.alterTable('ranking_details_rowid').renameTo('ranking_details').execute();
  },
};
