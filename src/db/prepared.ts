/**
 * The one way a hot statement runs: its SQL is written once, as a kysely `sql` template (valid
 * on SQLite and PostgreSQL), and run through prepared(). On SQLite the compiled text is prepared
 * once per connection and run synchronously: directly on a connection the caller already holds
 * (a write or autocommit of db/index.ts), else while holding the connection for that one
 * statement; on PostgreSQL it runs through kysely like any query.
 */
import { CompiledQuery, type Kysely, type RawBuilder } from 'kysely';

/** A prepared statement of the SQLite connection (better-sqlite3). */
export interface SqliteStatement {
  readonly reader: boolean;
  all(...params: unknown[]): unknown[];
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
  if (root) return q.connection().execute(async () => runOn(root, query.compile(q)));
  return (await query.execute(q)).rows;
}

function runOn<R>(prepare: SqlitePrepare, c: CompiledQuery<R>): R[] {
  const st = prepare(c.sql);
  if (st.reader) return st.all(...c.parameters) as R[];
  st.run(...c.parameters);
  return [];
}

/** How many rows one PostgreSQL statement of runBulk carries (as arrays, through unnest). */
const PG_BULK_ROWS = 10_000;

export interface BulkStatement {
  /** SQLite: the statement for one row, with `?` for each of the row's values in order, then `extra`'s. */
  sqlite: string;
  /**
   * PostgreSQL: the statement for many rows, reading column k of the rows as the array
   * parameter `$k` (typed in the text, e.g. `unnest($1::text[], $2::float8[])`); parameters
   * after the columns come from `extra`.
   */
  postgres: string;
  extra?: readonly unknown[];
}

/**
 * Writes many rows with one statement text, as fast as each database allows, in the caller's
 * transaction: on SQLite one prepared statement run per row on the held connection (a
 * synchronous loop, no round trips); on PostgreSQL the rows travel as column arrays, a batch
 * per statement.
 */
export async function runBulk(q: Kysely<any>, st: BulkStatement, rows: readonly (readonly unknown[])[]): Promise<void> {
  if (rows.length === 0) return;
  const loop = (prepare: SqlitePrepare) => {
    const s = prepare(st.sqlite);
    const extra = st.extra ?? [];
    // An array binds its items in order: no spread per row.
    if (extra.length === 0) for (const r of rows) s.run(r);
    else for (const r of rows) s.run([...r, ...extra]);
  };
  const onHeld = held.get(q);
  if (onHeld) return loop(onHeld);
  const root = roots.get(q);
  if (root) return q.connection().execute(async () => loop(root));
  const width = rows[0].length;
  for (let i = 0; i < rows.length; i += PG_BULK_ROWS) {
    const chunk = rows.slice(i, i + PG_BULK_ROWS);
    const columns = Array.from({ length: width }, (_, k) => chunk.map((r) => r[k]));
    await q.executeQuery(CompiledQuery.raw(st.postgres, [...columns, ...(st.extra ?? [])]));
  }
}
