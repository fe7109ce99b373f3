/**
 * The one way a hot statement runs: its SQL is written once, as a kysely `sql` template (valid
 * on SQLite and PostgreSQL), and run through prepared(). On SQLite the compiled text is prepared
 * once per connection and run synchronously: directly on a connection the caller already holds
 * (a write or autocommit of db/index.ts), else while holding the connection for that one
 * statement; on PostgreSQL it runs through kysely as a named statement, which each connection
 * has the server parse and plan once (statementName, db/index.ts).
 */
import { createHash } from 'node:crypto';
import { CompiledQuery, PostgresAdapter, type Expression, type Kysely, type OperationNodeSource, type RawBuilder, type SqlBool, sql } from 'kysely';
import { CopyRows } from './copy.js';

/** A prepared statement of the SQLite connection (better-sqlite3). */
export interface SqliteStatement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
  /** Rows as arrays of their columns in order (true) or as objects (false, the default). */
  raw(toggle: boolean): SqliteStatement;
  run(...params: unknown[]): { changes: number };
}
export type SqlitePrepare = (text: string) => SqliteStatement;

/** Executors bound to a SQLite connection held by the group commit → its cached prepare. */
const held = new WeakMap<Kysely<any>, SqlitePrepare>();
/** A SQLite database's root executor → its cached prepare. */
const roots = new WeakMap<Kysely<any>, SqlitePrepare>();

/** db/index.ts only: registers the root executor of a SQLite database. */
export function registerSqliteRoot(kysely: Kysely<any>, prepare: SqlitePrepare): void {
  roots.set(kysely, prepare);
}

/** db/index.ts only: registers the executor of a connection the group commit holds. */
export function registerHeldConnection(conn: Kysely<any>, prepare: SqlitePrepare): void {
  held.set(conn, prepare);
}

/** Runs one statement on q (a database's executor or a transaction) and resolves to its rows. */
export async function prepared<R>(q: Kysely<any>, query: RawBuilder<R>): Promise<R[]> {
  const onHeld = held.get(q);
  if (onHeld) return runOn(onHeld, query.compile(q));
  const root = roots.get(q);
  // The executor's own hold of the connection (kysely's connection().execute() builds a Kysely
  // around it on every call: a tenth of a SQLite read's CPU).
  if (root) return q.getExecutor().provideConnection(async () => runOn(root, query.compile(q)));
  const c = query.compile(q);
  nameStatement(c.sql);
  return (await q.executeQuery(c)).rows;
}

/** Most statement texts PostgreSQL is asked to keep prepared; texts past them are sent as they come. */
const PG_NAMED_STATEMENTS = 200;
/** The statement texts run through prepared() on PostgreSQL → the name each connection prepares it under. */
const names = new Map<string, string>();

function nameStatement(text: string): void {
  if (names.size < PG_NAMED_STATEMENTS && !names.has(text)) names.set(text, `storelens_${names.size + 1}`);
}

/**
 * db/index.ts only: the name a PostgreSQL connection prepares `text` under, if it is a hot
 * statement's (run through prepared()). Each connection parses and plans it once, at its first
 * run there, and afterwards sends only its parameters.
 */
export function statementName(text: string): string | undefined {
  return names.get(text);
}

/** Statement texts of preparedTuples that have a name: PostgreSQL hands their rows back as arrays. */
const arrayTexts = new Set<string>();
/** What preparedTuples adds to a SELECT, so the same SELECT read as objects elsewhere stays a statement of its own. */
const AS_ARRAYS = '\n-- rows as arrays';

/** db/index.ts only: whether `text`'s rows are asked of PostgreSQL as arrays (a named preparedTuples statement). */
export function rowsAsArrays(text: string): boolean {
  return arrayTexts.has(text);
}

/**
 * prepared() for a read of many rows, each as the array of its columns in the SELECT's order:
 * on SQLite a million rows of a dozen columns are read about two fifths faster as arrays than as
 * objects (no named properties made for each row).
 */
export async function preparedTuples<T extends readonly unknown[]>(q: Kysely<any>, query: RawBuilder<unknown>): Promise<T[]> {
  const onSqlite = held.get(q) ?? roots.get(q);
  if (!onSqlite) {
    // PostgreSQL: a named statement's rows come as arrays (pg's rowMode), a fifth less CPU than
    // objects for 400,000 store rows; past PG_NAMED_STATEMENTS, the objects' values in the
    // SELECT's order (its columns must then have distinct, non-numeric names).
    const c = query.compile(q);
    const text = c.sql + AS_ARRAYS;
    nameStatement(text);
    if (names.has(text)) arrayTexts.add(text);
    const rows = (await q.executeQuery(CompiledQuery.raw(text, [...c.parameters]))).rows;
    return arrayTexts.has(text) ? (rows as T[]) : rows.map((r) => Object.values(r as object) as unknown as T);
  }
  const tuples = (prepare: SqlitePrepare): T[] => {
    const c = query.compile(q);
    const st = prepare(c.sql).raw(true);
    try {
      return st.all(...c.parameters) as T[];
    } finally {
      st.raw(false);
    }
  };
  return held.has(q) ? tuples(onSqlite) : q.getExecutor().provideConnection(async () => tuples(onSqlite));
}

