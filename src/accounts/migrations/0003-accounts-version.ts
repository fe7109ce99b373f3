/**
 * 0003_accounts_version: adds workspaces.accounts_version, bumped by every change to a workspace's
 * accounts, so a served GET /accounts page can be reused (by any process) until they change.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // Bumped by every change to a workspace's accounts, so a served page can be reused
    // (by any process) until its accounts change: see accounts/store.ts.
    await db.schema
      .alterTable('workspaces')
      .addColumn('accounts_version', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  },
};
