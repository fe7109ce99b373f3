/** Issues an API key in a workspace: shared by the admin CLI, the demo and benchmarks. */
import type { Db } from '../compose/database.js';
import { insertApiKey } from './keys-store.js';
import { generateApiKey } from './keys.js';
import type { Scope } from './scopes.js';

export interface IssuedKey {
  id: string;
  key: string;
  prefix: string;
  name: string;
  scopes: Scope[];
  created_by: string;
}

/** Stores a new key (hash only) and returns its secret once. Role checks are the caller's. */
export async function issueApiKey(
  db: Db,
  k: { workspaceId: string; name: string; scopes: readonly Scope[]; createdBy: string; now: Date },
): Promise<IssuedKey> {
  const g = generateApiKey();
  await insertApiKey(db.kysely, {
    id: g.id,
    workspace_id: k.workspaceId,
    name: k.name,
    prefix: g.prefix,
    hash: g.hash,
    scopes: k.scopes,
    created_by: k.createdBy,
    created_at: k.now.toISOString(),
  });
  return { id: g.id, key: g.key, prefix: g.prefix, name: k.name, scopes: [...k.scopes], created_by: k.createdBy };
}
