/**
 * 0005_deals: the workspace's pipeline. Creates deals, deal_notes and deal_history (one row per
 * stage move and per changed field) and adds outcomes.deal_id, so a stage move recorded as an
 * outcome names its deal.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // The workspace's pipeline. `version` moves on every change (the If-Match of updates and
    // stage moves); deal_history keeps one row per stage move and per changed field.
    await db.schema
      .createTable('deals')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('title', 'text', (c) => c.notNull())
      .addColumn('value', 'double precision')
      .addColumn('currency', 'text')
      .addColumn('stage', 'text', (c) => c.notNull())
      .addColumn('owner_email', 'text')
      .addColumn('expected_close_date', 'text')
      .addColumn('lost_reason', 'text')
      .addColumn('lost_reason_other', 'text')
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deals_by_workspace').on('deals').columns(['workspace_id', 'id']).execute();
    await db.schema.createIndex('deals_by_store').on('deals').columns(['workspace_id', 'store_id']).execute();
    await db.schema
      .createTable('deal_notes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('deal_id', 'text', (c) => c.notNull().references('deals.id'))
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('deal_notes_by_deal').on('deal_notes').columns(['deal_id', 'id']).execute();
    await db.schema
      .createTable('deal_history')
      .addColumn('deal_id', 'text', (c) => c.notNull().references('deals.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('field', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('from_value', 'text', (c) => c.notNull())
      .addColumn('to_value', 'text', (c) => c.notNull())
      .addColumn('lost_reason', 'text')
      .addColumn('lost_reason_other', 'text')
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('deal_history_pk', ['deal_id', 'version', 'field'])
      .execute();
    // A stage move recorded as an outcome names its deal.
    await db.schema.alterTable('outcomes').addColumn('deal_id', 'text').execute();
  },
};