function runOn<R>(prepare: SqlitePrepare, c: CompiledQuery<R>): R[] {
  const st = prepare(c.sql);
  if (st.reader) return st.all(...c.parameters) as R[];
  st.run(...c.parameters);
  return [];
}

/**
 * PostgreSQL reads fresh statistics of `tables` (ANALYZE); SQLite, whose planner reads its
 * indexes rather than statistics here, does nothing. For a writer that has just added many rows
 * its next reads depend on: until autovacuum gets there (a minute or more), the planner takes a
 * table it has never analysed for a handful of rows and may join it by scanning a whole index
 * for every row of the other side (9,001 accounts: 42 s for a read that takes 40 ms after).
 */
export async function analyze(q: Kysely<any>, tables: readonly string[]): Promise<void> {
  // Asked of the executor itself, not of the registered SQLite connections: a transaction kysely
  // opened on SQLite is neither, and SQLite's ANALYZE takes one table, not a list.
  if (!(q.getExecutor().adapter instanceof PostgresAdapter)) return;
  await q.executeQuery(CompiledQuery.raw(`analyze ${tables.join(', ')}`));
}

/**
 * Whether PostgreSQL's statistics of `table` describe at least `factor` times `rows` rows (its
 * reltuples as the last ANALYZE left it: -1 when never analysed): a writer that has just added
 * `rows` asks it to know whether the planner has heard of rows like them. Always true on SQLite.
 */
export async function statisticsCover(q: Kysely<any>, table: string, rows: number, factor = 10): Promise<boolean> {
  if (!(q.getExecutor().adapter instanceof PostgresAdapter)) return true;
  const r = await sql<{ n: number }>`select reltuples::float8 as n from pg_class where oid = to_regclass(${table})`.execute(q);
  return (r.rows[0]?.n ?? -1) >= factor * rows;
}

/** How many rows one PostgreSQL statement of runBulk carries (as arrays, through unnest). */
const PG_BULK_ROWS = 10_000;
/** From this many rows runBulk sends PostgreSQL a COPY (two round trips, then the rows as text) rather than unnest statements (one round trip each). */
const PG_COPY_ROWS = 1_000;

/** A column of a bulk insert: its name and its PostgreSQL type (unnest reads each column as an array of it). */
export type BulkColumn = readonly [name: string, pgType: string];

/** The one statement many rows go in by (runBulk), written once for both databases. */
export interface BulkInsert {
  table: string;
  /** The columns of each row's values, in order. */
  columns: readonly BulkColumn[];
  /** Columns with one value for every row (a workspace, a time), after the rows' own. */
  same?: readonly (readonly [name: string, pgType: string, value: unknown])[];
  /** An `on conflict …` clause, as both databases write it. */
  conflict?: string;
  /** PostgreSQL: rows from which a COPY is sent (default PG_COPY_ROWS); fewer for rows that each carry much (a ranking's blocks). */
  copyFrom?: number;
}

/** Rows made one at a time into one reused array (no array per row): `fill(i, row)` writes row i's values. */
export interface BulkRows {
  count: number;
  /** Values per row (the insert's columns, before `same`). */
  width: number;
  fill(i: number, row: unknown[]): void;
}

const quoted = (name: string): string => `"${name}"`;
const columnList = (st: BulkInsert): string => [...st.columns, ...(st.same ?? [])].map((c) => quoted(c[0])).join(', ');

/**
 * Writes many rows with one statement, as fast as each database allows, in the caller's
 * transaction: on SQLite prepared statements of many rows each, run on the held connection (a
 * synchronous loop, no round trips); on PostgreSQL a COPY of the rows as text (with a conflict
 * clause, into a temporary table of the session first, then inserted from it), or for a few
 * rows statements that carry them as column arrays.
 */
