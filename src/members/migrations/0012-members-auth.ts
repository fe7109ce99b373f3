/**
 * 0012_members_auth: sign-in for members. Creates member_logins (one argon2id password per email),
 * member_invites, member_sessions and oauth_records (oidc-provider's models, one row each).
 *
 * The name leaves out workspace_settings, which it also creates: one row per workspace, whose one
 * setting is who may read the wallet.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    // A person's password (one per email, across the workspaces they belong to), argon2id.
    await db.schema
      .createTable('member_logins')
      .addColumn('email', 'text', (c) => c.primaryKey())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('member_invites')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id'))
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .addColumn('used_at', 'text')
      .execute();
    await db.schema
      .createTable('member_sessions')
      .addColumn('token_hash', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('csrf', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('expires_at', 'text', (c) => c.notNull())
      .execute();
    // Workspace settings beside the workspace row: who may read the wallet (owners | all).
    await db.schema
      .createTable('workspace_settings')
      .addColumn('workspace_id', 'text', (c) => c.primaryKey().references('workspaces.id'))
      .addColumn('wallet_visibility', 'text', (c) => c.notNull().defaultTo('owners'))
      .execute();
    // oidc-provider's models (sessions, interactions, grants, codes, tokens, clients), one row each.
    await db.schema
      .createTable('oauth_records')
      .addColumn('model', 'text', (c) => c.notNull())
      .addColumn('id', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('grant_id', 'text')
      .addColumn('uid', 'text')
      .addColumn('user_code', 'text')
      .addColumn('expires_ms', 'bigint')
      .addColumn('consumed_ms', 'bigint')
      .addPrimaryKeyConstraint('oauth_records_pk', ['model', 'id'])
      .execute();
    await db.schema.createIndex('oauth_records_grant').on('oauth_records').columns(['grant_id']).execute();
    await db.schema.createIndex('oauth_records_uid').on('oauth_records').columns(['uid']).execute();
  },
};
