/**
 * Opens the api database: SQLite (better-sqlite3, WAL) by default, PostgreSQL (pg) when a
 * `postgres://` URL is given. Migrations run on open. The rest of the product reaches the
 * database only through the repositories beside this file, which share one convention:
 *
 * - a repository function takes a query executor first: `db.kysely`, or the `trx` a write()
 *   or autocommit() fn receives. It joins the caller's transaction and opens none of its own,
 *   so a caller composes several into one atomic write. importAccounts, which commits a large
 *   import in chunks, takes the Db;
 * - a hot statement is one `sql` template run through prepared() (see prepared.ts);
 * - an invariant of a module (e.g. every write of accounts rows bumps the workspace's
 *   accounts_version) lives inside its exported writers, never in the caller.
 */
import { stat } from 'node:fs/promises';
import { Socket } from 'node:net';
import { Kysely, PostgresDialect, SqliteAdapter, SqliteDialect, sql } from 'kysely';
import type { ClientConfig } from 'pg';
import { SQLITE_BINARY_FUNCTIONS } from './binary.js';
import { CopyRows, runCopy } from './copy.js';
import { DatabaseUnavailable, isDatabaseUnavailable } from './errors.js';
import { type Checkpointer, FALLBACK_AUTOCHECKPOINT_PAGES, startCheckpointer } from './checkpointer.js';
import { migrateToLatest, type Migrations } from './migrate.js';
import { registerHeldConnection, registerSqliteRoot, rowsAsArrays, type SqlitePrepare, statementName } from './prepared.js';
import { DB_PATH } from '../core/defaults.js';

/**
 * SQLite runs schema changes inside a transaction, though kysely's adapter says it cannot: told
 * so, the migrator runs the pending migrations in one transaction on SQLite as on PostgreSQL, and
 * a run cut short (a crash in the middle of a table's copy) leaves the schema as it was.
 */
class TransactionalDdlSqliteAdapter extends SqliteAdapter {
  override get supportsTransactionalDdl(): boolean {
    return true;
  }
}
class TransactionalDdlSqliteDialect extends SqliteDialect {
  override createAdapter(): SqliteAdapter {
    return new TransactionalDdlSqliteAdapter();
  }
}

