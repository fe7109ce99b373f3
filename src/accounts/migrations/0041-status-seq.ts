/**
 * 0041_status_seq: which statuses a ranking version's in-market list reflects.
 * `workspaces.status_seq` is bumped by every status decision that moves an account onto or
 * off the list (accounts/store.ts setAccountStatus); `ranking_versions.status_seq` is the count a version's list was written with
 * (accounts/statuses-list.ts), null for versions written before (their statuses unknown: a
 * workspace without store data re-applies them once). A workspace whose accounts come only from
 * `storelens accounts import` has no re-ranking to apply a status: its list is written again from
 * the current version when the two differ, as the re-ranking does from the data.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema.alterTable('workspaces').addColumn('status_seq', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('ranking_versions').addColumn('status_seq', 'integer').execute();
  },
};
