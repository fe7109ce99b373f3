/**
 * The demo workspace `npm start` prints a key for, with a target profile (its accounts come from
 * the demo panel once ingested): idempotent except for the fresh key.
 */
import type { Db } from './database.js';
import type { Profile } from '../accounts/profile.js';
import { getProfile, setProfile } from '../accounts/profile-store.js';
import { createWorkspace, findWorkspace } from '../workspaces/store.js';
import { upsertMember } from '../members/store.js';
import { issueApiKey } from '../members/issue-key.js';
import { keyScopes } from '../api/scopes.js';

export const DEMO_WORKSPACE = 'demo';
export const DEMO_OWNER = 'owner@demo.example';

/** The demo agency targets established stores in four English-speaking markets. */
export const DEMO_PROFILE: Profile = { countries: ['US', 'GB', 'CA', 'AU'], plans: ['grow', 'advanced', 'plus'] };

export async function ensureDemoKey(db: Db, now: Date = new Date()): Promise<{ workspace: string; workspaceId: string; key: string }> {
  const ws = (await findWorkspace(db.kysely, DEMO_WORKSPACE)) ?? (await createWorkspace(db.kysely, DEMO_WORKSPACE, now));
  await upsertMember(db.kysely, ws.id, DEMO_OWNER, 'owner', now);
  if ((await getProfile(db.kysely, ws.id)).updated_at === null) await db.write((trx) => setProfile(trx, ws.id, DEMO_PROFILE, now));
  const k = await issueApiKey(db, {
    workspaceId: ws.id,
    name: `demo ${now.toISOString()}`,
    scopes: keyScopes(['read', 'write-outcomes', 'reports']),
    createdBy: DEMO_OWNER,
    now,
  });
  return { workspace: ws.name, workspaceId: ws.id, key: k.key };
}

/** A fresh password for the demo owner, so `npm start` can print a sign-in for the Integrations page. */
export async function resetDemoSignIn(db: Db, now: Date = new Date()): Promise<{ email: string; password: string }> {
  const { randomBytes } = await import('node:crypto');
  const { hashPassword } = await import('../members/passwords.js');
  const { setPasswordHash } = await import('../members/store.js');
  const password = `demo-${randomBytes(9).toString('base64url')}`;
  const hashed = await hashPassword(password);
  await db.write((trx) => setPasswordHash(trx, DEMO_OWNER, hashed, now));
  return { email: DEMO_OWNER, password };
}
