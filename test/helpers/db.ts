/**
 * Fresh databases for tests: a temporary SQLite file always, and a private PostgreSQL schema
 * when DATABASE_URL is set (each test file, and each call, gets its own).
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import BetterSqlite from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql } from 'kysely';
import { type Database, migrations, openDatabase, type Db } from '../../src/compose/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';

import { copyName, pgUrl } from './pg-names.js';
import { seedServerSecrets } from './seed-secrets.js';

export { pgUrl };

export type DialectName = 'SQLite' | 'PostgreSQL';

/** The dialects to run a suite on; PostgreSQL only when DATABASE_URL is set. */
export const dialects: { name: DialectName; skip: boolean; label: string }[] = [
  { name: 'SQLite', skip: false, label: 'SQLite' },
  { name: 'PostgreSQL', skip: !pgUrl, label: pgUrl ? 'PostgreSQL' : 'PostgreSQL (skipped: set DATABASE_URL)' },
];

export type Dialect = (typeof dialects)[number];

export interface TestDb {
  db: Db;
  /** Options to open the same database again (e.g. from the CLI). */
  dbPath?: string;
  databaseUrl?: string;
  cleanup(): Promise<void>;
}

/**
 * A fresh database, migrated to the latest schema, with the server secrets a server's first start
 * makes (seed-secrets.ts): SQLite a copy of a file this process migrated once, PostgreSQL a copy of
 * the suite's template database (test/helpers/global-db.ts).
 * `fromScratch` runs every migration in it instead (a private schema on PostgreSQL), for a test
 * of migrating itself.
 */
