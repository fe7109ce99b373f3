/**
 * 0023_one_pending_approval: a cause (operation and idempotency key) waits for at most one
 * approval at a time. charge() looks for the cause's pending approval under the wallet row lock
 * before asking for another; this unique index keeps it so on every database.
 *
 * It changes data, not only schema: should a cause hold several pending approvals, every one but
 * the oldest is denied first (decided_by names this migration); nothing was debited for them.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const at = new Date().toISOString();
    await sql`update approvals
      set status = 'denied', decided_by = 'migration:0023_one_pending_approval', decided_at = ${at}
      where status = 'pending' and exists (
        select 1 from approvals o
        where o.workspace_id = approvals.workspace_id and o.operation_id = approvals.operation_id and o.idempotency_key = approvals.idempotency_key
          and o.status = 'pending'
          and (o.seq < approvals.seq or (o.seq = approvals.seq and o.id < approvals.id)))`.execute(db);
    await sql`create unique index approvals_pending_cause on approvals (workspace_id, operation_id, idempotency_key) where status = 'pending'`.execute(db);
  },
};
