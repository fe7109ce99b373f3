/**
 * 0020_oauth_grants: which member and workspace each OAuth grant is for, so that one member may
 * hold grants for several workspaces (and assistants) at once. Grants made before it acted as
 * the account `{workspace_id}:{email}`; they are recorded here from that, and keep working.
 */
import type { Kysely, Migration } from 'kysely';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    await db.schema
      .createTable('oauth_grants')
      .addColumn('grant_id', 'text', (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull())
      .addColumn('workspace_id', 'text', (c) => c.notNull())
      .addColumn('client_id', 'text', (c) => c.notNull())
      .addColumn('created_ms', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('oauth_grants_member').on('oauth_grants').columns(['email', 'workspace_id']).execute();
    const legacy = (await db.selectFrom('oauth_records').select(['id', 'payload']).where('model', '=', 'Grant').execute()) as { id: string; payload: string }[];
    for (const g of legacy) {
      const p = JSON.parse(g.payload) as { accountId?: unknown; clientId?: unknown; iat?: unknown };
      const account = typeof p.accountId === 'string' ? p.accountId : '';
      const i = account.indexOf(':');
      if (i <= 0 || typeof p.clientId !== 'string') continue;
      await db
        .insertInto('oauth_grants')
        .values({ grant_id: g.id, email: account.slice(i + 1), workspace_id: account.slice(0, i), client_id: p.clientId, created_ms: typeof p.iat === 'number' ? p.iat * 1000 : 0 })
        .execute();
    }
  },
};
