/**
 * 0002_ranking_history: creates ranking_history, the scores accounts had before a re-ranking, so
 * cursors of an older ranking version could keep walking it for an hour.
 *
 * Superseded: 0009_ranking_versions drops the table (rankings are kept as whole versions since).
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // Scores an account had before a re-ranking, so cursors of an older ranking version keep
    // walking that ranking for at least an hour (see rankings.ts).
    await db.schema
      .createTable('ranking_history')
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('score', 'double precision', (c) => c.notNull())
      .addColumn('in_market', 'integer', (c) => c.notNull())
      .addColumn('superseded_ms', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('ranking_history_pk', ['workspace_id', 'store_id', 'version'])
      .execute();
    await db.schema.createIndex('ranking_history_version').on('ranking_history').columns(['workspace_id', 'version']).execute();
    await db.schema.createIndex('ranking_history_age').on('ranking_history').column('superseded_ms').execute();
  },
};