/** An open database whose tables are DB (the workspace's: db/database.ts). */
export interface Db<DB> {
  readonly kysely: Kysely<DB>;
  readonly dialect: 'sqlite' | 'postgres';
  /** Human-readable location, e.g. `SQLite storelens.db` (never a password). */
  readonly location: string;
  /** Migrations applied by this open (empty when the schema was already current). */
  readonly appliedMigrations: readonly string[];
  /** How it was opened: another thread opens the same database with these. */
  readonly options: OpenDatabaseOptions;
  /**
   * Runs fn atomically in a write transaction; rolls back fn's changes on throw and resolves
   * only once they are committed. On SQLite the writes queued while the connection is busy
   * share one `BEGIN IMMEDIATE … COMMIT` (group commit), each in its own savepoint, so a
   * failing fn undoes only its own changes; on PostgreSQL each call is its own transaction.
   * fn must touch the database only through trx (never db.write again: that would wait for itself).
   */
  write<T>(fn: (trx: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * A short write outside any transaction of the caller (a counter, a last-used stamp): on
   * SQLite it joins the group commit like write() but without a savepoint; on PostgreSQL its
   * statements run on the pool (one round trip each, no BEGIN/COMMIT). Either way each
   * statement is atomic on its own, not fn as a whole.
   */
  autocommit<T>(fn: (q: Kysely<DB>) => Promise<T>): Promise<T>;
  /**
   * Throws when the database does not answer: PostgreSQL a `select 1` on the pool; SQLite the
   * same, after checking that the file at the path is still the one opened (a file moved or
   * deleted under a running process is still read through its open descriptor).
   */
  ping(): Promise<void>;
  /** The connections: open, idle, and the callers waiting for one (SQLite: the writes queued for the next group commit). */
  pool(): PoolState;
  close(): Promise<void>;
}

export interface PoolState {
  readonly size: number;
  readonly idle: number;
  readonly waiting: number;
}

export interface OpenDatabaseOptions {
  /** SQLite file (default `DB_PATH`, storelens.db; `:memory:` for a private in-memory database). */
  dbPath?: string;
  /** `postgres://…`: use PostgreSQL instead of SQLite. */
  databaseUrl?: string;
  /** pg pool size (default 10). */
  poolSize?: number;
}

export const isPostgresUrl = (url: string | undefined): url is string =>
  !!url && /^postgres(ql)?:\/\//.test(url);

/**
 * Opens the database and runs every pending one of `migrations` (on PostgreSQL in the
 * connection's current schema). Without migrations it opens a further connection to a database
 * its process has already migrated (the refresh worker thread's).
 */
export async function openSqlDatabase<DB>(opts: OpenDatabaseOptions, migrations?: Migrations): Promise<Db<DB>> {
  const db = isPostgresUrl(opts.databaseUrl)
    ? await openPostgres(opts.databaseUrl, opts.poolSize ?? 10)
    : await openSqlite(opts.dbPath ?? DB_PATH);
  try {
    let schema: string | undefined;
    if (db.dialect === 'postgres') {
      const r = await sql<{ s: string }>`select current_schema() as s`.execute(db.kysely);
      schema = r.rows[0]?.s;
    }
    const applied = migrations ? await migrateToLatest(db.kysely, migrations, schema) : [];
    return { ...(db as Opened<DB>), appliedMigrations: applied, options: isPostgresUrl(opts.databaseUrl) ? { databaseUrl: opts.databaseUrl, poolSize: opts.poolSize } : { dbPath: opts.dbPath ?? DB_PATH } };
  } catch (e) {
    await db.close();
    if (db.dialect === 'postgres' && isDatabaseUnavailable(e)) throw DatabaseUnavailable.at(db.location, e as Error, connectTimeoutMs(opts.databaseUrl!));
    throw e;
  }
}


/** Kernel code works on any tables; the opener hands the caller its own table types. */
type Opened<DB = any> = Omit<Db<DB>, 'appliedMigrations' | 'options'>;

/** How long a statement waits for a lock another connection holds. */
const BUSY_TIMEOUT_MS = 5000;

/** Most writes one group commit takes; the rest wait for the next. */
const GROUP_COMMIT_MAX = 256;

interface QueuedWrite {
  fn: (trx: Kysely<any>) => Promise<unknown>;
  /** autocommit(): no savepoint (each statement is atomic on its own, as on PostgreSQL). */
  bare: boolean;
  resolve: (v: unknown) => void;
  reject: (e: unknown) => void;
}

async function openSqlite(path: string): Promise<Opened> {
  const { default: SQLite } = await import('better-sqlite3');
  const database = new SQLite(path);
  database.pragma('journal_mode = WAL');
  database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  // WAL + NORMAL: a commit is durable against a crash of the process (the WAL is written before
  // COMMIT returns); only a power loss or OS crash can drop the last commits, never corrupt the file.
  database.pragma('synchronous = NORMAL');
  database.pragma('foreign_keys = ON');
  // Readers of packed columns in SQL (db/binary.ts; PostgreSQL has them as SQL functions).
  for (const [name, fn] of Object.entries(SQLITE_BINARY_FUNCTIONS)) database.function(name, { deterministic: true }, fn);
  // lower() of every letter, as PostgreSQL's is in a UTF-8 database and as SQLite's ICU extension
  // makes it: the built-in one lowers A–Z only, so a search "in any case" (find_contacts) never
  // found "ÉLODIE", even typed as written, against a pattern lowered in JavaScript.
  database.function('lower', { deterministic: true }, (s: unknown) => (typeof s === 'string' ? s.toLowerCase() : s === null ? null : String(s).toLowerCase()));
  // Checkpoints run in a worker (see checkpointer.ts), started with the first write batch.
  const file = path !== ':memory:' && path !== '' ? path : undefined;
  if (file) database.pragma(`wal_autocheckpoint = ${FALLBACK_AUTOCHECKPOINT_PAGES}`);
  let checkpointer: Checkpointer | undefined;
  // kysely prepares every query anew; reusing prepared statements makes small queries several times faster.
  const statements = new Map<string, ReturnType<typeof database.prepare>>();
  const prepare = (text: string) => {
    let st = statements.get(text);
    if (!st) {
      if (statements.size >= 2000) statements.clear();
      st = database.prepare(text);
      statements.set(text, st);
    }
    return st;
  };
  const cached = { close: () => database.close(), prepare };
  const opened = file ? await stat(file) : undefined;
  const kysely = new Kysely<any>({ dialect: new TransactionalDdlSqliteDialect({ database: cached }) });
  registerSqliteRoot(kysely, prepare as SqlitePrepare);
  const run = (text: string) => (prepare(text) as unknown as { run(): unknown }).run();

  // Group commit: every commit writes each page it changed to the WAL, so N small writes in one
  // transaction cost little more than one. Writes queued in one turn of the event loop (and while
  // a batch runs) go into the next batch, each in a savepoint of its own.
  const queue: QueuedWrite[] = [];
  let scheduled = false;
  let running: Promise<void> | undefined;
  const schedule = () => {
    if (scheduled) return;
    scheduled = true;
    setImmediate(() => {
      scheduled = false;
      running = flush().finally(() => (running = undefined));
    });
  };
  // BEGIN IMMEDIATE without blocking the event loop: while another connection (the re-ranking
  // thread, another process) holds the write lock, try again every millisecond between turns of
  // the loop rather than wait in SQLite's busy handler, which would stall every request of this
  // process meanwhile (and, backing off, miss the short gaps a ranking writer leaves).
  const beginWrite = async () => {
    const started = Date.now();
    for (;;) {
      database.pragma('busy_timeout = 0');
      try {
        run('begin immediate');
        return;
      } catch (e) {
        if ((e as { code?: string }).code !== 'SQLITE_BUSY' || Date.now() - started > BUSY_TIMEOUT_MS) throw e;
      } finally {
        database.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
      }
      await new Promise((r) => setTimeout(r, 1));
    }
  };
  const flush = async () => {
    const batch = queue.splice(0, GROUP_COMMIT_MAX);
    if (batch.length === 0) return;
    if (file && !checkpointer) checkpointer = startCheckpointer(file);
    const outcomes: ({ ok: true; value: unknown } | { ok: false; error: unknown })[] = [];
    try {
      // The lock first, outside the connection: reads go on while the write waits for it.
      await beginWrite();
      await kysely.connection().execute(async (conn) => {
        registerHeldConnection(conn, prepare as SqlitePrepare);
        try {
          for (const w of batch) {
            if (w.bare) {
              try {
                outcomes.push({ ok: true, value: await w.fn(conn) });
              } catch (error) {
                if (!database.inTransaction) throw error;
                outcomes.push({ ok: false, error });
              }
              continue;
            }
            run('savepoint w');
            try {
              outcomes.push({ ok: true, value: await w.fn(conn) });
              run('release w');
            } catch (error) {
              // An error SQLite answers by rolling back the whole transaction fails the whole batch.
              if (!database.inTransaction) throw error;
              run('rollback to w');
              run('release w');
              outcomes.push({ ok: false, error });
            }
          }
          run('commit');
        } catch (e) {
          if (database.inTransaction) run('rollback');
          throw e;
        }
      });
      batch.forEach((w, i) => {
        const o = outcomes[i]!;
        if (o.ok) w.resolve(o.value);
        else w.reject(o.error);
      });
    } catch (e) {
      if (database.inTransaction) run('rollback');
      for (const w of batch) w.reject(e);
    } finally {
      if (queue.length) schedule();
    }
  };
  const enqueue = <T>(fn: (trx: Kysely<any>) => Promise<T>, bare: boolean) =>
    new Promise<T>((resolve, reject) => {
      queue.push({ fn, bare, resolve: resolve as (v: unknown) => void, reject });
      schedule();
    });

  return {
    kysely,
    dialect: 'sqlite',
    location: `SQLite ${path}`,
    write: (fn) => enqueue(fn, false),
    autocommit: (fn) => enqueue(fn, true),
    ping: async () => {
      if (file && opened) {
        const now = await stat(file).catch(() => undefined);
        if (!now) throw new Error(`${file} is gone`);
        if (now.ino !== opened.ino || now.dev !== opened.dev) throw new Error(`${file} is another file than the one opened`);
      }
      (prepare('select 1') as unknown as { get(): unknown }).get();
    },
    pool: () => ({ size: 1, idle: running ? 0 : 1, waiting: queue.length }),
    close: async () => {
      while (queue.length || scheduled || running) await (running ?? new Promise<void>((r) => setImmediate(r)));
      await checkpointer?.stop();
      await kysely.destroy();
    },
  };
}

/**
 * A connection's socket that sends what one turn of the event loop wrote to it in one system call:
 * pg writes each message of a statement on its own (parse, bind, describe, execute, sync), five
 * writes a statement otherwise. (A TLS connection replaces it with its own socket.)
 */
function coalescingSocket(): Socket {
  const socket = new Socket();
  const write = socket.write.bind(socket) as (...args: unknown[]) => boolean;
  let corked = false;
  socket.write = ((...args: unknown[]) => {
    if (!corked) {
      corked = true;
      socket.cork();
      process.nextTick(() => {
        corked = false;
        socket.uncork();
      });
    }
    return write(...args);
  }) as Socket['write'];
  return socket;
}

/** How long opening one connection may take, unless the URL's `connect_timeout` says otherwise. */
export const CONNECT_TIMEOUT_MS = 10_000;
/** How long a caller waits for a connection when every one of the pool is busy; then the database counts as unavailable (503). */
export const POOL_WAIT_MS = 30_000;
/** Idle connections are probed by TCP keepalive after this, so one whose server vanished without a word is found. */
const KEEPALIVE_IDLE_MS = 30_000;

/**
 * How long opening a connection may take, in libpq's terms: `connect_timeout` in the URL, in
 * whole seconds; 0 or negative waits for ever, and less than 2 is 2 (libpq's minimum); unset,
 * CONNECT_TIMEOUT_MS. Without a limit a server that accepts the
 * connection and never answers (a dead host behind a load balancer, a firewall dropping packets)
 * holds every request, and every readiness probe, until the operating system gives up minutes later.
 */
export function connectTimeoutMs(url: string): number {
  const given = new URL(url).searchParams.get('connect_timeout');
  if (given === null || given.trim() === '') return CONNECT_TIMEOUT_MS;
  if (!/^\s*[+-]?\d+\s*$/.test(given)) throw new Error(`DATABASE_URL: connect_timeout must be a whole number of seconds, not "${given.slice(0, 20)}"`);
  const seconds = Number(given);
  return seconds <= 0 ? 0 : Math.max(seconds, 2) * 1000;
}

async function openPostgres(url: string, max: number): Promise<Opened> {
  const pg = await import('pg');
  const { Pool, Client, types } = pg.default;
  const connectMs = connectTimeoutMs(url);
  // A hot statement (prepared.ts) goes as a named one: parsed and planned once per connection.
  // A COPY whose one parameter is its rows (copy.ts, from runBulk) streams them on this connection.
  class NamingClient extends Client {
    // The pool's connectionTimeoutMillis is its wait for a free connection; a connection's own is the connect timeout.
    constructor(config?: ClientConfig) {
      super({ ...config, connectionTimeoutMillis: connectMs });
      // A connection that loses its server emits 'error' even while checked out, when the pool's
      // idle listener is off it: unheard, that ended the process. The statement in flight and any
      // after it fail on their own (unavailable), and the pool drops the client when it is released.
      this.on('error', () => {});
    }
    override query(...args: unknown[]): any {
      const [text, values, callback] = args;
      if (typeof text === 'string' && Array.isArray(values) && values.length === 1 && values[0] instanceof CopyRows) return runCopy(this, text, values[0]);
      const name = typeof text === 'string' && Array.isArray(values) && callback === undefined ? statementName(text) : undefined;
      return name
        ? super.query({ name, text: text as string, values: values as unknown[], ...(rowsAsArrays(text as string) ? { rowMode: 'array' as const } : {}) })
        : (super.query as (...a: unknown[]) => unknown)(...args);
    }
  }
  const pool = new Pool({
    connectionString: url,
    max,
    Client: NamingClient,
    connectionTimeoutMillis: POOL_WAIT_MS,
    keepAlive: true,
    keepAliveInitialDelayMillis: KEEPALIVE_IDLE_MS,
    stream: coalescingSocket,
    // int8 (COUNT(*), bigint columns) arrives as a string: every value we store fits a double.
    types: {
      getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
        oid === types.builtins.INT8 ? (v: string) => Number(v) : types.getTypeParser(oid, format)) as never,
    },
  });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => {});
  const kysely = new Kysely<any>({ dialect: new PostgresDialect({ pool }) });
  const safe = new URL(url);
  safe.password = '';
  return {
    kysely,
    dialect: 'postgres',
    location: `PostgreSQL ${safe.host}${safe.pathname}`,
    write: (fn) => kysely.transaction().execute(fn),
    autocommit: (fn) => fn(kysely),
    ping: async () => {
      await pool.query('select 1');
    },
    pool: () => ({ size: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => kysely.destroy(),
  };
}
