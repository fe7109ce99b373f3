/**
 * The one set of migrations, run on start on SQLite and PostgreSQL alike. Append new
 * migrations; never edit one that has shipped.
 */
import { type Kysely, type Migration, type MigrationProvider, Migrator, SqliteAdapter, sql } from 'kysely';

const migrations: Record<string, Migration> = {
  '0001_api_platform': {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('workspaces')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('name', 'text', (c) => c.notNull().unique())
        .addColumn('pilot_access', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('activations', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('ranking_version', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('members')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('members_pk', ['workspace_id', 'email'])
        .execute();
      await db.schema
        .createTable('api_keys')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('prefix', 'text', (c) => c.notNull().unique())
        .addColumn('hash', 'text', (c) => c.notNull().unique())
        .addColumn('scopes', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('revoked_at', 'text')
        .addColumn('last_used_at', 'text')
        .execute();
      await db.schema
        .createTable('accounts')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('country', 'text')
        .addColumn('category', 'text')
        .addColumn('plan', 'text')
        .addColumn('score', 'double precision', (c) => c.notNull())
        .addColumn('in_market', 'integer', (c) => c.notNull().defaultTo(1))
        .addColumn('delivered_to_agent', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('delivered_at', 'text')
        .addColumn('evidence', 'text', (c) => c.notNull().defaultTo('[]'))
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('accounts_pk', ['workspace_id', 'store_id'])
        .execute();
      await db.schema
        .createIndex('accounts_ranking')
        .on('accounts')
        .columns(['workspace_id', 'in_market', 'score desc', 'store_id'])
        .execute();
      await db.schema
        .createIndex('accounts_ranking_all')
        .on('accounts')
        .columns(['workspace_id', 'score desc', 'store_id'])
        .execute();
      await db.schema
        .createTable('outcomes')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('value', 'double precision')
        .addColumn('occurred_at', 'text')
        .addColumn('note', 'text')
        .addColumn('lost_reason', 'text')
        .addColumn('lost_reason_other', 'text')
        .addColumn('recorded_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outcomes_by_store').on('outcomes').columns(['workspace_id', 'store_id']).execute();
      await db.schema
        .createTable('webhook_endpoints')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('event_types', 'text')
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('deleted_at', 'text')
        .execute();
      await db.schema
        .createTable('idempotency_keys')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('idem_key', 'text', (c) => c.notNull())
        .addColumn('fingerprint', 'text', (c) => c.notNull())
        .addColumn('status', 'integer')
        .addColumn('response', 'text')
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['workspace_id', 'idem_key'])
        .execute();
      await db.schema.createIndex('idempotency_keys_age').on('idempotency_keys').column('created_ms').execute();
      await db.schema
        .createTable('rate_counters')
        .addColumn('api_key_id', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('window_ms', 'bigint', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rate_counters_pk', ['api_key_id', 'kind', 'window_ms'])
        .execute();
      await db.schema
        .createTable('settings')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0002_ranking_history': {
    async up(db: Kysely<any>) {
      // Scores an account had before a re-ranking, so cursors of an older ranking version keep
      // walking that ranking for at least an hour (see rankings.ts).
      await db.schema
        .createTable('ranking_history')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('score', 'double precision', (c) => c.notNull())
        .addColumn('in_market', 'integer', (c) => c.notNull())
        .addColumn('superseded_ms', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('ranking_history_pk', ['workspace_id', 'store_id', 'version'])
        .execute();
      await db.schema.createIndex('ranking_history_version').on('ranking_history').columns(['workspace_id', 'version']).execute();
      await db.schema.createIndex('ranking_history_age').on('ranking_history').column('superseded_ms').execute();
    },
  },
  '0003_accounts_version': {
    async up(db: Kysely<any>) {
      // Bumped by every change to a workspace's accounts, so a served page can be reused
      // (by any process) until its accounts change: see db/accounts.ts.
      await db.schema
        .alterTable('workspaces')
        .addColumn('accounts_version', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
    },
  },
  '0004_accounts_intelligence': {
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
  },
  '0005_deals': {
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
  },
  '0009_ranking_versions': {
    async up(db: Kysely<any>) {
      // A ranking is written as a whole new version beside the current one (in short
      // transactions), then made current by one small transaction; readers and cursors read
      // one version. ranking_versions says which rows and details a version has.
      // Starts where ranking_version starts (1): the first version written is 2.
      await db.schema.alterTable('workspaces').addColumn('ranking_seq', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await sql`update workspaces set ranking_seq = ranking_version`.execute(db);
      await db.schema
        .createTable('ranking_versions')
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('gen', 'integer', (c) => c.notNull())
        .addColumn('state', 'text', (c) => c.notNull())
        .addColumn('rows', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addColumn('superseded_ms', 'bigint')
        .addPrimaryKeyConstraint('ranking_versions_pk', ['workspace_id', 'version'])
        .execute();
      let rankings = db.schema
        .createTable('rankings')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('pos', 'integer', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('score', 'double precision', (c) => c.notNull())
        .addColumn('logit', 'double precision', (c) => c.notNull())
        .addColumn('in_market', 'integer', (c) => c.notNull())
        .addColumn('explore', 'integer', (c) => c.notNull())
        .addColumn('model_version', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('rankings_pk', ['workspace_id', 'version', 'pos']);
      let positions = db.schema
        .createTable('ranking_positions')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('pos', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('ranking_positions_pk', ['workspace_id', 'version', 'store_id']);
      let details = db.schema
        .createTable('ranking_details')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('gen', 'integer', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('domain', 'text')
        .addColumn('country', 'text')
        .addColumn('category', 'text')
        .addColumn('plan', 'text')
        .addColumn('evidence', 'text', (c) => c.notNull())
        .addColumn('signals', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('ranking_details_pk', ['workspace_id', 'gen', 'store_id']);
      if (db.getExecutor().adapter instanceof SqliteAdapter) {
        // The rows live in the primary-key tree itself: one tree less to write per row.
        rankings = rankings.modifyEnd(sql`without rowid`);
        positions = positions.modifyEnd(sql`without rowid`);
        details = details.modifyEnd(sql`without rowid`);
      }
      await rankings.execute();
      await positions.execute();
      await details.execute();
      // The current ranking of every workspace becomes its first version.
      await sql`insert into ranking_versions (workspace_id, version, gen, state, rows, created_at, created_ms)
        select w.id, w.ranking_version, w.ranking_version, 'current', count(*), max(a.updated_at), 0
        from workspaces w join accounts a on a.workspace_id = w.id group by w.id, w.ranking_version`.execute(db);
      await sql`insert into rankings (workspace_id, version, pos, store_id, score, logit, in_market, explore, model_version)
        select a.workspace_id, w.ranking_version, row_number() over (partition by a.workspace_id order by a.score desc, a.store_id),
          a.store_id, a.score, a.logit, a.in_market, a.explore, a.model_version
        from accounts a join workspaces w on w.id = a.workspace_id`.execute(db);
      await sql`insert into ranking_positions (workspace_id, version, store_id, pos)
        select workspace_id, version, store_id, pos from rankings`.execute(db);
      await sql`insert into ranking_details (workspace_id, gen, store_id, domain, country, category, plan, evidence, signals)
        select a.workspace_id, w.ranking_version, a.store_id, a.domain, a.country, a.category, a.plan, coalesce(d.evidence, '[]'), coalesce(d.signals, '[]')
        from accounts a join workspaces w on w.id = a.workspace_id
        left join account_details d on d.workspace_id = a.workspace_id and d.store_id = a.store_id`.execute(db);
      await db.schema.dropTable('account_details').execute();
      await db.schema.dropTable('ranking_history').execute();
      // accounts keeps the operator's state of each account (status, delivery marks).
      await db.schema.dropIndex('accounts_ranking').execute();
      await db.schema.dropIndex('accounts_ranking_all').execute();
      for (const column of ['domain', 'country', 'category', 'plan', 'score', 'in_market', 'logit', 'explore', 'model_version']) {
        await db.schema.alterTable('accounts').dropColumn(column).execute();
      }
    },
  },
  '0006_contacts': {
    async up(db: Kysely<any>) {
      // A workspace's contacts: one per email in a workspace (emails normalised: see
      // contacts/email.ts), so the unique index is what makes a racing duplicate a 409.
      await db.schema
        .createTable('contacts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('role', 'text')
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('source_detail', 'text')
        .addColumn('created_by', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('contacts_email').unique().on('contacts').columns(['workspace_id', 'email']).execute();
      await db.schema.createIndex('contacts_by_store').on('contacts').columns(['workspace_id', 'store_id']).execute();
      await db.schema.createIndex('contacts_order').on('contacts').columns(['workspace_id', 'created_at', 'id']).execute();
      // The data team's contact source (contacts.{csv,parquet,ndjson} beside the panel), loaded
      // by ingest: shared by every workspace, replaced whole by each new source.
      await db.schema
        .createTable('store_contacts')
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('name', 'text')
        .addColumn('role', 'text')
        .addColumn('source', 'text')
        .addPrimaryKeyConstraint('store_contacts_pk', ['store_id', 'email'])
        .execute();
      // Which contact source store_contacts holds (one row, `id` = 'current').
      await db.schema
        .createTable('ingested_contacts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('rows', 'integer', (c) => c.notNull())
        .addColumn('loaded_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0007_watches': {
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
  },
  '0008_webhooks': {
    async up(db: Kysely<any>) {
      // Endpoints: `secret` now holds the signing secret encrypted (webhooks/secrets.ts; a plain
      // `whsec_` value left by an older version is encrypted at the worker's first start), the
      // previous secret signs too until previous_secret_until_ms (rotation overlap).
      await db.schema.alterTable('webhook_endpoints').addColumn('description', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('disabled_at', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('disabled_reason', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret', 'text').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('previous_secret_until_ms', 'bigint').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('last_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('failing_since_ms', 'bigint').execute();
      await db.schema.alterTable('webhook_endpoints').addColumn('updated_at', 'text').execute();
      await db.schema.createIndex('webhook_endpoints_by_workspace').on('webhook_endpoints').columns(['workspace_id', 'created_at', 'id']).execute();
      // Outbox rows not yet turned into deliveries (the fan-out marks them).
      await db.schema.alterTable('outbox').addColumn('dispatched', 'integer', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.createIndex('outbox_undispatched').on('outbox').columns(['dispatched', 'seq']).execute();
      await db.schema.createIndex('outbox_by_time').on('outbox').columns(['workspace_id', 'created_at']).execute();
      // One message per (endpoint, event): its id is the webhook-id of every attempt.
      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('endpoint_id', 'text', (c) => c.notNull())
        .addColumn('event_id', 'text', (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('payload', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('next_attempt_ms', 'bigint', (c) => c.notNull())
        .addColumn('claimed_until_ms', 'bigint')
        .addColumn('claimed_by', 'text')
        .addColumn('last_status_code', 'integer')
        .addColumn('last_error', 'text')
        .addColumn('created_ms', 'bigint', (c) => c.notNull())
        .addColumn('delivered_ms', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_deliveries_one').on('webhook_deliveries').columns(['endpoint_id', 'event_id']).unique().execute();
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_ms']).execute();
      await db.schema.createIndex('webhook_deliveries_log').on('webhook_deliveries').columns(['endpoint_id', 'created_ms', 'id']).execute();
      await db.schema
        .createTable('webhook_attempts')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('delivery_id', 'text', (c) => c.notNull())
        .addColumn('attempt', 'integer', (c) => c.notNull())
        .addColumn('started_ms', 'bigint', (c) => c.notNull())
        .addColumn('duration_ms', 'integer', (c) => c.notNull())
        .addColumn('status_code', 'integer')
        .addColumn('error', 'text')
        .addColumn('next_retry_ms', 'bigint')
        .execute();
      await db.schema.createIndex('webhook_attempts_by_delivery').on('webhook_attempts').columns(['delivery_id', 'attempt']).execute();
    },
  },
  '0010_wallet': {
    async up(db: Kysely<any>) {
      // The wallet (src/wallet/): one row per workspace holding the balance the ledger sums to
      // (kept in the same transaction as every entry, so a billable call can check and debit it
      // under one row lock), the standing rules, and the append-only ledger beside it.
      await db.schema
        .createTable('wallets')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('plan', 'text', (c) => c.notNull())
        .addColumn('auto_approve_below', 'bigint')
        .addColumn('monthly_cap', 'bigint')
        .addColumn('rules_updated_at', 'text')
        .addColumn('rules_updated_by', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('ledger_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('balance_after', 'bigint', (c) => c.notNull())
        .addColumn('unit', 'text')
        .addColumn('quantity', 'integer')
        .addColumn('unit_price', 'bigint')
        .addColumn('price_version', 'integer')
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('allowed_by', 'text')
        .addColumn('approval_id', 'text')
        .addColumn('refund_of', 'text')
        .addColumn('reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // One entry per cause: the same operation and idempotency key never debit (or credit) twice.
      await db.schema.createIndex('ledger_entries_cause').on('ledger_entries').columns(['workspace_id', 'operation_id', 'idempotency_key']).unique().execute();
      await db.schema.createIndex('ledger_entries_by_workspace').on('ledger_entries').columns(['workspace_id', 'seq']).execute();
      await db.schema
        .createTable('prices')
        .addColumn('version', 'integer', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('unit_price', 'bigint', (c) => c.notNull())
        .addColumn('description', 'text', (c) => c.notNull())
        .addColumn('effective_from', 'text', (c) => c.notNull())
        .addPrimaryKeyConstraint('prices_pk', ['version', 'unit'])
        .execute();
      const from = '2026-01-01T00:00:00.000Z';
      await db
        .insertInto('prices')
        .values([
          { version: 1, unit: 'growth_report', currency: 'USD', unit_price: 500, description: 'One growth report for one store', effective_from: from },
          { version: 1, unit: 'outreach_enrollment', currency: 'USD', unit_price: 100, description: 'Enrolling one store in an outreach cadence', effective_from: from },
          { version: 1, unit: 'outreach_step', currency: 'USD', unit_price: 25, description: 'One outreach step handed to the workspace sender', effective_from: from },
          { version: 1, unit: 'account_delivered_over_allowance', currency: 'USD', unit_price: 2, description: "One account delivered beyond the plan's monthly allowance (billed monthly)", effective_from: from },
        ])
        .execute();
      await db.schema
        .createTable('approvals')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('unit', 'text', (c) => c.notNull())
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('amount', 'bigint', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('price_version', 'integer', (c) => c.notNull())
        .addColumn('operation_id', 'text', (c) => c.notNull())
        .addColumn('idempotency_key', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('resource_kind', 'text')
        .addColumn('resource_id', 'text')
        .addColumn('entry_id', 'text')
        .addColumn('decided_by', 'text')
        .addColumn('decided_at', 'text')
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('approvals_by_workspace').on('approvals').columns(['workspace_id', 'seq']).execute();
      // What keys and agents did on a workspace's behalf (GET /supervision).
      await db.schema
        .createTable('supervision_entries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('subject', 'text')
        .addColumn('quantity', 'integer', (c) => c.notNull())
        .addColumn('detail', 'text', (c) => c.notNull())
        .addColumn('allowed_by', 'text', (c) => c.notNull())
        .addColumn('approval_id', 'text')
        .addColumn('ledger_entry_id', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('supervision_by_workspace').on('supervision_entries').columns(['workspace_id', 'seq']).execute();
      await db.schema
        .createTable('growth_reports')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('month', 'text')
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('requested_by', 'text', (c) => c.notNull())
        .addColumn('ledger_entry_id', 'text')
        .addColumn('approval_id', 'text')
        .addColumn('refund_entry_id', 'text')
        .addColumn('content', 'text')
        .addColumn('problem', 'text')
        .addColumn('claimed_until_ms', 'bigint')
        .addColumn('requested_at', 'text', (c) => c.notNull())
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .execute();
      await db.schema.createIndex('growth_reports_by_workspace').on('growth_reports').columns(['workspace_id', 'seq']).execute();
      await db.schema.createIndex('growth_reports_due').on('growth_reports').columns(['status', 'seq']).execute();
      await db.schema
        .createTable('outreach_cadences')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('steps', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outreach_cadences_by_workspace').on('outreach_cadences').columns(['workspace_id', 'seq']).execute();
      await db.schema
        .createTable('outreach_enrollments')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('seq', 'bigint', (c) => c.notNull())
        .addColumn('store_id', 'text', (c) => c.notNull())
        .addColumn('contact_id', 'text', (c) => c.notNull())
        .addColumn('cadence_id', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('api_key_id', 'text')
        .addColumn('next_step', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('start_ms', 'bigint')
        .addColumn('next_due_ms', 'bigint')
        .addColumn('ledger_entry_id', 'text')
        .addColumn('approval_id', 'text')
        .addColumn('stop_reason', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('stopped_at', 'text')
        .execute();
      await db.schema.createIndex('outreach_enrollments_by_workspace').on('outreach_enrollments').columns(['workspace_id', 'seq']).execute();
      await db.schema.createIndex('outreach_enrollments_due').on('outreach_enrollments').columns(['status', 'next_due_ms']).execute();
      await db.schema.createIndex('outreach_enrollments_by_store').on('outreach_enrollments').columns(['workspace_id', 'store_id']).execute();
      await db.schema
        .createTable('outreach_steps')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('enrollment_id', 'text', (c) => c.notNull())
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('day', 'integer', (c) => c.notNull())
        .addColumn('due_ms', 'bigint', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('reason', 'text')
        .addColumn('ledger_entry_id', 'text')
        .addColumn('status_code', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('outreach_steps_one').on('outreach_steps').columns(['enrollment_id', 'step']).unique().execute();
      // The workspace's delivery adapter: a signed webhook to its own sender (secret sealed as webhook secrets are).
      await db.schema
        .createTable('outreach_senders')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
    },
  },
  '0012_members_auth': {
    async up(db: Kysely<any>) {
      // A person's password (one per email, across the workspaces they belong to), argon2id.
      await db.schema
        .createTable('member_logins')
        .addColumn('email', 'text', (c) => c.primaryKey())
        .addColumn('password_hash', 'text', (c) => c.notNull())
        .addColumn('updated_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('member_invites')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .addColumn('used_at', 'text')
        .execute();
      await db.schema
        .createTable('member_sessions')
        .addColumn('token_hash', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull())
        .addColumn('csrf', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('expires_at', 'text', (c) => c.notNull())
        .execute();
      // Workspace settings beside the workspace row: who may read the wallet (owners | all).
      await db.schema
        .createTable('workspace_settings')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
        .addColumn('wallet_visibility', 'text', (c) => c.notNull().defaultTo('owners'))
        .execute();
      // oidc-provider's models (sessions, interactions, grants, codes, tokens, clients), one row each.
      await db.schema
        .createTable('oauth_records')
        .addColumn('model', 'text', (c) => c.notNull())
        .addColumn('id', 'text', (c) => c.notNull())
        .addColumn('payload', 'text', (c) => c.notNull())
        .addColumn('grant_id', 'text')
        .addColumn('uid', 'text')
        .addColumn('user_code', 'text')
        .addColumn('expires_ms', 'bigint')
        .addColumn('consumed_ms', 'bigint')
        .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
        .execute();
      await db.schema.createIndex('oauth_records_grant').on('oauth_records').columns(['grant_id']).execute();
      await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['uid']).execute();
    },
  },
  '0013_money_invariants': {
    async up(db: Kysely<any>) {
      // The ledger's order number and time are taken from the wallet row, in the UPDATE that moves
      // the balance (src/db/wallet.ts appendEntry): a per-wallet counter and the newest entry's
      // time. They continue from the entries written so far, whose seq was epoch µs.
      await db.schema.alterTable('wallets').addColumn('ledger_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
      await db.schema.alterTable('wallets').addColumn('ledger_at', 'text').execute();
      await sql`update wallets set
        ledger_seq = coalesce((select max(seq) from ledger_entries l where l.workspace_id = wallets.workspace_id), 0),
        ledger_at = (select max(created_at) from ledger_entries l where l.workspace_id = wallets.workspace_id)`.execute(db);
      // A debit is refunded at most once. refund() keyed every refund `refund:<entry id>` under the
      // unique cause, so no stored entry has two refunds.
      await sql`create unique index ledger_entries_refund_once on ledger_entries (refund_of) where refund_of is not null`.execute(db);
      // A contact runs in a cadence at most once at a time. Several processes over one PostgreSQL
      // database could enroll one twice before this index: every running enrollment but the
      // oldest of its contact and cadence is stopped first (its charge stays in the ledger).
      const at = new Date().toISOString();
      await sql`update outreach_enrollments
        set status = 'stopped', stop_reason = 'duplicate enrollment of the contact in the cadence (stopped by migration 0013)', stopped_at = ${at}, next_due_ms = null
        where status in ('active', 'awaiting_approval') and exists (
          select 1 from outreach_enrollments o
          where o.workspace_id = outreach_enrollments.workspace_id and o.contact_id = outreach_enrollments.contact_id and o.cadence_id = outreach_enrollments.cadence_id
            and o.status in ('active', 'awaiting_approval')
            and (o.seq < outreach_enrollments.seq or (o.seq = outreach_enrollments.seq and o.id < outreach_enrollments.id)))`.execute(db);
      await sql`create unique index outreach_enrollments_running on outreach_enrollments (workspace_id, contact_id, cadence_id) where status in ('active', 'awaiting_approval')`.execute(db);
    },
  },
  '0015_leases': {
    async up(db: Kysely<any>) {
      // One row per unit of background work held by a process (db/leases.ts): the ingest, the
      // re-rank of a workspace. The ingest lease moves here from the settings table.
      await db.schema
        .createTable('leases')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('owner', 'text', (c) => c.notNull())
        .addColumn('until_ms', 'bigint', (c) => c.notNull())
        .execute();
      await db.deleteFrom('settings').where('name', '=', 'ingest_lease').execute();
    },
  },
  '0016_rate_counter_prev': {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('rate_counters').addColumn('prev', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    },
  },
  '0017_outbox_order': {
    async up(db: Kysely<any>) {
      // A workspace's events are numbered from its row here, in commit order (db/outbox.ts);
      // the numbers continue after the events written so far (their seq was epoch µs).
      await db.schema
        .createTable('outbox_sequences')
        .addColumn('workspace_id', 'text', (c) => c.primaryKey())
        .addColumn('last_seq', 'bigint', (c) => c.notNull())
        .execute();
      await sql`insert into outbox_sequences (workspace_id, last_seq) select workspace_id, max(seq) from outbox group by workspace_id`.execute(db);
    },
  },
};

class InCodeProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    return migrations;
  }
}

/** Runs every pending migration; resolves to the names applied now (empty when up to date). */
export async function migrateToLatest(db: Kysely<any>, migrationTableSchema?: string): Promise<string[]> {
  // On PostgreSQL the schema must be named: kysely otherwise finds another schema's migration tables.
  const migrator = new Migrator({ db, provider: new InCodeProvider(), migrationTableSchema });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
