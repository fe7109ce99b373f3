/**
 * A workspace's target profile (accounts/profile.ts): which stores are its visible accounts.
 * The row stays when the profile is cleared (profile JSON `null`), so its updated_at tells a
 * ranking refresh that the visible set changed either way.
 */
import type { Kysely } from 'kysely';
import { Profile } from './profile.js';
import type { Database } from '../db/database.js';

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

/** Sets (or, with null, clears) the workspace's profile; validated with the Profile schema. */
export async function setProfile(trx: Kysely<Database>, workspaceId: string, profile: Profile | null, now: Date): Promise<WorkspaceProfile> {
  const value = profile === null ? null : Profile.parse(profile);
  const row = { workspace_id: workspaceId, profile: JSON.stringify(value), updated_at: now.toISOString() };
  await trx
    .insertInto('workspace_profiles')
    .values(row)
    .onConflict((oc) => oc.column('workspace_id').doUpdateSet({ profile: row.profile, updated_at: row.updated_at }))
    .execute();
  return { workspace_id: workspaceId, profile: value, updated_at: row.updated_at };
}
