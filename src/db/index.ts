/**
 * Opens the api database: SQLite (better-sqlite3, WAL) by default, PostgreSQL (pg) when a
 * `postgres://` URL is given. Migrations run on open. The rest of the product reaches the
 * database only through the repositories beside this file.
 */
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { migrateToLatest } from './migrations.js';
import type { Database } from './schema.js';

export type { Database } from './schema.js';

export interface Db {
  readonly kysely: Kysely<Database>;
  readonly dialect: 'sqlite' | 'postgres';
  /** Human-readable location, e.g. `SQLite storelens.db` (never a password). */
  readonly location: string;
  /** Migrations applied by this open (empty when the schema was already current). */
  readonly appliedMigrations: readonly string[];
  /** Runs fn in one write transaction (`BEGIN IMMEDIATE` on SQLite); rolls back on throw. */
  write<T>(fn: (trx: Kysely<Database>) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenDatabaseOptions {
  /** SQLite file (default `storelens.db`; `:memory:` for a private in-memory database). */
  dbPath?: string;
  /** `postgres://…`: use PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** pg pool size (default 10). */
  poolSize?: number;
}

export const isPostgresUrl = (url: string | undefined): url is string =>
  !!url && /^postgres(ql)?:\/\//.test(url);

export async function openDatabase(opts: OpenDatabaseOptions = {}): Promise<Db> {
  const db = isPostgresUrl(opts.databaseUrl)
    ? await openPostgres(opts.databaseUrl, opts.poolSize ?? 10)
    : await openSqlite(opts.dbPath ?? 'storelens.db');
  try {
    let schema: string | undefined;
    if (db.dialect === 'postgres') {
      const r = await sql<{ s: string }>`select current_schema() as s`.execute(db.kysely);
      schema = r.rows[0]?.s;
    }
    const applied = await migrateToLatest(db.kysely, schema);
    return { ...db, appliedMigrations: applied };
  } catch (e) {
    await db.close();
    throw e;
  }
}

type Opened = Omit<Db, 'appliedMigrations'>;

async function openSqlite(path: string): Promise<Opened> {
  const { default: SQLite } = await import('better-sqlite3');
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma('busy_timeout = 5000');
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // kysely prepares every query anew; reusing prepared statements makes small queries several times faster.
  const statements = new Map<string, ReturnType<typeof database.prepare>>();
  const cached = {
    close: () => database.close(),
    prepare: (text: string) => {
      let st = statements.get(text);
      if (!st) {
        if (statements.size >= 2000) statements.clear();
        st = database.prepare(text);
        statements.set(text, st);
      }
      return st;
    },
  };
  const kysely = new Kysely<Database>({ dialect: new SqliteDialect({ database: cached }) });
  return {
    kysely,
    dialect: 'sqlite',
    location: `SQLite ${path}`,
    write: (fn) =>
      kysely.connection().execute(async (conn) => {
        await sql`begin immediate`.execute(conn);
        try {
          const result = await fn(conn);
          await sql`commit`.execute(conn);
          return result;
        } catch (e) {
          if (database.inTransaction) await sql`rollback`.execute(conn);
          throw e;
        }
      }),
    close: () => kysely.destroy(),
  };
}

async function openPostgres(url: string, max: number): Promise<Opened> {
  const pg = await import('pg');
  const { Pool, types } = pg.default;
  const pool = new Pool({
    connectionString: url,
    max,
    // int8 (COUNT(*), bigint columns) arrives as a string: every value we store fits a double.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === types.builtins.INT8 ? (v: string) => Number(v) : types.getTypeParser(oid, format)) as never,
    },
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const kysely = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return {
    kysely,
    dialect: 'postgres',
    location: `PostgreSQL ${safe.host}${safe.pathname}`,
    write: (fn) => kysely.transaction().execute(fn),
    close: () => kysely.destroy(),
  };
}
