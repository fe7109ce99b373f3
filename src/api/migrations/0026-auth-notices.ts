/**
 * 0026_auth_notices (PostgreSQL only): every change to what authenticating a key reads — a key
 * revoked or rescoped, a member added, changed or removed, a workspace changed (its data versions
 * included) — announces the table and the workspace on the channel `storelens_auth` when it
 * commits (`api_keys ws_…`, `members ws_…`, `workspaces ws_…`), so each api process drops what it
 * remembers of them (api/key-cache.ts). A stamp of a key's last use announces nothing. SQLite has no such channel: its processes check a revision row instead (migration 0030).
 */
import { type Kysely, type Migration, sql } from 'kysely';
import { onPostgres } from '../../db/locks.js';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (!onPostgres(db)) return;
    await sql`create function storelens_auth_changed() returns trigger language plpgsql as $$
      begin
        perform pg_notify('storelens_auth', tg_table_name || ' ' || (to_jsonb(case when tg_op = 'DELETE' then old else new end) ->> tg_argv[0]));
        return null;
      end $$`.execute(db);
    await sql`create trigger api_keys_auth_changed after update of revoked_at, scopes, created_by, workspace_id, hash or delete on api_keys
      for each row execute function storelens_auth_changed('workspace_id')`.execute(db);
    await sql`create trigger members_auth_changed after insert or update or delete on members
      for each row execute function storelens_auth_changed('workspace_id')`.execute(db);
    await sql`create trigger workspaces_auth_changed after update of name, pilot_access, activations, ranking_version, accounts_version on workspaces
      for each row execute function storelens_auth_changed('id')`.execute(db);
  },
};
