/**
 * 0039_signals_by_type (PostgreSQL only): store_signals gets an index by signal type and month
 * (holding the store and run too), so list_accounts' `signal_type` filter reads only the signals of
 * that type. Its query asks, for each batch of up to 4,096 accounts of the page, whether each has
 * such a signal; PostgreSQL answers that with one hash of the type's signals, which without this
 * index it made by reading every signal of every month loaded (86,000 of a 40,000-store panel,
 * 20 to 45 ms a batch, 0.2 ms by the index; a page of a rare type reads several batches). SQLite asks the question account by
 * account through store_signals_by_store (store, month), which stays its best plan: an index led by
 * the type would have it read every signal of the type for each account, so it gets none.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import { onPostgres } from '../../db/locks.js';

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (!onPostgres(db)) return;
    await sql`create index store_signals_by_type on store_signals (type, month, store_id, run_id)`.execute(db);
  },
};
