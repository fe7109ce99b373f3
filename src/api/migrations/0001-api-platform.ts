/**
 * 0001_api_platform: the tables the first REST API stood on. Creates workspaces, members, api_keys,
 * accounts (with two score-order indexes), outcomes, webhook_endpoints, idempotency_keys,
 * rate_counters and settings.
 *
 * Later migrations reshape several of these: 0004 widens accounts, 0009 moves the ranking out of
 * it (dropping its score and store columns and both indexes), 0008 widens webhook_endpoints.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
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
};