export async function freshDb(dialect: DialectName, opts: { poolSize?: number; fromScratch?: boolean } = {}): Promise<TestDb> {
  if (dialect === 'SQLite') {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-db-'));
    const dbPath = join(dir, 'test.db');
    if (!opts.fromScratch) writeFileSync(dbPath, await sqliteTemplate());
    const db = await openDatabase({ dbPath });
    return {
      db,
      dbPath,
      cleanup: async () => {
        await db.close();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  }
  if (!pgUrl) throw new Error('DATABASE_URL is not set');
  const template = inject('pgTemplate');
  if (opts.fromScratch || !template) return freshSchema(opts.poolSize);
  // The copy made while the previous test ran, if any; the next one is made while this one runs.
  const copy = spareCopy?.template === template ? spareCopy.name.catch(() => copyOf(template)) : copyOf(template);
  spareCopy = { template, name: copyOf(template) };
  spareCopy.name.catch(() => undefined);
  const name = await copy;
  const databaseUrl = Object.assign(new URL(pgUrl), { pathname: `/${name}` }).toString();
  const db = await openDatabase({ databaseUrl, poolSize: opts.poolSize });
  return {
    db,
    databaseUrl,
    cleanup: async () => {
      await db.close();
      // Not waited for (nothing reads a dropped copy): the next test starts meanwhile.
      adminQuery(`drop database "${name}" with (force)`).catch(() => undefined);
    },
  };
}

/**
 * A copy of the template made ahead, for this process's next freshDb: CREATE DATABASE is a few
 * tenths of a second of the server's, which the test waited for at every start. One left over
 * when the process ends (or whose drop it did not finish) is dropped with the other copies after
 * the suite (global-db.ts).
 */
let spareCopy: { template: string; name: Promise<string> } | undefined;

async function copyOf(template: string): Promise<string> {
  const name = copyName(template, randomBytes(4).toString('hex'));
  await adminQuery(`create database "${name}" template "${template}"`);
  return name;
}

/** A private schema of DATABASE_URL's database, every migration run in it. */
async function freshSchema(poolSize?: number): Promise<TestDb> {
  const schema = `t_${process.pid}_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create schema "${schema}"`);
  const url = new URL(pgUrl!);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const databaseUrl = url.toString();
  const db = await openDatabase({ databaseUrl, poolSize });
  return {
    db,
    databaseUrl,
    cleanup: async () => {
      await db.close();
      await adminQuery(`drop schema "${schema}" cascade`);
    },
  };
}

let migratedSqlite: Promise<Buffer> | undefined;

/**
 * The bytes of a SQLite file this process migrated to the latest schema, its server secrets made
 * (seed-secrets.ts); closed first, so the file held it all, and its folder removed at once.
 */
function sqliteTemplate(): Promise<Buffer> {
  migratedSqlite ??= (async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-db-template-'));
    try {
      const dbPath = join(dir, 'template.db');
      const db = await openDatabase({ dbPath });
      await seedServerSecrets(db);
      await db.close();
      return readFileSync(dbPath);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return migratedSqlite;
}

/** A second handle on the test database `t`: another connection pool, as another process has. */
export function openAgain(t: Pick<TestDb, 'dbPath' | 'databaseUrl'>): Promise<Db> {
  return openDatabase(t.databaseUrl ? { databaseUrl: t.databaseUrl } : { dbPath: t.dbPath });
}

/** For a suite: a fresh database, cleaned up after the suite; call the result in a test for its handle. */
export function useFreshDb(dialect: DialectName): () => Db {
  let t: TestDb | undefined;
  beforeAll(async () => {
    t = await freshDb(dialect);
  });
  afterAll(async () => t?.cleanup());
  return () => t!.db;
}

/**
 * For a suite: a fresh database and a second handle on it (two processes' worth of connections),
 * both closed after the suite.
 */
export function useTwoHandles(dialect: DialectName): () => { t: TestDb; other: Db } {
  let t: TestDb | undefined;
  let other: Db | undefined;
  beforeAll(async () => {
    t = await freshDb(dialect);
    other = await openAgain(t);
  });
  afterAll(async () => {
    await other?.close();
    await t?.cleanup();
  });
  return () => ({ t: t!, other: other! });
}

/**
 * `db`, whose first write waits for `between` first: another process's work landing between a
 * reader's reads and its first write, every time. `ran()` says whether it did.
 */
export function beforeFirstWrite(db: Db, between: () => Promise<unknown>): { db: Db; ran: () => boolean } {
  let ran = false;
  const racing = Object.create(db) as Db;
  racing.write = async (fn) => {
    if (!ran) {
      ran = true;
      await between();
    }
    return db.write(fn);
  };
  return { db: racing, ran: () => ran };
}

/**
 * `db`, whose first write, its work done and its locks held, waits for `between` before it
 * commits: another process's work started while this one's is not committed yet, every time.
 * `ran()` says whether it did.
 */
export function beforeFirstCommit(db: Db, between: () => Promise<unknown>): { db: Db; ran: () => boolean } {
  let ran = false;
  const racing = Object.create(db) as Db;
  racing.write = (fn) =>
    db.write(async (trx) => {
      const result = await fn(trx);
      if (!ran) {
        ran = true;
        await between();
      }
      return result;
    });
  return { db: racing, ran: () => ran };
}

/**
 * Runs `hold` in a write transaction on `db` and, once `hold` has its locks, `race` (another
 * handle's work); `hold` commits once `race` waits for a lock (PostgreSQL: so it has read whatever
 * it reads before its lock), or once `race` ended without waiting for one (then it took no lock
 * `hold` holds: its answer shows what it did). On SQLite `race`'s write waits for the one writer
 * anyway. Resolves to `race`'s outcome.
 */
export async function whileHeld<T>(db: Db, hold: (trx: Kysely<Database>) => Promise<unknown>, race: () => Promise<T>): Promise<T> {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  let locked!: () => void;
  const ready = new Promise<void>((r) => (locked = r));
  const first = db.write(async (trx) => {
    await hold(trx);
    locked();
    await held;
  });
  // A failure of `hold` before it has its locks: answered below, not waited for forever.
  first.catch(() => locked());
  await ready;
  const raced = race();
  // A refusal may come while the hold is still being let go: handled here, answered below.
  raced.catch(() => undefined);
  if (db.dialect === 'postgres') await Promise.race([lockWaiter(db.kysely), raced.then(() => undefined, () => undefined)]);
  release();
  await first;
  return raced;
}

/**
 * `first(db)`, whose first transaction, its writes made and its locks held, waits to commit until
 * `second()` (another handle's work) waits for a lock (PostgreSQL) or ended: the two overlap the
 * same way every time. Resolves to both outcomes.
 */
export async function raceAtCommit<A, B>(db: Db, first: (db: Db) => Promise<A>, second: () => Promise<B>): Promise<[PromiseSettledResult<A>, PromiseSettledResult<B>]> {
  let raced: Promise<B> | undefined;
  const held = beforeFirstCommit(db, async () => {
    raced = second();
    raced.catch(() => undefined);
    if (db.dialect === 'postgres') await Promise.race([lockWaiter(db.kysely), raced.then(() => undefined, () => undefined)]);
  });
  const [a] = await Promise.allSettled([first(held.db)]);
  if (!raced) throw new Error('raceAtCommit: the first made no write');
  const [b] = await Promise.allSettled([raced]);
  return [a, b];
}

/** PostgreSQL: resolves once a session of this database waits for a lock (polled; the test's own timeout bounds it). */
export async function lockWaiter(q: Kysely<Database>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'`.execute(q);
    if (Number(rows[0]!.n) > 0) return;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * For a test of migration `key` (e.g. '0032') over data written before it: an in-memory SQLite
 * database (or, on PostgreSQL, a private schema of DATABASE_URL's database), `before()` migrating
 * it up to that migration (not including it) and `after()` through every migration, or up to
 * `until` (not including it), resolving to the names applied. Closed (the schema dropped) after
 * the file's tests.
 */
export function databaseBeforeMigration(key: string, dialect: DialectName = 'SQLite'): { db: Kysely<any>; before(): Promise<string[]>; after(until?: string): Promise<string[]> } {
  const upTo = (end: string) => Object.fromEntries(Object.entries(migrations).filter(([k]) => k < end));
  if (dialect === 'SQLite') {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new BetterSqlite(':memory:') }) });
    afterAll(() => db.destroy());
    return { db, before: () => migrateToLatest(db, upTo(key)), after: (until) => migrateToLatest(db, until === undefined ? migrations : upTo(until)) };
  }
  if (!pgUrl) throw new Error('DATABASE_URL is not set');
  const schema = `m_${process.pid}_${randomBytes(4).toString('hex')}`;
  const url = new URL(pgUrl);
  url.searchParams.set('options', `-c search_path=${schema}`);
  const db = new Kysely<any>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: url.toString(), max: 2 }) }) });
  let created = false;
  afterAll(async () => {
    await db.destroy();
    if (created) await adminQuery(`drop schema "${schema}" cascade`);
  });
  return {
    db,
    before: async () => {
      await adminQuery(`create schema "${schema}"`);
      created = true;
      return migrateToLatest(db, upTo(key), schema);
    },
    after: (until) => migrateToLatest(db, until === undefined ? migrations : upTo(until), schema),
  };
}

