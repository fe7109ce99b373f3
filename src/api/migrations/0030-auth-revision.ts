/**
 * 0030_auth_revision (SQLite only): one row whose number moves with every change to what
 * authenticating a key reads — a key revoked or rescoped, a member added, changed or removed, a
 * workspace changed (its data versions included), the same changes 0026 announces on
 * PostgreSQL — so an api process on SQLite may remember the keys it looked up and check, on
 * every call, only that this number has not moved (api/key-cache.ts). Triggers move it in the
 * transaction of the change, whichever process or thread makes it. A stamp of a key's last use
 * does not move it.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import { onPostgres } from '../../db/locks.js';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (onPostgres(db)) return;
    await sql`create table auth_revision (id integer primary key check (id = 1), n integer not null)`.execute(db);
    await sql`insert into auth_revision (id, n) values (1, 0)`.execute(db);
    const bump = 'begin update auth_revision set n = n + 1 where id = 1; end';
    await sql.raw(`create trigger api_keys_auth_revision after update of revoked_at, scopes, created_by, workspace_id, hash on api_keys ${bump}`).execute(db);
    await sql.raw(`create trigger api_keys_auth_revision_delete after delete on api_keys ${bump}`).execute(db);
    for (const op of ['insert', 'update', 'delete']) await sql.raw(`create trigger members_auth_revision_${op} after ${op} on members ${bump}`).execute(db);
    await sql.raw(`create trigger workspaces_auth_revision after update of name, pilot_access, activations, ranking_version, accounts_version on workspaces ${bump}`).execute(db);
  },
};
