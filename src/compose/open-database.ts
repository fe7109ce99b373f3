/** How a command opens the workspace database: PostgreSQL for DATABASE_URL, else the SQLite file. */
import type { Env } from '../core/env.js';
import { DB_PATH } from '../core/defaults.js';
import { CliError } from '../core/errors.js';
import { type Db, isPostgresUrl, openDatabase } from './database.js';

/** Where the workspace database is (see the settings table). */
export interface DatabaseChoice {
  readonly db?: string;
  readonly databaseUrl?: string;
}

/**
 * Opens PostgreSQL when `databaseUrl` (DATABASE_URL) is set, else the SQLite file; migration
 * notes go to stderr. Every command that opens the workspace database comes through here, so a
 * DATABASE_URL naming another database is refused (exit 2) here, and only by those commands.
 */
export async function openWorkspaceDb(opts: DatabaseChoice, env: Env, note: (line: string) => void = (line) => env.stderr.write(`${line}\n`)): Promise<Db> {
  const url = opts.databaseUrl;
  if (url !== undefined && !isPostgresUrl(url)) {
    // Not echoed: a database URL may hold a password.
    throw new CliError('DATABASE_URL: not a postgres:// or postgresql:// URL (the value is not shown: it may hold a password)', 2);
  }
  const db = await openDatabase(url !== undefined ? { databaseUrl: url } : { dbPath: opts.db ?? DB_PATH });
  if (db.appliedMigrations.length) {
    note(`storelens: ${db.location}: applied migrations ${db.appliedMigrations.join(', ')}`);
  }
  return db;
}
