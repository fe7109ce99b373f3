/**
 * A workspace's target profile (accounts/profile.ts): which stores are its visible accounts.
 * The row stays when the profile is cleared (profile JSON `null`), so its updated_at tells a
 * ranking refresh that the visible set changed either way.
 */
import { sql, type Kysely } from 'kysely';
import { Profile } from './profile.js';
import type { Database } from '../db/database.js';
import { onPostgres } from '../db/locks.js';

export interface WorkspaceProfile {
  workspace_id: string;
  /** null: the workspace sees every store. */
  profile: Profile | null;
  /** When the profile was last set or cleared; null when it never was. */
  updated_at: string | null;
}

export async function getProfile(q: Kysely<Database>, workspaceId: string): Promise<WorkspaceProfile> {
  const row = await q.selectFrom('workspace_profiles').select(['profile', 'updated_at']).where('workspace_id', '=', workspaceId).executeTakeFirst();
  if (!row) return { workspace_id: workspaceId, profile: null, updated_at: null };
  const stored: unknown = JSON.parse(row.profile);
  return { workspace_id: workspaceId, profile: stored === null ? null : Profile.parse(stored), updated_at: row.updated_at };
}

/**
 * Sets (or, with null, clears) the workspace's profile; validated with the Profile schema. Its
 * updated_at moves forward at every write: a writer whose clock is not ahead of the stored time
 * (another machine's `workspaces profile`, behind the last one's) stores that time and a
 * millisecond, so whoever compares updated_at with the one they last read sees the change
 * (kept as it was, the change would read as none). ISO 8601 times in UTC order as text.
 */
export async function setProfile(trx: Kysely<Database>, workspaceId: string, profile: Profile | null, now: Date): Promise<WorkspaceProfile> {
  const value = profile === null ? null : Profile.parse(profile);
  const row = { workspace_id: workspaceId, profile: JSON.stringify(value), updated_at: now.toISOString() };
  const stored = await trx
    .insertInto('workspace_profiles')
    .values(row)
    .onConflict((oc) =>
      oc.column('workspace_id').doUpdateSet({
        profile: row.profile,
        updated_at: sql<string>`case when workspace_profiles.updated_at < excluded.updated_at then excluded.updated_at else ${nextMillisecond(trx)} end`,
      }),
    )
    .returning('updated_at')
    .executeTakeFirstOrThrow();
  return { workspace_id: workspaceId, profile: value, updated_at: stored.updated_at };
}

/** The stored updated_at and a millisecond, in its own ISO 8601 form (…T10:00:00.001Z), in each dialect's SQL. */
function nextMillisecond(q: Kysely<Database>) {
  return onPostgres(q)
    ? sql<string>`to_char((workspace_profiles.updated_at::timestamptz + interval '1 millisecond') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', workspace_profiles.updated_at, '+0.001 seconds')`;
}
