/**
 * Every workspace keeps an owner: the last one can be neither removed nor given another role.
 * The workspace row is locked first, so two such changes at once (on any process) cannot each
 * see the other owner still there.
 */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { lockRows } from '../db/locks.js';
import type { Member } from './tables.js';
import type { Role } from '../core/roles.js';
import { getMember, upsertMember } from './store.js';

/** Why a membership change was refused (the CLI answers it as bad input). */
export class MembershipRefused extends Error {}

/** Locks the workspace's row until the commit, and resolves to the member as stored now. */
export async function lockMember(trx: Kysely<Database>, workspaceId: string, email: string): Promise<Member | undefined> {
  await lockRows(trx, 'workspaces', { id: workspaceId });
  return getMember(trx, workspaceId, email);
}

/** Refuses when `member`, about to be removed or to get another role, is the workspace's last owner. */
export async function refuseLastOwner(trx: Kysely<Database>, member: Member): Promise<void> {
  if (member.role !== 'owner') return;
  const owners = await trx.selectFrom('members').select('email').where('workspace_id', '=', member.workspace_id).where('role', '=', 'owner').execute();
  if (owners.length <= 1) throw new MembershipRefused(`${member.email} is the last owner; make another member owner first`);
}

/** Adds a member, or changes their role; the last owner keeps theirs. */
export async function setMemberRole(db: Db, m: { workspaceId: string; email: string; role: Role; now: Date }): Promise<Member> {
  return db.write(async (trx) => {
    const existing = await lockMember(trx, m.workspaceId, m.email);
    if (existing && m.role !== 'owner') await refuseLastOwner(trx, existing);
    return upsertMember(trx, m.workspaceId, m.email, m.role, m.now);
  });
}
