/**
 * 0024_outreach_step_claims: a step is recorded `sending` with its charge, then POSTed to the
 * sender and only then marked `sent` (or `failed` and refunded). `claimed_until_ms` is the claim
 * of the worker posting it: a step still `sending` once it ran out was left by a process that
 * died mid-send, and the next worker to claim it (a conditional UPDATE on this column) posts it
 * again with the same webhook-id. The partial index finds those steps.
 *
 * Steps recorded before it keep their status; none is `sending`.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('outreach_steps').addColumn('claimed_until_ms', 'bigint').execute();
    await sql`create index outreach_steps_sending on outreach_steps (claimed_until_ms) where status = 'sending'`.execute(db);
  },
};
