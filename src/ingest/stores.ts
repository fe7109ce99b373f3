/**
 * The panel's stores in the api database: per-month features (store_months) and signals
 * (store_signals), loaded by ingest (src/ingest/) from publish's private runs folder.
 *
 * Every row carries the run it came from. A month is visible through ingested_months, which names
 * the one run of that month readers see; ingest loads a new run beside the old one, flips
 * ingested_months in one small transaction, then deletes the old run's rows. So a reader must
 * only ever read store rows through visibleStoreMonths / visibleStoreSignals (the join on
 * (month, run_id)): rows of a run being loaded, or of a run superseded a moment ago, stay out.
 */
import { sql, type Kysely } from 'kysely';
import { prepared, preparedTuples, runBulk } from '../db/prepared.js';
import type { Database } from '../db/database.js';
import type { SignalType } from '../core/signals.js';
import type { IngestedMonthsTable, StoreMonthsTable, StoreSignalsTable } from './tables.js';

export type IngestedMonth = IngestedMonthsTable;
export type StoreMonthRow = StoreMonthsTable;
export type StoreSignalRow = StoreSignalsTable;

/** Every ingested month with its visible run, oldest first. */
export async function ingestedMonths(q: Kysely<Database>): Promise<IngestedMonth[]> {
  const rows = await q.selectFrom('ingested_months').selectAll().orderBy('month').execute();
  return rows.map((r) => ({ ...r, stores: Number(r.stores), signals: Number(r.signals) }));
}

/**
 * store_months rows of the visible runs only, as a query to extend: alias `sm` for the store row,
 * `im` for its ingested_months row. E.g. one store's history:
 * `visibleStoreMonths(q).selectAll('sm').where('sm.store_id', '=', id).orderBy('sm.month')`.
 */
export function visibleStoreMonths(q: Kysely<Database>) {
  return q
    .selectFrom('store_months as sm')
    .innerJoin('ingested_months as im', (j) => j.onRef('im.month', '=', 'sm.month').onRef('im.run_id', '=', 'sm.run_id'));
}

/**
 * The countries, categories and plans of the stores of the latest ingested month (null before
 * any ingest): what a workspace profile's lists are compared with.
 */
export async function latestMonthValues(q: Kysely<Database>): Promise<{ month: string; values: Record<'country' | 'category' | 'plan', Set<string>> } | null> {
  const latest = await q.selectFrom('ingested_months').select(['month', 'run_id']).orderBy('month', 'desc').limit(1).executeTakeFirst();
  if (!latest) return null;
  const rows = await q.selectFrom('store_months').select(['country', 'category', 'plan']).distinct().where('run_id', '=', latest.run_id).execute();
  const values = { country: new Set<string>(), category: new Set<string>(), plan: new Set<string>() };
  for (const r of rows) for (const k of ['country', 'category', 'plan'] as const) if (r[k] !== null) values[k].add(r[k]);
  return { month: latest.month, values };
}

/** store_signals rows of the visible runs only (alias `ss`, and `im`); see visibleStoreMonths. */
export function visibleStoreSignals(q: Kysely<Database>) {
  return q
    .selectFrom('store_signals as ss')
    .innerJoin('ingested_months as im', (j) => j.onRef('im.month', '=', 'ss.month').onRef('im.run_id', '=', 'ss.run_id'));
}

/** A visible store row as storeRowsOfMonth reads it (its lists as JSON text): its values in STORE_MONTH_COLUMNS' order, without run_id. */
export type StoreMonthTuple = [
  month: string,
  store_id: string,
  domain: string | null,
  country: string | null,
  category: string | null,
  plan: string | null,
  created_month: string | null,
  product_count: number | null,
  monthly_visits: number | null,
  est_monthly_revenue_usd: number | null,
  apps: string,
  ads: string,
  agentic: string,
];

/**
 * The next `limit` store rows of a month's visible run after store `after`, in store_id order
 * (through the rows' primary key: no sort); `olderOnly`: only stores no newer visible month has.
 * How a scoring reads the whole panel a part at a time (accounts/snapshots.ts).
 */
export async function storeRowsOfMonth(
  q: Kysely<Database>,
  o: { month: string; runId: string; after: string; limit: number; olderOnly: boolean },
): Promise<StoreMonthTuple[]> {
  return preparedTuples<StoreMonthTuple>(
    q,
    sql`select sm.month, sm.store_id, sm.domain, sm.country, sm.category, sm.plan, sm.created_month, sm.product_count, sm.monthly_visits,
        sm.est_monthly_revenue_usd, sm.apps, sm.ads, sm.agentic
      from store_months sm join ingested_months im on im.month = sm.month and im.run_id = sm.run_id
      where sm.run_id = ${o.runId} and sm.month = ${o.month} and sm.store_id > ${o.after}
        ${o.olderOnly ? sql`and not exists (select 1 from store_months n join ingested_months nm on nm.month = n.month and nm.run_id = n.run_id where n.store_id = sm.store_id and n.month > ${o.month})` : sql``}
      order by sm.store_id
      limit ${o.limit}`,
  );
}

