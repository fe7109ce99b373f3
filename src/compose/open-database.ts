/** How a command opens the workspace database: PostgreSQL for DATABASE_URL, else the SQLite file. */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../core/env.js';
import { DB_PATH } from '../core/defaults.js';
import { CliError } from '../core/errors.js';
import { type Db, isPostgresUrl, openDatabase } from './database.js';

/** Where the workspace database is (see the settings table). */
export interface DatabaseChoice {
  readonly db?: string;
  readonly databaseUrl?: string;
}

export interface OpenWorkspaceDbOptions {
  /**
   * Create the SQLite file (and its tables) when it is absent. Only the commands that start an
   * installation ask for it: the serving processes (`api`, `serve --api`, `start`, `worker`) and
   * `workspaces create`, the first administration command of a new database. Every other command
   * works on data that must already be there, so a missing file is a mistyped `--db`, refused
   * before it becomes a new empty database that then answers "no workspace".
   */
  readonly create?: boolean;
  /** Where the "applied migrations" line goes (default: stderr). */
  readonly note?: (line: string) => void;
}

/** How a missing database comes to be, for the refusal that names its path. */
const HOW_TO_CREATE = 'check the path, or set DATABASE_URL for PostgreSQL; storelens workspaces create NAME or storelens api creates a new one';

/**
 * Refuses (exit 2, naming the path) a SQLite path that cannot be the database meant: a folder,
 * a file that is absent when the command does not create one, or, when it does, a folder to
 * create it in that does not exist (SQLite's own message names neither the path nor the cause).
 */
async function checkSqlitePath(file: string, create: boolean): Promise<void> {
  if (file === ':memory:' || file === '') return; // private databases, never a file
  const found = await stat(file).catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT' || e.code === 'ENOTDIR') return null;
    throw e;
  });
  if (found?.isDirectory()) throw new CliError(`--db ${file}: is a folder, not a SQLite database file`, 2);
  if (found) return;
  if (!create) throw new CliError(`--db ${file}: no database there (${HOW_TO_CREATE})`, 2);
  const folder = path.dirname(file);
  const parent = await stat(folder).catch(() => null);
  if (!parent?.isDirectory()) throw new CliError(`--db ${file}: the folder ${folder} does not exist (storelens creates the database file, not its folder)`, 2);
}

/**
 * Opens PostgreSQL when `databaseUrl` (DATABASE_URL) is set, else the SQLite file, which must
 * exist unless `create` is set; migration notes go to stderr. Every command that opens the
 * workspace database comes through here, so a DATABASE_URL naming another database, or a --db
 * naming no database, is refused (exit 2) here, and only by those commands.
 */
export async function openWorkspaceDb(opts: DatabaseChoice, env: Env, how: OpenWorkspaceDbOptions = {}): Promise<Db> {
  const url = opts.databaseUrl;
  if (url !== undefined && (!isPostgresUrl(url) || !URL.canParse(url))) {
    // Not echoed: a database URL may hold a password.
    throw new CliError('DATABASE_URL: not a postgres:// or postgresql:// URL (the value is not shown: it may hold a password)', 2);
  }
  const dbPath = opts.db ?? DB_PATH;
  if (url === undefined) await checkSqlitePath(dbPath, how.create ?? false);
  const db = await openDatabase(url !== undefined ? { databaseUrl: url } : { dbPath });
  if (db.appliedMigrations.length) {
    const note = how.note ?? ((line: string) => env.stderr.write(`${line}\n`));
    note(`storelens: ${db.location}: applied migrations ${db.appliedMigrations.join(', ')}`);
  }
  return db;
}
