/**
 * 0017_outbox_order: creates outbox_sequences, from which a workspace's events are numbered in
 * commit order, starting after the events written so far.
 */
import { type Kysely, type Migration, sql } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // A workspace's events are numbered from its row here, in commit order (webhooks/outbox.ts);
    // the numbers continue after the events written so far (their seq was epoch µs).
    await db.schema
      .createTable('outbox_sequences')
      .addColumn('workspace_id', 'text', (c) => c.primaryKey())
      .addColumn('last_seq', 'bigint', (c) => c.notNull())
      .execute();
    await sql`insert into outbox_sequences (workspace_id, last_seq) select workspace_id, max(seq) from outbox group by workspace_id`.execute(db);
  },
};
