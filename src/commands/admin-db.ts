/** Shared edge of the admin commands: open the database, resolve a workspace, print results. */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import type { Kysely } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { type DatabaseChoice, openWorkspaceDb } from '../compose/open-database.js';
import type { Workspace } from '../workspaces/tables.js';
import { findWorkspace } from '../workspaces/store.js';
import { getMember } from '../members/store.js';
import { lockMember } from '../members/owners.js';
import type { Member } from '../members/tables.js';

/** What every admin command takes (see the settings table). */
export interface AdminOptions extends DatabaseChoice {
  readonly json?: boolean;
}

/**
 * Opens the workspace database (compose/open-database.ts), runs `fn` and closes it. The SQLite
 * file must exist unless `how.create` (only `workspaces create`, which starts a database).
 */
export async function withAdminDb<T>(opts: AdminOptions, env: Env, fn: (db: Db) => Promise<T>, how: { create?: boolean } = {}): Promise<T> {
  const db = await openWorkspaceDb(opts, env, { create: how.create });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

export async function requireWorkspace(db: Db, idOrName: string): Promise<Workspace> {
  const ws = await findWorkspace(db.kysely, idOrName);
  if (!ws) throw new CliError(`no workspace "${idOrName}" (give its id or name; create one with: storelens workspaces create NAME)`);
  return ws;
}

/** The acting member must be an owner or admin of the workspace. */
export async function requireOwnerOrAdmin(db: Db, ws: Workspace, email: string, action: string): Promise<'owner' | 'admin'> {
  return ownerOrAdmin(await getMember(db.kysely, ws.id, email), ws, email, action);
}

/**
 * A write an owner or admin makes: `fn` runs in one transaction after requireOwnerOrAdmin's check
 * is made again under the workspace row's lock that removing a member or changing a role takes
 * (members/owners.ts), so a member removed or demoted since the check before is refused, and the
 * write changes nothing.
 */
export function writeAsOwnerOrAdmin<T>(db: Db, ws: Workspace, email: string, action: string, fn: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
  return db.write(async (trx) => {
    ownerOrAdmin(await lockMember(trx, ws.id, email), ws, email, action);
    return fn(trx);
  });
}

function ownerOrAdmin(m: Member | undefined, ws: Workspace, email: string, action: string): 'owner' | 'admin' {
  if (!m) throw new CliError(`${email} is not a member of workspace "${ws.name}"; only an owner or admin can ${action}`);
  if (m.role !== 'owner' && m.role !== 'admin') {
    throw new CliError(`${email} is a ${m.role} of workspace "${ws.name}"; only an owner or admin can ${action}`);
  }
  return m.role;
}

/** `--json`: one JSON object on stdout; otherwise the human text. */
export function output(env: Env, opts: AdminOptions, json: object, text: string): void {
  env.stdout.write(opts.json ? `${JSON.stringify(json)}\n` : text.endsWith('\n') ? text : `${text}\n`);
}
