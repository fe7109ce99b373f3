/**
 * 0023_one_pending_approval: a cause (operation and idempotency key) waits for at most one
 * approval at a time. charge() looks for the cause's pending approval under the wallet row lock
 * before asking for another; this unique index keeps it so on every database.
 *
 * It changes data, not only schema: should a cause hold several pending approvals (a key reused
 * after its replay window, each with a report or enrollment of its own), every one but the oldest
 * is denied first (decided_by names this migration), and what each denied one held back ends as a
 * denial would end it: its growth report failed, its enrollment stopped. Nothing was debited for them.
 */
import { type Kysely, type Migration, sql } from 'kysely';

const BY = 'migration:0023_one_pending_approval';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const at = new Date().toISOString();
    await sql`update approvals
      set status = 'denied', decided_by = ${BY}, decided_at = ${at}
      where status = 'pending' and exists (
        select 1 from approvals o
        where o.workspace_id = approvals.workspace_id and o.operation_id = approvals.operation_id and o.idempotency_key = approvals.idempotency_key
          and o.status = 'pending'
          and (o.seq < approvals.seq or (o.seq = approvals.seq and o.id < approvals.id)))`.execute(db);
    const denied = sql`(select id from approvals where decided_by = ${BY})`;
    const problem = JSON.stringify({
      type: 'https://storelens.dev/problems/conflict',
      title: 'Conflict',
      status: 409,
      detail: 'The charge for this report was denied: its Idempotency-Key had already asked for an approval (migration 0023); nothing was debited.',
    });
    await sql`update growth_reports set status = 'failed', problem = ${problem}, finished_at = ${at}, claimed_until_ms = null
      where status = 'awaiting_approval' and approval_id in ${denied}`.execute(db);
    await sql`update outreach_enrollments
      set status = 'stopped', stop_reason = 'its charge was denied: the Idempotency-Key had already asked for an approval (migration 0023)', stopped_at = ${at}, next_due_ms = null
      where status = 'awaiting_approval' and approval_id in ${denied}`.execute(db);
    await sql`create unique index approvals_pending_cause on approvals (workspace_id, operation_id, idempotency_key) where status = 'pending'`.execute(db);
  },
};