/** A visible signal as signalRowsBetween reads it: id, store_id, month, type, subject, strength, detail. */
export type SignalTuple = [id: string, store_id: string, month: string, type: SignalType, subject: string | null, strength: number, detail: string];

/**
 * The visible signals of months from … to (inclusive), by store_id, each store's newest month
 * first, then by id, each as the array of its columns (a scoring reads a month's hundreds of
 * thousands at once: accounts/snapshots.ts).
 */
export async function signalRowsBetween(q: Kysely<Database>, from: string, to: string): Promise<SignalTuple[]> {
  return preparedTuples<SignalTuple>(
    q,
    sql`select ss.id, ss.store_id, ss.month, ss.type, ss.subject, ss.strength, ss.detail
      from store_signals ss join ingested_months im on im.month = ss.month and im.run_id = ss.run_id
      where ss.month >= ${from} and ss.month <= ${to}
      order by ss.store_id, ss.month desc, ss.id`,
  );
}

export const STORE_MONTH_COLUMNS = [
  'run_id',
  'month',
  'store_id',
  'domain',
  'country',
  'category',
  'plan',
  'created_month',
  'product_count',
  'monthly_visits',
  'est_monthly_revenue_usd',
  'apps',
  'ads',
  'agentic',
] as const satisfies readonly (keyof StoreMonthRow)[];

export const STORE_SIGNAL_COLUMNS = ['run_id', 'id', 'month', 'store_id', 'type', 'subject', 'strength', 'detail'] as const satisfies readonly (keyof StoreSignalRow)[];

/** PostgreSQL element types of the columns, for the unnest() bulk insert. */
const PG_TYPES: Record<string, string> = {
  product_count: 'int8',
  monthly_visits: 'int8',
  est_monthly_revenue_usd: 'float8',
  strength: 'float8',
};

type Table = 'store_months' | 'store_signals';

/** Inserts rows in the caller's transaction at bulk speed (prepared.ts runBulk). */
export async function insertStoreMonths(trx: Kysely<Database>, rows: readonly StoreMonthRow[]): Promise<void> {
  await insertRows(trx, 'store_months', STORE_MONTH_COLUMNS, rows as unknown as readonly Record<string, unknown>[]);
}

export async function insertStoreSignals(trx: Kysely<Database>, rows: readonly StoreSignalRow[]): Promise<void> {
  await insertRows(trx, 'store_signals', STORE_SIGNAL_COLUMNS, rows as unknown as readonly Record<string, unknown>[]);
}

async function insertRows(trx: Kysely<Database>, table: Table, columns: readonly string[], rows: readonly Record<string, unknown>[]): Promise<void> {
  await runBulk(
    trx,
    { table, columns: columns.map((c) => [c, PG_TYPES[c] ?? 'text'] as const) },
    {
      count: rows.length,
      width: columns.length,
      fill: (i, row) => {
        const r = rows[i];
        for (let k = 0; k < columns.length; k++) row[k] = r[columns[k]] ?? null;
      },
    },
  );
}

/**
 * Makes `next` the visible run of its month, in the caller's transaction, only if the month's
 * visible run is still `expected` (null: the month was never ingested). False when another
 * ingest got there first (compare-and-set), and then nothing changed.
 */
export async function flipIngestedMonth(trx: Kysely<Database>, next: IngestedMonth, expected: string | null): Promise<boolean> {
  if (expected === null) {
    const r = await trx
      .insertInto('ingested_months')
      .values(next)
      .onConflict((oc) => oc.column('month').doNothing())
      .executeTakeFirst();
    return Number(r.numInsertedOrUpdatedRows ?? 0) === 1;
  }
  const r = await trx
    .updateTable('ingested_months')
    .set({ run_id: next.run_id, stores: next.stores, signals: next.signals, loaded_at: next.loaded_at })
    .where('month', '=', next.month)
    .where('run_id', '=', expected)
    .executeTakeFirst();
  return Number(r.numUpdatedRows) === 1;
}

/**
 * The run ids that have rows in a table, found by index seeks (one per run, not a scan of the
 * table): `min(run_id) where run_id > previous`, on the (run_id, …) primary key.
 */
export async function runIdsWithRows(q: Kysely<Database>, table: Table): Promise<string[]> {
  const ids: string[] = [];
  let after = '';
  for (;;) {
    const rows = await prepared(q, sql<{ r: string | null }>`select min(run_id) as r from ${sql.table(table)} where run_id > ${after}`);
    const r = rows[0]?.r;
    if (r === null || r === undefined) return ids;
    ids.push(r);
    after = r;
  }
}

/** Deletes up to `limit` rows of a run from a table, in the caller's transaction; resolves to how many. */
export async function deleteRunRows(trx: Kysely<Database>, table: Table, runId: string, limit: number): Promise<number> {
  const key = sql.ref(table === 'store_months' ? 'store_id' : 'id');
  const t = sql.table(table);
  const r = await sql`delete from ${t} where run_id = ${runId} and ${key} in (select ${key} from ${t} where run_id = ${runId} limit ${limit})`.execute(trx);
  return Number(r.numAffectedRows ?? 0);
}
