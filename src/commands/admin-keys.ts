/** storelens keys create | list | revoke — only an owner or admin creates and revokes keys. */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { getApiKey, listApiKeys, revokeApiKey } from '../api/keys-store.js';
import { issueApiKey, KeyCreatorRefused } from '../members/issue-key.js';
import { ACCESS_CHOICES, type AccessChoice, SCOPES, type Scope, isAccessChoice, isScope, keyScopes } from '../api/scopes.js';
import type { Config } from '../settings/config.js';
import { output, requireOwnerOrAdmin, requireWorkspace, withAdminDb, writeAsOwnerOrAdmin } from './admin-db.js';

const list = (s: string | undefined): string[] =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);

/** Parses --access and --scopes into the key's scopes, or explains what is wrong. */
export function parseKeyScopes(access: string | undefined, scopes: string | undefined): Scope[] {
  const choices = list(access);
  const extra = list(scopes);
  for (const c of choices) {
    if (!isAccessChoice(c)) throw new CliError(`--access: "${c}" is not one of ${Object.keys(ACCESS_CHOICES).join(', ')}`);
  }
  for (const s of extra) {
    if (!isScope(s)) throw new CliError(`--scopes: "${s}" is not a scope of the API (${SCOPES.join(', ')})`);
  }
  if (choices.length === 0 && extra.length === 0) {
    // --scopes alone makes a key too (an operator's grant, e.g. manage:webhooks): name both.
    throw new CliError(`a key needs --access (one or more of ${Object.keys(ACCESS_CHOICES).join(', ')}, comma-separated) or --scopes (e.g. manage:webhooks), or both`);
  }
  return keyScopes(choices as AccessChoice[], extra as Scope[]);
}

export async function createKeyCommand(opts: Config<'keys create'>, env: Env): Promise<void> {
  const name = opts.name.trim();
  if (!name) throw new CliError('--name must not be empty');
  const scopes = parseKeyScopes(opts.access, opts.scopes);
  const as = opts.as;
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    // Only an owner or admin gets past this, so any scope may be granted; the key keeps the
    // owner/admin-only ones while its creator stays one (checked on every call).
    await requireOwnerOrAdmin(db, ws, as, 'create keys');
    const k = await issueApiKey(db, { workspaceId: ws.id, name, scopes, createdBy: as, now: env.now(), creatorManages: true }).catch((e: unknown) => {
      // Removed or demoted since the check above: checked again under the lock that takes.
      if (e instanceof KeyCreatorRefused) throw new CliError(`${e.message}; only an owner or admin can create keys`);
      throw e;
    });
    output(
      env,
      opts,
      { id: k.id, key: k.key, prefix: k.prefix, name, scopes, created_by: as },
      `Created key "${name}" (${k.prefix}) in ${ws.name} with scopes ${scopes.join(', ')}.\n\n  ${k.key}\n\nCopy it now: it is not shown again.\n`,
    );
  });
}

export async function listKeysCommand(opts: Config<'keys list'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const keys = (await listApiKeys(db.kysely, ws.id)).map((k) => ({
      id: k.id,
      prefix: k.prefix,
      name: k.name,
      scopes: k.scopes,
      created_by: k.created_by,
      created_at: k.created_at,
      last_used_at: k.last_used_at,
      revoked_at: k.revoked_at,
    }));
    const text = keys.length
      ? keys
          .map((k) => `${k.id}  ${k.prefix}  ${k.name}  [${k.scopes.join(' ')}]  by ${k.created_by}  last used ${k.last_used_at ?? 'never'}${k.revoked_at ? `  REVOKED ${k.revoked_at}` : ''}`)
          .join('\n')
      : `No keys in ${ws.name}.`;
    output(env, opts, { workspace_id: ws.id, keys }, text);
  });
}

export async function revokeKeyCommand(keyId: string, opts: Config<'keys revoke'>, env: Env): Promise<void> {
  const as = opts.as;
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await requireOwnerOrAdmin(db, ws, as, 'revoke keys');
    const key = await getApiKey(db.kysely, ws.id, keyId);
    if (!key) throw new CliError(`no key "${keyId}" in workspace "${ws.name}" (see: storelens keys list --workspace ${ws.name})`);
    // Removed or demoted since the check above: checked again under the lock that takes.
    const changed = await writeAsOwnerOrAdmin(db, ws, as, 'revoke keys', (trx) => revokeApiKey(trx, ws.id, key.id, env.now()));
    const after = await getApiKey(db.kysely, ws.id, key.id);
    output(
      env,
      opts,
      { id: key.id, prefix: key.prefix, revoked: true, revoked_at: after?.revoked_at ?? null },
      changed ? `Revoked key ${key.prefix} (${key.name})` : `Key ${key.prefix} was already revoked`,
    );
  });
}
