/** Members of workspaces and their sign-in: membership rows, passwords (argon2id hashes), invite links, browser sessions. */
import type { Kysely } from 'kysely';
import type { Role } from '../core/roles.js';
import type { Database } from '../db/database.js';
import type { Member } from './tables.js';

export interface Membership {
  workspace_id: string;
  name: string;
  role: Role;
}

export async function setPasswordHash(q: Kysely<Database>, email: string, passwordHash: string, now: Date): Promise<void> {
  await q
    .insertInto('member_logins')
    .values({ email, password_hash: passwordHash, updated_at: now.toISOString() })
    .onConflict((oc) => oc.column('email').doUpdateSet({ password_hash: passwordHash, updated_at: now.toISOString() }))
    .execute();
}

export async function passwordHashOf(q: Kysely<Database>, email: string): Promise<string | undefined> {
  const row = await q.selectFrom('member_logins').select('password_hash').where('email', '=', email).executeTakeFirst();
  return row?.password_hash;
}

/** The workspaces this email is a member of now, by name. */
export async function membershipsOf(q: Kysely<Database>, email: string): Promise<Membership[]> {
  const rows = await q
    .selectFrom('members as m')
    .innerJoin('workspaces as w', 'w.id', 'm.workspace_id')
    .select(['m.workspace_id', 'w.name', 'm.role'])
    .where('m.email', '=', email)
    .orderBy('w.name')
    .execute();
  return rows.map((r) => ({ workspace_id: r.workspace_id, name: r.name, role: r.role as Role }));
}

export async function insertInvite(q: Kysely<Database>, i: { tokenHash: string; workspaceId: string; email: string; now: Date; expiresAt: Date }): Promise<void> {
  await q
    .insertInto('member_invites')
    .values({ token_hash: i.tokenHash, workspace_id: i.workspaceId, email: i.email, created_at: i.now.toISOString(), expires_at: i.expiresAt.toISOString(), used_at: null })
    .execute();
}

/** An unused, unexpired invite. */
export async function findOpenInvite(q: Kysely<Database>, tokenHash: string, now: Date): Promise<{ email: string; workspace_id: string } | undefined> {
  return q
    .selectFrom('member_invites')
    .select(['email', 'workspace_id'])
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirst();
}

/** Marks the invite used; false when it was used meanwhile. */
export async function useInvite(q: Kysely<Database>, tokenHash: string, now: Date): Promise<boolean> {
  const r = await q.updateTable('member_invites').set({ used_at: now.toISOString() }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numUpdatedRows) > 0;
}

export async function insertSession(q: Kysely<Database>, s: { tokenHash: string; email: string; csrf: string; now: Date; expiresAt: Date }): Promise<void> {
  await q
    .insertInto('member_sessions')
    .values({ token_hash: s.tokenHash, email: s.email, csrf: s.csrf, created_at: s.now.toISOString(), expires_at: s.expiresAt.toISOString() })
    .execute();
}

export async function findSession(q: Kysely<Database>, tokenHash: string, now: Date): Promise<{ email: string; csrf: string } | undefined> {
  return q.selectFrom('member_sessions').select(['email', 'csrf']).where('token_hash', '=', tokenHash).where('expires_at', '>', now.toISOString()).executeTakeFirst();
}

export async function deleteSession(q: Kysely<Database>, tokenHash: string): Promise<void> {
  await q.deleteFrom('member_sessions').where('token_hash', '=', tokenHash).execute();
}

/** Ends every browser session of `email` (on every process: sessions are looked up at each request); resolves to how many. */
export async function deleteSessionsOf(q: Kysely<Database>, email: string): Promise<number> {
  const r = await q.deleteFrom('member_sessions').where('email', '=', email).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/**
 * Deletes what no sign-in can use any more: sessions past their end, and invites used or past
 * theirs (an invite link finds nothing either way). Resolves to how many of each.
 */
export async function pruneSignIns(q: Kysely<Database>, now: Date): Promise<{ sessions: number; invites: number }> {
  const at = now.toISOString();
  const sessions = await q.deleteFrom('member_sessions').where('expires_at', '<=', at).executeTakeFirst();
  const invites = await q
    .deleteFrom('member_invites')
    .where((w) => w.or([w('used_at', 'is not', null), w('expires_at', '<=', at)]))
    .executeTakeFirst();
  return { sessions: Number(sessions.numDeletedRows), invites: Number(invites.numDeletedRows) };
}

/** Withdraws the unused invites of `email` to the workspace; resolves to how many. */
export async function withdrawInvites(q: Kysely<Database>, workspaceId: string, email: string): Promise<number> {
  const r = await q.deleteFrom('member_invites').where('workspace_id', '=', workspaceId).where('email', '=', email).where('used_at', 'is', null).executeTakeFirst();
  return Number(r.numDeletedRows);
}

/** Adds a member, or changes the role of an existing one. */
export async function upsertMember(q: Kysely<Database>, workspaceId: string, email: string, role: Role, now: Date): Promise<Member> {
  const row = { workspace_id: workspaceId, email, role, created_at: now.toISOString() };
  await q
    .insertInto('members')
    .values(row)
    .onConflict((oc) => oc.columns(['workspace_id', 'email']).doUpdateSet({ role }))
    .execute();
  return (await getMember(q, workspaceId, email))!;
}

export async function getMember(q: Kysely<Database>, workspaceId: string, email: string): Promise<Member | undefined> {
  return q
    .selectFrom('members')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('email', '=', email)
    .executeTakeFirst();
}

/**
 * Deletes the membership row alone (their API keys stop working while they are not a member);
 * resolves to false when there was none. Removing a member for good, keys, sessions and assistant
 * tokens revoked, is members/remove.ts removeMembership.
 */
export async function removeMember(q: Kysely<Database>, workspaceId: string, email: string): Promise<boolean> {
  const r = await q.deleteFrom('members').where('workspace_id', '=', workspaceId).where('email', '=', email).executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}
