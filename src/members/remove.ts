/**
 * A member leaving a workspace: the membership goes, and with it, in the same transaction, every
 * way in they held. Their browser sessions end (a session belongs to the person, so they sign in
 * again for their other workspaces), their unused invites to the workspace are withdrawn, their
 * assistant grants and tokens in the workspace are revoked, and the API keys they created there
 * are revoked for good: adding them again later revives none. Each of these is looked up in the
 * database at every request, so every process refuses them at the next call.
 */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { revokeKeysCreatedBy } from '../api/keys-store.js';
import { lockMember, MembershipRefused, refuseLastOwner } from './owners.js';
import type { Role } from '../core/roles.js';
import { deleteSessionsOf, removeMember, withdrawInvites } from './store.js';

export interface Removal {
  workspace_id: string;
  email: string;
  role: Role;
  /** Ids of the API keys this removal revoked. */
  revoked_keys: string[];
  /** Browser sessions ended. */
  sessions_ended: number;
  /** Assistant (OAuth) grants revoked in the workspace, each with its codes, access and refresh tokens. */
  assistant_grants_revoked: number;
  invites_withdrawn: number;
}

/**
 * The ways in that other modules hold for a member, revoked in the removal's transaction: the
 * oauth module's assistant grants (oauth/store.ts revokeMemberGrants), handed in by the caller
 * since the oauth module builds on this one.
 */
export interface OtherWaysIn {
  /** Revokes the member's assistant grants in the workspace; resolves to how many. */
  revokeAssistantGrants(trx: Kysely<Database>, email: string, workspaceId: string): Promise<number>;
}

export async function removeMembership(db: Db, r: { workspaceId: string; email: string; now: Date }, others: OtherWaysIn): Promise<Removal> {
  return db.write((trx) => removeIn(trx, r, others));
}

async function removeIn(trx: Kysely<Database>, { workspaceId, email, now }: { workspaceId: string; email: string; now: Date }, others: OtherWaysIn): Promise<Removal> {
  const member = await lockMember(trx, workspaceId, email);
  if (!member) throw new MembershipRefused(`${email} is not a member`);
  await refuseLastOwner(trx, member);
  await removeMember(trx, workspaceId, email);
  const revoked_keys = await revokeKeysCreatedBy(trx, workspaceId, email, now);
  const sessions_ended = await deleteSessionsOf(trx, email);
  const assistant_grants_revoked = await others.revokeAssistantGrants(trx, email, workspaceId);
  const invites_withdrawn = await withdrawInvites(trx, workspaceId, email);
  return { workspace_id: workspaceId, email, role: member.role as Role, revoked_keys, sessions_ended, assistant_grants_revoked, invites_withdrawn };
}

/** The members of a workspace, by email. */
export async function listMembers(q: Kysely<Database>, workspaceId: string): Promise<{ email: string; role: Role; created_at: string }[]> {
  const rows = await q.selectFrom('members').select(['email', 'role', 'created_at']).where('workspace_id', '=', workspaceId).orderBy('email').execute();
  return rows.map((m) => ({ email: m.email, role: m.role as Role, created_at: m.created_at }));
}
