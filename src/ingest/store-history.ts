/**
 * Reads of the panel's per-store history (store_months, store_signals) for one store. Only
 * rows of the visible run of each month count: (month, run_id) as recorded in ingested_months.
 */
import type { Kysely } from 'kysely';
import type { SignalType } from '../core/signals.js';
import type { Database } from '../db/database.js';
import type { StoreMonthsTable, StoreSignalsTable } from './tables.js';
import { visibleStoreMonths, visibleStoreSignals } from './stores.js';

/**
 * A store's features in one month as the API and the model read it: a store_months row without
 * its run and store, the lists parsed. For a snapshot, `month` is the latest month the store is in.
 */
export type StoreFeatures = Omit<StoreMonthsTable, 'run_id' | 'store_id' | 'apps' | 'ads' | 'agentic'> & { apps: string[]; ads: string[]; agentic: string[] };

/** A store_months row as the API and the model read it (the lists parsed). */
export function toFeatures(row: Omit<StoreMonthsTable, 'run_id' | 'store_id'>): StoreFeatures {
  return {
    month: row.month,
    domain: row.domain,
    country: row.country,
    category: row.category,
    plan: row.plan,
    created_month: row.created_month,
    product_count: row.product_count,
    monthly_visits: row.monthly_visits,
    est_monthly_revenue_usd: row.est_monthly_revenue_usd,
    apps: JSON.parse(row.apps) as string[],
    ads: JSON.parse(row.ads) as string[],
    agentic: JSON.parse(row.agentic) as string[],
  };
}

/** The store's features in the latest ingested month it is present in, or null. */
export async function latestStoreFeatures(q: Kysely<Database>, storeId: string): Promise<StoreFeatures | null> {
  const row = await visibleStoreMonths(q).selectAll('sm').where('sm.store_id', '=', storeId).orderBy('sm.month', 'desc').limit(1).executeTakeFirst();
  return row ? toFeatures(row) : null;
}

export interface SignalSummary {
  total: number;
  by_type: Partial<Record<SignalType, number>>;
  first_month: string | null;
  last_month: string | null;
}

export async function signalSummary(q: Kysely<Database>, storeId: string): Promise<SignalSummary> {
  const rows = await visibleStoreSignals(q)
    .select((eb) => ['ss.type', eb.fn.countAll<number | string>().as('n'), eb.fn.min('ss.month').as('first'), eb.fn.max('ss.month').as('last')])
    .where('ss.store_id', '=', storeId)
    .groupBy('ss.type')
    .orderBy('ss.type')
    .execute();
  const summary: SignalSummary = { total: 0, by_type: {}, first_month: null, last_month: null };
  for (const r of rows) {
    const n = Number(r.n);
    summary.total += n;
    summary.by_type[r.type] = n;
    if (summary.first_month === null || r.first < summary.first_month) summary.first_month = r.first;
    if (summary.last_month === null || r.last > summary.last_month) summary.last_month = r.last;
  }
  return summary;
}

/** A signal as the API reads it: a store_signals row without its run. */
export type StoreSignal = Omit<StoreSignalsTable, 'run_id'>;

/** One page of the store's signals across every ingested month: newest month first, then id. */
export async function pageStoreSignals(q: Kysely<Database>, storeId: string, after: { month: string; id: string } | undefined, limit: number): Promise<StoreSignal[]> {
  let query = visibleStoreSignals(q)
    .select(['ss.id', 'ss.month', 'ss.store_id', 'ss.type', 'ss.subject', 'ss.strength', 'ss.detail'])
    .where('ss.store_id', '=', storeId);
  if (after) query = query.where((eb) => eb.or([eb('ss.month', '<', after.month), eb.and([eb('ss.month', '=', after.month), eb('ss.id', '>', after.id)])]));
  return query.orderBy('ss.month', 'desc').orderBy('ss.id', 'asc').limit(limit).execute();
}
