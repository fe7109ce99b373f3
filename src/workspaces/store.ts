/** Workspaces and their members. */
import type { Kysely } from 'kysely';
import { newId } from '../db/ids.js';
import { lockRows } from '../db/locks.js';
import type { Role } from '../members/roles.js';
import type { Database } from '../db/database.js';
import type { Member } from '../members/tables.js';
import type { Workspace } from './tables.js';

export async function createWorkspace(q: Kysely<Database>, name: string, now: Date): Promise<Workspace> {
  const row = { id: newId('ws'), name, created_at: now.toISOString() };
  await q.insertInto('workspaces').values(row).execute();
  return (await findWorkspace(q, row.id))!;
}

/** Finds a workspace by id or by its unique name. */
export async function findWorkspace(q: Kysely<Database>, idOrName: string): Promise<Workspace | undefined> {
  return q
    .selectFrom('workspaces')
    .selectAll()
    .where((eb) => eb.or([eb('id', '=', idOrName), eb('name', '=', idOrName)]))
    .orderBy('created_at')
    .executeTakeFirst();
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

/** Grants or withdraws approved pilot access (pilot operations). */
export async function setPilotAccess(q: Kysely<Database>, workspaceId: string, on: boolean): Promise<void> {
  await q.updateTable('workspaces').set({ pilot_access: on ? 1 : 0 }).where('id', '=', workspaceId).execute();
}

/**
 * Records an activation (for activation-gated operations), e.g. `growth_reports`. Run it in a
 * write: the workspace row is locked before its list is read, so two activations recorded at
 * once both stay.
 */
export async function addActivation(trx: Kysely<Database>, workspaceId: string, activation: string): Promise<void> {
  await lockRows(trx, 'workspaces', { id: workspaceId });
  const ws = await trx.selectFrom('workspaces').select('activations').where('id', '=', workspaceId).executeTakeFirstOrThrow();
  const set = new Set<string>(JSON.parse(ws.activations));
  set.add(activation);
  await trx.updateTable('workspaces').set({ activations: JSON.stringify([...set].sort()) }).where('id', '=', workspaceId).execute();
}
