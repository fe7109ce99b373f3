/** Shared edge of the admin commands: open the database, resolve a workspace, print results. */
import type { Env } from '../core/env.js';
import { DB_PATH } from '../core/defaults.js';
import { CliError } from '../core/errors.js';
import { type Db, isPostgresUrl, openDatabase } from '../compose/database.js';
import type { Workspace } from '../workspaces/tables.js';
import { findWorkspace, getMember } from '../workspaces/store.js';

/** What every admin command takes (see the settings table). */
export interface AdminOptions {
  readonly db?: string;
  readonly databaseUrl?: string;
  readonly json?: boolean;
}

/**
 * Opens PostgreSQL when `databaseUrl` (DATABASE_URL) is set, else the SQLite file; migration
 * notes go to stderr. Every command that opens the workspace database comes through here, so a
 * DATABASE_URL naming another database is refused (exit 2) here, and only by those commands.
 */
export async function openAdminDb(opts: AdminOptions, env: Env): Promise<Db> {
  const url = opts.databaseUrl;
  if (url !== undefined && !isPostgresUrl(url)) {
    // Not echoed: a database URL may hold a password.
    throw new CliError('DATABASE_URL: not a postgres:// or postgresql:// URL (the value is not shown: it may hold a password)', 2);
  }
  const db = await openDatabase(url !== undefined ? { databaseUrl: url } : { dbPath: opts.db ?? DB_PATH });
  if (db.appliedMigrations.length) {
    env.stderr.write(`storelens: ${db.location}: applied migrations ${db.appliedMigrations.join(', ')}\n`);
  }
  return db;
}

export async function withAdminDb<T>(opts: AdminOptions, env: Env, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = await openAdminDb(opts, env);
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
  const m = await getMember(db.kysely, ws.id, email);
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