async function adminQuery(text: string): Promise<void> {
  const c = new pg.Client({ connectionString: pgUrl });
  await c.connect();
  try {
    await c.query(text);
  } finally {
    await c.end();
  }
}

/**
 * A PostgreSQL database of its own (DATABASE_URL's server; tests skip without it) that can be
 * taken out of service as an operator does without stopping the server: `refuse()` refuses new
 * connections (FATAL 55000, "not currently accepting connections") and ends the open ones unless
 * `endOpen` is false, `accept()` takes connections again; `drop()` at the end.
 */
export async function refusableDatabase(prefix: string): Promise<{ databaseUrl: string; refuse(endOpen?: boolean): Promise<void>; accept(): Promise<void>; drop(): Promise<void> }> {
  const name = `${prefix}_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: pgUrl });
  await admin.connect();
  await admin.query(`create database "${name}"`);
  const accept = async () => void (await admin.query(`alter database "${name}" allow_connections true`));
  return {
    databaseUrl: Object.assign(new URL(pgUrl!), { pathname: `/${name}` }).toString(),
    refuse: async (endOpen = true) => {
      await admin.query(`alter database "${name}" allow_connections false`);
      if (endOpen) await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()', [name]);
    },
    accept,
    drop: async () => {
      await accept();
      await admin.query(`drop database "${name}" with (force)`);
      await admin.end();
    },
  };
}
