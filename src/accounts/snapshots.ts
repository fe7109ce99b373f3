/**
 * What scoring reads of the ingested panel: every store's latest ingested month with its recent
 * signals, only from the runs ingested_months makes visible (a month being loaded is not seen).
 *
 * A million stores are read a month at a time, newest first, through the store rows' primary key
 * (run, store): the newest month whole, and from each older one only the stores no newer month
 * has (their ids read first). So the read is proportional to the stores, not to every month the
 * panel keeps, with no sort of the whole panel; the rows' repeated texts (country, category,
 * plan, months) and empty lists are shared, so a million snapshots hold less of the heap.
 */
import { type Kysely, sql } from 'kysely';
import type { RecentSignal, StoreSnapshot } from './model.js';
import { SIGNAL_WINDOW } from './prior.js';
import { previousMonth } from '../core/panel-contract.js';
import type { Database } from '../compose/database.js';
import { prepared } from '../db/prepared.js';
import type { StoreMonthsTable } from '../ingest/tables.js';
import { ingestedMonths, visibleStoreSignals } from '../ingest/stores.js';

type StoreRow = Omit<StoreMonthsTable, 'run_id'>;

/** Store ids a query names at once. */
const IDS_PER_QUERY = 500;

/** Every store's latest ingested month with the signals of the last SIGNAL_WINDOW months (newest first). */
export async function loadSnapshots(q: Kysely<Database>, latestMonth: string): Promise<StoreSnapshot[]> {
  const months = (await ingestedMonths(q)).filter((m) => m.month <= latestMonth).reverse();
  const shared = sharedValues();
  const out: StoreSnapshot[] = [];
  const seen = new Set<string>();
  for (const [i, m] of months.entries()) {
    let rows: StoreRow[];
    if (i === 0) rows = await storeRows(q, m.month, m.run_id);
    else {
      const ids = await prepared(q, sql<{ store_id: string }>`select store_id from store_months where run_id = ${m.run_id}`);
      const missing = ids.map((r) => r.store_id).filter((id) => !seen.has(id));
      rows = [];
      for (let j = 0; j < missing.length; j += IDS_PER_QUERY) rows.push(...(await storeRows(q, m.month, m.run_id, missing.slice(j, j + IDS_PER_QUERY))));
    }
    for (const r of rows) {
      seen.add(r.store_id);
      out.push(snapshotOf(r, shared));
    }
  }
  if (!out.every((x, k) => k === 0 || out[k - 1].store_id < x.store_id)) out.sort((a, b) => (a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0));
  const byStore = await recentSignals(q, latestMonth);
  for (const s of out) s.signals = byStore.get(s.store_id) ?? [];
  return out;
}

/** The month's store rows of its visible run (all, or those of `ids`), in store_id order. */
async function storeRows(q: Kysely<Database>, month: string, runId: string, ids?: readonly string[]): Promise<StoreRow[]> {
  return prepared(
    q,
    sql<StoreRow>`select sm.month, sm.store_id, sm.domain, sm.country, sm.category, sm.plan, sm.created_month, sm.product_count, sm.monthly_visits,
        sm.est_monthly_revenue_usd, sm.apps, sm.ads, sm.agentic
      from store_months sm join ingested_months im on im.month = sm.month and im.run_id = sm.run_id
      where sm.run_id = ${runId} and sm.month = ${month} ${ids ? sql`and sm.store_id in (${sql.join(ids)})` : sql``}
      order by sm.store_id`,
  );
}

/** Interns the texts many stores repeat, and parses the lists, sharing the empty one. */
function sharedValues() {
  const texts = new Map<string, string>();
  const lists = new Map<string, string[]>();
  const EMPTY: string[] = [];
  return {
    text: (v: string | null): string | null => {
      if (v === null) return null;
      const hit = texts.get(v);
      if (hit !== undefined) return hit;
      if (texts.size < 100_000) texts.set(v, v);
      return v;
    },
    list: (json: string): string[] => {
      if (json === '[]') return EMPTY;
      let hit = lists.get(json);
      if (!hit) {
        hit = JSON.parse(json) as string[];
        if (lists.size < 100_000) lists.set(json, hit);
      }
      return hit;
    },
  };
}

function snapshotOf(r: StoreRow, shared: ReturnType<typeof sharedValues>): StoreSnapshot {
  return {
    store_id: r.store_id,
    month: shared.text(r.month)!,
    domain: r.domain,
    country: shared.text(r.country),
    category: shared.text(r.category),
    plan: shared.text(r.plan),
    created_month: shared.text(r.created_month),
    product_count: r.product_count === null ? null : Number(r.product_count),
    monthly_visits: r.monthly_visits === null ? null : Number(r.monthly_visits),
    est_monthly_revenue_usd: r.est_monthly_revenue_usd === null ? null : Number(r.est_monthly_revenue_usd),
    apps: shared.list(r.apps),
    ads: shared.list(r.ads),
    agentic: shared.list(r.agentic),
    signals: [],
  };
}

/** The signals of the last SIGNAL_WINDOW months up to latestMonth, by store, each store's newest first (then by id). */
async function recentSignals(q: Kysely<Database>, latestMonth: string): Promise<Map<string, RecentSignal[]>> {
  let from = latestMonth;
  for (let i = 1; i < SIGNAL_WINDOW; i++) from = previousMonth(from);
  const signals = await visibleStoreSignals(q)
    .select(['ss.id', 'ss.store_id', 'ss.month', 'ss.type', 'ss.subject', 'ss.strength', 'ss.detail'])
    .where('ss.month', '>=', from)
    .where('ss.month', '<=', latestMonth)
    .orderBy('ss.store_id')
    .orderBy('ss.month', 'desc')
    .orderBy('ss.id')
    .execute();
  const byStore = new Map<string, RecentSignal[]>();
  for (const { store_id, ...signal } of signals) {
    const arr = byStore.get(store_id) ?? [];
    arr.push(signal);
    byStore.set(store_id, arr);
  }
  return byStore;
}
