/**
 * Row locks for a check-then-write: the parent row of whatever a request checks (a cap, a
 * state, its children) is locked first, in the same transaction, so a concurrent request on
 * another connection or process waits and then sees this one's writes. On PostgreSQL that is
 * `SELECT … FOR NO KEY UPDATE`; on SQLite every write transaction already holds the database's one
 * write lock (BEGIN IMMEDIATE), so the plain read is enough.
 */
import { type Kysely, PostgresAdapter } from 'kysely';

/** True when q runs on PostgreSQL. */
export const onPostgres = (q: Kysely<any>): boolean => q.getExecutor().adapter instanceof PostgresAdapter;

type KeyColumn<DB, T extends keyof DB> = keyof DB[T] & string;

/**
 * Locks the rows of `table` where every column of `key` equals its value, for the rest of trx,
 * and resolves to them as stored now (after any commit it waited for). No row: nothing locked, [].
 */
export async function lockRows<DB, T extends keyof DB & string>(trx: Kysely<DB>, table: T, key: Partial<Record<KeyColumn<DB, T>, string | number>>): Promise<DB[T][]> {
  let query = trx.selectFrom(table as never).selectAll() as any;
  for (const [column, value] of Object.entries(key)) query = query.where(column, '=', value);
  // FOR NO KEY UPDATE: it orders writers of the row, but lets other transactions insert rows
  // that reference it (their foreign-key check takes KEY SHARE, which FOR UPDATE would block).
  if (onPostgres(trx)) query = query.forNoKeyUpdate();
  return (await query.execute()) as DB[T][];
}
