/**
 * 0034_webhook_failure_streak: webhook_endpoints.last_failure_ms, the time of the endpoint's last
 * failed attempt. A failure long after the one before it starts a new streak (messages-store.ts
 * recordAttempt), so an endpoint that failed once and then had nothing to receive for five days
 * is no longer disabled by its next single failure. An endpoint failing now gets the time of its
 * latest attempt (every attempt since failing_since_ms failed).
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('webhook_endpoints').addColumn('last_failure_ms', 'bigint').execute();
    await sql`update webhook_endpoints set last_failure_ms = (
        select max(a.started_ms) from webhook_attempts a join webhook_deliveries d on d.id = a.delivery_id
        where d.endpoint_id = webhook_endpoints.id)
      where failing_since_ms is not null`.execute(db);
  },
};
