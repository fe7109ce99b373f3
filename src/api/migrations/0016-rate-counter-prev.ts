/**
 * 0016_rate_counter_prev: adds rate_counters.prev, the count before a write's calls, which says
 * which calls of the write were admitted under the limit.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('rate_counters').addColumn('prev', 'integer', (c) => c.notNull().defaultTo(0)).execute();
  },
};
