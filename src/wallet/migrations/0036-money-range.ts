/**
 * 0036_money_range: the database refuses a wallet balance, a ledger amount or a balance_after
 * outside ±10^15 minor units (10,000,000,000,000.00 of a two-decimal currency). Every amount is
 * read into a JavaScript number, exact only up to 2^53 (about 9 × 10^15): a few of the largest
 * credits the command line takes pushed a balance past it, and balance_after lost precision.
 * credit() refuses such a credit under the wallet row's lock first (src/wallet/billing.ts,
 * MONEY_LIMIT); this keeps every other writer to the same range.
 *
 * PostgreSQL gets CHECK constraints, SQLite (which cannot add one to a table) triggers that abort
 * the write. Rows written before are not checked (PostgreSQL: NOT VALID); every later write is.
 */
import { type Kysely, type Migration, sql } from 'kysely';
import { onPostgres } from '../../db/locks.js';

const LIMIT = '1000000000000000';
const within = (column: string) => `${column} between -${LIMIT} and ${LIMIT}`;

export const migration: Migration = {
  async up(db: Kysely<any>) {
    if (onPostgres(db)) {
      await sql.raw(`alter table wallets add constraint wallets_balance_range check (${within('balance')}) not valid`).execute(db);
      await sql
        .raw(`alter table ledger_entries add constraint ledger_entries_amount_range check (${within('amount')} and ${within('balance_after')}) not valid`)
        .execute(db);
      return;
    }
    const abort = (what: string) => `begin select raise(abort, '${what} outside the range of ±${LIMIT} minor units'); end`;
    for (const op of ['insert', 'update of balance']) {
      await sql.raw(`create trigger wallets_balance_range_${op.split(' ')[0]} before ${op} on wallets when not (${within('new.balance')}) ${abort('wallets.balance')}`).execute(db);
    }
    for (const op of ['insert', 'update of amount, balance_after']) {
      await sql
        .raw(`create trigger ledger_entries_amount_range_${op.split(' ')[0]} before ${op} on ledger_entries when not (${within('new.amount')} and ${within('new.balance_after')}) ${abort('ledger_entries.amount or balance_after')}`)
        .execute(db);
    }
  },
};
