/**
 * 0010_wallet: creates wallets, ledger_entries (one entry per cause), prices (seeded with the four
 * version-1 prices), approvals and supervision_entries.
 *
 * The name says less than the migration does: it also creates growth_reports (src/reports/) and
 * the four outreach tables, outreach_cadences, outreach_enrollments, outreach_steps and
 * outreach_senders (src/outreach/), the billable work the wallet was built to charge for.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
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
};
