/**
 * 0007_watches: creates watches, watch_stores, watch_events and watch_receipts: one row per
 * managed, self-directed or client watch, its stores, what changed in them and the proof of
 * each check.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // Managed, self-directed and client watches (src/watches/): one row per watch, its stores,
    // what changed in them (events), the proof of each check (receipts). `generation` is what
    // the last check saw (ingested runs, stores, capacity, month), so a check is idempotent.
    await db.schema
      .createTable('watches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('client_name', 'text')
      .addColumn('capacity', 'integer')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('health', 'text', (c) => c.notNull())
      .addColumn('health_reason', 'text', (c) => c.notNull())
      .addColumn('generation', 'text')
      .addColumn('checked_month', 'text')
      .addColumn('checked_at', 'text')
      .addColumn('managed_key', 'text', (c) => c.unique())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('watches_by_workspace').on('watches').columns(['workspace_id', 'seq']).execute();
    await db.schema
      .createTable('watch_stores')
      .addColumn('watch_id', 'text', (c) => c.notNull().references('watches.id'))
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('added_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('watch_stores_pk', ['watch_id', 'store_id'])
      .execute();
    await db.schema
      .createTable('watch_events')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('watch_id', 'text', (c) => c.notNull().references('watches.id'))
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('store_id', 'text')
      .addColumn('domain', 'text')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('watch_events_by_watch').on('watch_events').columns(['watch_id', 'month', 'id']).execute();
    await db.schema
      .createTable('watch_receipts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('watch_id', 'text', (c) => c.notNull().references('watches.id'))
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('store_ids', 'text', (c) => c.notNull())
      .addColumn('health', 'text', (c) => c.notNull())
      .addColumn('health_reason', 'text', (c) => c.notNull())
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('watch_receipts_by_watch').on('watch_receipts').columns(['watch_id', 'seq']).execute();
  },
};
