/** Invite links: a member (added if new) gets a one-time link to set a password and sign in. */
import type { Db } from '../db/database.js';
import { insertInvite, upsertMember } from './store.js';
import { lockMember } from './owners.js';
import { randomToken, tokenHash } from '../core/tokens.js';
import type { Role } from '../core/roles.js';

export const INVITE_DAYS = 7;

export interface Invite {
  workspace_id: string;
  email: string;
  role: Role;
  url: string;
  expires_at: string;
}

export async function inviteMember(db: Db, i: { workspaceId: string; email: string; role: Role; baseUrl: string; now: Date }): Promise<Invite> {
  const token = randomToken();
  const expiresAt = new Date(i.now.getTime() + INVITE_DAYS * 86_400_000);
  const member = await db.write(async (trx) => {
    // Under the workspace lock a role change or removal takes: an existing member keeps the role
    // another command gave them meanwhile (an invite never changes a role).
    const m = (await lockMember(trx, i.workspaceId, i.email)) ?? (await upsertMember(trx, i.workspaceId, i.email, i.role, i.now));
    await insertInvite(trx, { tokenHash: tokenHash(token), workspaceId: i.workspaceId, email: i.email, now: i.now, expiresAt });
    return m;
  });
  return { workspace_id: i.workspaceId, email: member.email, role: member.role as Role, url: `${i.baseUrl.replace(/\/$/, '')}/invite/${token}`, expires_at: expiresAt.toISOString() };
}
