/**
 * 0015_leases: creates leases, one row per unit of background work held by a process, and deletes
 * the ingest lease from settings, where it lived before.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // One row per unit of background work held by a process (db/leases.ts): the ingest, the
    // re-rank of a workspace. The ingest lease moves here from the settings table.
    await db.schema
      .createTable('leases')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('until_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.deleteFrom('settings').where('name', '=', 'ingest_lease').execute();
  },
};
