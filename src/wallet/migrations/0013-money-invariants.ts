/**
 * 0013_money_invariants: invariants the database now keeps. Adds wallets.ledger_seq and
 * wallets.ledger_at (continued from the entries written so far), a unique index allowing one
 * refund per debit, and a unique index allowing one running enrollment per contact and cadence.
 *
 * It changes data, not only schema: before the enrollment index it stops every running
 * enrollment but the oldest of its contact and cadence (stop_reason names this migration).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // The ledger's order number and time are taken from the wallet row, in the UPDATE that moves
    // the balance (src/wallet/store.ts appendEntry): a per-wallet counter and the newest entry's
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
};
