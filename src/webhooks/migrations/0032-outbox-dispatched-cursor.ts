/**
 * 0032_outbox_dispatched_cursor: how far a workspace's events have been fanned out is one number,
 * outbox_sequences.dispatched_seq (every event of the workspace numbered up to it has had its
 * messages made), no longer a flag on each outbox row. Marking 100,000 rows dispatched wrote
 * each row again with every index entry (the flag was indexed), and on PostgreSQL the dead index
 * entries that left made each next fan-out's search for the rows still to do longer: 100,000
 * events took about 10 s to fan out, 200,000 about 22 s. The rows are now written once; the flag
 * and its index go. Fan-outs went in number order, so the events done are a prefix of each
 * workspace's: the cursor is the number before its first event not done, or its last.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('outbox_sequences').addColumn('dispatched_seq', 'bigint', (c) => c.notNull().defaultTo(0)).execute();
    await sql`update outbox_sequences set dispatched_seq = coalesce(
        (select min(o.seq) - 1 from outbox o where o.workspace_id = outbox_sequences.workspace_id and o.dispatched = 0),
        last_seq)`.execute(db);
    await db.schema.dropIndex('outbox_undispatched').execute();
    await db.schema.alterTable('outbox').dropColumn('dispatched').execute();
  },
};
