/**
 * 0008_webhooks: webhook delivery. Widens webhook_endpoints (description, disabling, secret
 * rotation, last_seq, failing_since_ms, updated_at), adds outbox.dispatched with the indexes the
 * fan-out reads, and creates webhook_deliveries (one message per endpoint and event) and
 * webhook_attempts.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
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
};
