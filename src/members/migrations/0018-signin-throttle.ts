/**
 * 0018_signin_throttle: creates signin_throttle, the failed sign-ins counted per account and per
 * client address (members/signin-throttle.ts), shared by every process of the database.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // One row per subject: kind 'account' (key: hash of the email, whether a member has it or not)
    // or 'address' (key: hash of the client address). Times are epoch milliseconds.
    await db.schema
      .createTable('signin_throttle')
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('failures', 'integer', (c) => c.notNull())
      .addColumn('last_failure_ms', 'bigint', (c) => c.notNull())
      .addColumn('locked_until_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('signin_throttle_pk', ['kind', 'key'])
      .execute();
  },
};