export async function runBulk(q: Kysely<any>, st: BulkInsert, rows: readonly (readonly unknown[])[] | BulkRows): Promise<void> {
  const src: BulkRows = isBulkRows(rows)
    ? rows
    : {
        count: rows.length,
        width: rows[0]?.length ?? 0,
        fill: (i, row) => {
          const r = rows[i];
          for (let j = 0; j < r.length; j++) row[j] = r[j];
        },
      };
  if (src.count === 0) return;
  const same = (st.same ?? []).map((c) => c[2]);
  const onHeld = held.get(q) ?? roots.get(q);
  if (onHeld) {
    const text = `insert into ${quoted(st.table)} (${columnList(st)}) values (${new Array(st.columns.length + same.length).fill('?').join(', ')})${st.conflict ? ' ' + st.conflict : ''}`;
    if (held.has(q)) return sqliteBulk(onHeld, text, same, src);
    return q.getExecutor().provideConnection(async () => sqliteBulk(onHeld, text, same, src));
  }
  if (src.count >= (st.copyFrom ?? PG_COPY_ROWS)) return copyBulk(q, st, new CopyRows(src.count, src.width, src.fill, same));
  const n0 = st.columns.length;
  const text =
    `insert into ${quoted(st.table)} (${columnList(st)}) select v.*${(st.same ?? []).map((c, k) => `, $${n0 + k + 1}::${c[1]}`).join('')} ` +
    `from unnest(${st.columns.map((c, k) => `$${k + 1}::${c[1]}[]`).join(', ')}) as v${st.conflict ? ' ' + st.conflict : ''}`;
  const row: unknown[] = new Array(src.width);
  for (let i = 0; i < src.count; i += PG_BULK_ROWS) {
    const n = Math.min(PG_BULK_ROWS, src.count - i);
    const columns = Array.from({ length: src.width }, () => new Array<unknown>(n));
    for (let r = 0; r < n; r++) {
      src.fill(i + r, row);
      for (let k = 0; k < src.width; k++) columns[k][r] = row[k];
    }
    await q.executeQuery(CompiledQuery.raw(text, [...columns, ...same]));
  }
}

/**
 * The rows by COPY. COPY has no conflict clause: with one, they are copied into a temporary
 * table of the session (made once per connection, emptied around each use) and inserted from it
 * with the clause, every step on the one connection (the caller's transaction, or one held for it).
 */
async function copyBulk(q: Kysely<any>, st: BulkInsert, rows: CopyRows): Promise<void> {
  const columns = columnList(st);
  if (!st.conflict) {
    await q.executeQuery(CompiledQuery.raw(`copy ${quoted(st.table)} (${columns}) from stdin`, [rows]));
    return;
  }
  const stage = quoted(`storelens_bulk_${st.table}_${createHash('sha256').update(columns).digest('hex').slice(0, 8)}`);
  const steps = async (c: Kysely<any>) => {
    await c.executeQuery(CompiledQuery.raw(`create temp table if not exists ${stage} as select ${columns} from ${quoted(st.table)} with no data`));
    await c.executeQuery(CompiledQuery.raw(`truncate ${stage}`));
    await c.executeQuery(CompiledQuery.raw(`copy ${stage} (${columns}) from stdin`, [rows]));
    await c.executeQuery(CompiledQuery.raw(`insert into ${quoted(st.table)} (${columns}) select ${columns} from ${stage} ${st.conflict}`));
    await c.executeQuery(CompiledQuery.raw(`truncate ${stage}`));
  };
  await (q.isTransaction ? steps(q) : q.connection().execute(steps));
}

/** Values one SQLite statement of sqliteBulk binds at most (its rows × their values). */
const SQLITE_BULK_VALUES = 999;

/**
 * The rows on SQLite: the one-row statement's VALUES tuple repeated, so each run inserts up to
 * SQLITE_BULK_VALUES values' worth of rows (a run costs about as much as the rows it inserts:
 * fewer runs, less time), the last few rows one at a time. One array, refilled, binds each run.
 */
function sqliteBulk(prepare: SqlitePrepare, text: string, extra: readonly unknown[], src: BulkRows): void {
  const per = src.width + extra.length;
  const many = Math.min(100, Math.floor(SQLITE_BULK_VALUES / per));
  const parts = /^(.*\bvalues\s*)(\([?,\s]*\))(.*)$/is.exec(text);
  const one = prepare(text);
  const row: unknown[] = [...new Array(src.width), ...extra];
  let i = 0;
  if (parts && many > 1 && src.count >= many) {
    const st = prepare(parts[1] + new Array(many).fill(parts[2]).join(', ') + parts[3]);
    const values = new Array<unknown>(many * per);
    for (let r = 0; r < many; r++) for (let j = 0; j < extra.length; j++) values[r * per + src.width + j] = extra[j];
    for (; i + many <= src.count; i += many) {
      for (let r = 0; r < many; r++) {
        src.fill(i + r, row);
        for (let j = 0; j < src.width; j++) values[r * per + j] = row[j];
      }
      st.run(values);
    }
  }
  for (; i < src.count; i++) {
    src.fill(i, row);
    one.run(row);
  }
}

const isBulkRows = (rows: readonly (readonly unknown[])[] | BulkRows): rows is BulkRows => !Array.isArray(rows);

/**
 * One data-modifying statement (a kysely query builder or `sql` template) that a caller runs on
 * its transaction, or sends with others as one statement of data-modifying CTEs on PostgreSQL
 * (api/idempotency.ts): written so that it does its work only when a condition it is handed holds.
 */
export type Statement = OperationNodeSource;

/** A condition a Statement adds to its WHERE: undefined runs it unconditionally. */
export type When = Expression<SqlBool> | undefined;

/** Runs statements in order on q (a transaction), each as a hot statement (prepared()). */
export async function runStatements(q: Kysely<any>, statements: readonly Statement[]): Promise<void> {
  for (const s of statements) await prepared(q, sql`${s}`);
}
