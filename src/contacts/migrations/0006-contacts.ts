/**
 * 0006_contacts: creates contacts (one per normalised email per workspace, enforced by a unique
 * index so a racing duplicate is a 409), and store_contacts and ingested_contacts, the data team's
 * contact source that ingest loads for every workspace.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // A workspace's contacts: one per email in a workspace (emails normalised: see
    // core/email.ts), so the unique index is what makes a racing duplicate a 409.
    await db.schema
      .createTable('contacts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('role', 'text')
      .addColumn('source', 'text', (c) => c.notNull())
      .addColumn('source_detail', 'text')
      .addColumn('created_by', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('contacts_email').unique().on('contacts').columns(['workspace_id', 'email']).execute();
    await db.schema.createIndex('contacts_by_store').on('contacts').columns(['workspace_id', 'store_id']).execute();
    await db.schema.createIndex('contacts_order').on('contacts').columns(['workspace_id', 'created_at', 'id']).execute();
    // The data team's contact source (contacts.{csv,parquet,ndjson} beside the panel), loaded
    // by ingest: shared by every workspace, replaced whole by each new source.
    await db.schema
      .createTable('store_contacts')
      .addColumn('store_id', 'text', (c) => c.notNull())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('role', 'text')
      .addColumn('source', 'text')
      .addPrimaryKeyConstraint('store_contacts_pk', ['store_id', 'email'])
      .execute();
    // Which contact source store_contacts holds (one row, `id` = 'current').
    await db.schema
      .createTable('ingested_contacts')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('source_id', 'text', (c) => c.notNull())
      .addColumn('rows', 'integer', (c) => c.notNull())
      .addColumn('loaded_at', 'text', (c) => c.notNull())
      .execute();
  },
};
