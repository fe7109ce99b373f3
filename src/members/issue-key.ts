/** Issues an API key in a workspace: shared by the admin CLI, the demo and benchmarks. */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { insertApiKey } from '../api/keys-store.js';
import { generateApiKey } from '../api/keys.js';
import type { Scope } from '../api/scopes.js';
import { lockMember } from './owners.js';

export interface IssuedKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  scopes: Scope[];
  created_by: string;
}

/** A member who is not (or no longer) an owner or admin of the workspace, refused a change to its keys. */
export class KeyManagerRefused extends Error {}

/** A key's creator who is not (or no longer) an owner or admin of the workspace. */
export class KeyCreatorRefused extends KeyManagerRefused {}

/**
 * Locks the workspace's row (as removing a member or changing a role does) and refuses, with
 * `Refused`, unless `email` is an owner or admin of the workspace as stored now.
 */
export async function lockKeyManager(trx: Kysely<Database>, workspaceId: string, email: string, Refused: new (message: string) => KeyManagerRefused): Promise<void> {
  const member = await lockMember(trx, workspaceId, email);
  if (!member) throw new Refused(`${email} is not a member of the workspace`);
  if (member.role !== 'owner' && member.role !== 'admin') throw new Refused(`${email} is a ${member.role} of the workspace`);
}

/**
 * Stores a new key (hash only) and returns its secret once. With `creatorManages`, the creator
 * (`createdBy`, a member's email) must be an owner or admin of the workspace, checked under the
 * workspace row lock that removing a member or changing a role takes: a member removed or
 * demoted meanwhile gets no key (KeyCreatorRefused). Without it, role checks are the caller's.
 * With `id`, the key takes that id: a second issue under the same id fails on the primary key
 * (a unique violation), so a form sent twice issues one key.
 */
export async function issueApiKey(
  db: Db,
  k: { workspaceId: string; name: string; scopes: readonly Scope[]; createdBy: string; now: Date; creatorManages?: boolean; id?: string },
): Promise<IssuedKey> {
  const g = { ...generateApiKey(), ...(k.id !== undefined && { id: k.id }) };
  await db.write(async (trx) => {
    if (k.creatorManages) await lockKeyManager(trx, k.workspaceId, k.createdBy, KeyCreatorRefused);
    await insertApiKey(trx, {
      id: g.id,
      workspace_id: k.workspaceId,
      name: k.name,
      prefix: g.prefix,
      hash: g.hash,
      scopes: k.scopes,
      created_by: k.createdBy,
      created_at: k.now.toISOString(),
    });
  });
  return { id: g.id, key: g.key, prefix: g.prefix, name: k.name, scopes: [...k.scopes], created_by: k.createdBy };
}
