/** Revokes an API key on a member's behalf (the Integrations page). */
import type { Db } from '../db/database.js';
import { revokeApiKey } from '../api/keys-store.js';
import { KeyManagerRefused, lockKeyManager } from './issue-key.js';

/**
 * Revokes the workspace's key `id` for the member `by`, who must be an owner or admin of the
 * workspace, checked under the workspace row lock that removing a member or changing a role takes:
 * a member removed or demoted meanwhile revokes nothing (KeyManagerRefused). Resolves to false
 * when the key was revoked already.
 */
export async function revokeKeyAsMember(db: Db, r: { workspaceId: string; id: string; by: string; now: Date }): Promise<boolean> {
  return db.write(async (trx) => {
    await lockKeyManager(trx, r.workspaceId, r.by, KeyManagerRefused);
    return revokeApiKey(trx, r.workspaceId, r.id, r.now);
  });
}
