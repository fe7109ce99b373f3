/**
 * Reads of the panel's per-store history (store_months, store_signals) for one store. Only
 * rows of the visible run of each month count: (month, run_id) as recorded in ingested_months.
 */
import { type Kysely, sql } from 'kysely';
import type { SignalType } from '../signals/types.js';
import type { Database } from './schema.js';

/** A store's features in one month (a row of store_months as the API and the model read it). */
export interface StoreFeatures {
  /** The month of these features (for a snapshot: the latest month the store is in the panel). */
  month: string;
  domain: string | null;
  country: string | null;
  category: string | null;
  plan: string | null;
  created_month: string | null;
  product_count: number | null;
  monthly_visits: number | null;
  est_monthly_revenue_usd: number | null;
  apps: string[];
  ads: string[];
  agentic: string[];
}

/** The store's features in the latest ingested month it is present in, or null. */
export async function latestStoreFeatures(q: Kysely<Database>, storeId: string): Promise<StoreFeatures | null> {
  const row = await q
    .selectFrom('store_months as sm')
    .innerJoin('ingested_months as im', (j) => j.onRef('im.month', '=', 'sm.month').onRef('im.run_id', '=', 'sm.run_id'))
    .select(['sm.month', 'sm.domain', 'sm.country', 'sm.category', 'sm.plan', 'sm.created_month', 'sm.product_count', 'sm.monthly_visits', 'sm.est_monthly_revenue_usd', 'sm.apps', 'sm.ads', 'sm.agentic'])
    .where('sm.store_id', '=', storeId)
    .orderBy('sm.month', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  const num = (v: unknown) => (v === null || v === undefined ? null : Number(v)); // pg returns int8 as text
  return {
    ...row,
    product_count: num(row.product_count),
    monthly_visits: num(row.monthly_visits),
    est_monthly_revenue_usd: num(row.est_monthly_revenue_usd),
    apps: JSON.parse(row.apps) as string[],
    ads: JSON.parse(row.ads) as string[],
    agentic: JSON.parse(row.agentic) as string[],
  };
}

export interface SignalSummary {
  total: number;
  by_type: Partial<Record<SignalType, number>>;
  first_month: string | null;
  last_month: string | null;
}

export async function signalSummary(q: Kysely<Database>, storeId: string): Promise<SignalSummary> {
  const rows = await q
    .selectFrom('store_signals as s')
    .innerJoin('ingested_months as im', (j) => j.onRef('im.month', '=', 's.month').onRef('im.run_id', '=', 's.run_id'))
    .select((eb) => ['s.type', eb.fn.countAll<number | string>().as('n'), eb.fn.min('s.month').as('first'), eb.fn.max('s.month').as('last')])
    .where('s.store_id', '=', storeId)
    .groupBy('s.type')
    .orderBy('s.type')
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

export interface StoreSignal {
  id: string;
  month: string;
  store_id: string;
  type: SignalType;
  subject: string | null;
  strength: number;
  detail: string;
}

/** One page of the store's signals across every ingested month: newest month first, then id. */
export async function pageStoreSignals(q: Kysely<Database>, storeId: string, after: { month: string; id: string } | undefined, limit: number): Promise<StoreSignal[]> {
  const { rows } = await sql<StoreSignal>`
    select s.id, s.month, s.store_id, s.type, s.subject, s.strength, s.detail
    from store_signals s join ingested_months im on im.month = s.month and im.run_id = s.run_id
    where s.store_id = ${storeId}
      ${after ? sql`and (s.month < ${after.month} or (s.month = ${after.month} and s.id > ${after.id}))` : sql``}
    order by s.month desc, s.id asc
    limit ${limit}`.execute(q);
  return rows.map((r) => ({ ...r, strength: Number(r.strength) }));
}
