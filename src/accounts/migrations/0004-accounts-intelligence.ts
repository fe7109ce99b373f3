/**
 * 0004_accounts_intelligence: the tables that rank a workspace's accounts from the panel.
 * Creates the ingested panel (ingested_months, store_months, store_signals), each workspace's
 * target profile, operator statuses, fitted model and model weights, and account_details; widens
 * accounts (logit, explore, model_version, status) and moves accounts.evidence into account_details.
 *
 * The name does not say it: this migration also creates the outbox, the event log every later
 * event and webhook reads (widened by 0008, numbered by 0017). account_details is dropped again
 * by 0009_ranking_versions.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // The panel's stores, loaded by ingest from publish's private runs folder. Rows carry the
    // run they came from; a month's rows become visible when ingested_months points at their
    // run (one small transaction), so readers never see a half-loaded month.
    await db.schema
      .createTable('ingested_months')
      .addColumn('month', 'text', (c) => c.primaryKey())
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('stores', 'integer', (c) => c.notNull())
      .addColumn('signals', 'integer', (c) => c.notNull())
      .addColumn('loaded_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('store_months')
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('domain', 'text')
      .addColumn('country', 'text')
      .addColumn('category', 'text')
      .addColumn('plan', 'text')
      .addColumn('created_month', 'text')
      .addColumn('product_count', 'bigint')
      .addColumn('monthly_visits', 'bigint')
      .addColumn('est_monthly_revenue_usd', 'double precision')
      .addColumn('apps', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('ads', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('agentic', 'text', (c) => c.notNull().defaultTo('[]'))
      .addPrimaryKeyConstraint('store_months_pk', ['run_id', 'store_id'])
      .execute();
    await db.schema.createIndex('store_months_by_store').on('store_months').columns(['store_id', 'month']).execute();
    await db.schema
      .createTable('store_signals')
      .addColumn('run_id', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('month', 'text', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      .addColumn('strength', 'double precision', (c) => c.notNull())
      .addColumn('detail', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('store_signals_pk', ['run_id', 'id'])
      .execute();
    await db.schema.createIndex('store_signals_by_store').on('store_signals').columns(['store_id', 'month']).execute();
    // Per workspace: the target profile, operator statuses, the fitted model, and the outbox.
    await db.schema
      .createTable('workspace_profiles')
      .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
      .addColumn('profile', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('account_statuses')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('account_statuses_by_store').on('account_statuses').columns(['workspace_id', 'store_id', 'created_at']).execute();
    await db.schema
      .createTable('workspace_models')
      .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('labels', 'integer', (c) => c.notNull())
      .addColumn('fitted_at', 'text', (c) => c.notNull())
      .execute();
    // Each model version's weights, kept while rows or cursors may still show that version.
    await db.schema
      .createTable('model_weights')
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('weights', 'text', (c) => c.notNull())
      .addColumn('created_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('model_weights_pk', ['workspace_id', 'version'])
      .execute();
    await db.schema
      .createTable('outbox')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('seq', 'bigint', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('data', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('outbox_by_workspace').on('outbox').columns(['workspace_id', 'seq']).execute();
    await db.schema.alterTable('accounts').addColumn('logit', 'double precision', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('accounts').addColumn('explore', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('accounts').addColumn('model_version', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    // The row's wide parts live beside it, so a re-scoring rewrites narrow rows only.
    await db.schema
      .createTable('account_details')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('evidence', 'text', (c) => c.notNull().defaultTo('[]'))
      .addColumn('signals', 'text', (c) => c.notNull().defaultTo('[]'))
      .addPrimaryKeyConstraint('account_details_pk', ['workspace_id', 'store_id'])
      .execute();
    await sql`insert into account_details (workspace_id, store_id, evidence) select workspace_id, store_id, evidence from accounts`.execute(db);
    await db.schema.alterTable('accounts').dropColumn('evidence').execute();
    await db.schema.alterTable('accounts').addColumn('status', 'text', (c) => c.notNull().defaultTo('open')).execute();
  },
};
