/**
 * What scoring reads of the ingested panel: every store's latest ingested month with its recent
 * signals, only from the runs ingested_months makes visible (a month being loaded is not seen).
 *
 * A million stores are read a month at a time, newest first, through the store rows' primary key
 * (run, store) in parts of ROWS_PER_READ: the newest month whole, and from each older one only the
 * stores no newer month has. No sort of the whole panel, and no part's rows outlive it; the rows'
 * repeated texts (country, category, plan, months) and empty lists are shared, so a million
 * snapshots hold less of the heap.
 */
import type { Kysely } from 'kysely';
import type { StoreSnapshot } from './model.js';
import { SIGNAL_WINDOW } from './prior.js';
import { previousMonth } from '../core/panel-contract.js';
import type { Database } from '../db/database.js';
import { ingestedMonths, type SignalTuple, signalRowsBetween, storeRowsOfMonth, type StoreMonthTuple } from '../ingest/index.js';

/** Store rows read at once: the rows of one read die young, only the snapshots stay. */
const ROWS_PER_READ = 20_000;

/** Every store's latest ingested month with the signals of the last SIGNAL_WINDOW months (newest first). */
export async function loadSnapshots(q: Kysely<Database>, latestMonth: string): Promise<StoreSnapshot[]> {
  const months = (await ingestedMonths(q)).filter((m) => m.month <= latestMonth).reverse();
  const shared = sharedValues();
  const out: StoreSnapshot[] = [];
  for (const [i, m] of months.entries()) {
    let after = '';
    for (;;) {
      const rows = await storeRowsOfMonth(q, { month: m.month, runId: m.run_id, after, limit: ROWS_PER_READ, olderOnly: i > 0 });
      for (const r of rows) out.push(snapshotOf(r, shared));
      if (rows.length < ROWS_PER_READ) break;
      after = rows[rows.length - 1][1];
    }
  }
  if (!out.every((x, k) => k === 0 || out[k - 1].store_id < x.store_id)) out.sort(byStoreId);
  // Both in store_id order (the signals sorted here as the snapshots are: a database's collation
  // may order text otherwise; the sort is stable, so each store's keep their order): each
  // store's signals found by walking the two side by side.
  const signals = (await recentSignals(q, latestMonth)).sort(byStoreIdAt1);
  let j = 0;
  for (const s of out) {
    while (j < signals.length && signals[j][1] < s.store_id) j++;
    while (j < signals.length && signals[j][1] === s.store_id) {
      const [id, , month, type, subject, strength, detail] = signals[j++];
      s.signals.push({ id, month: shared.text(month)!, type, subject, strength: Number(strength), detail });
    }
  }
  return out;
}

const byStoreIdAt1 = (a: SignalTuple, b: SignalTuple): number => (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0);

const byStoreId = (a: { store_id: string }, b: { store_id: string }): number => (a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0);

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

function snapshotOf(r: StoreMonthTuple, shared: ReturnType<typeof sharedValues>): StoreSnapshot {
  const [month, store_id, domain, country, category, plan, created_month, products, visits, revenue, apps, ads, agentic] = r;
  return {
    store_id,
    month: shared.text(month)!,
    domain,
    country: shared.text(country),
    category: shared.text(category),
    plan: shared.text(plan),
    created_month: shared.text(created_month),
    product_count: products === null ? null : Number(products),
    monthly_visits: visits === null ? null : Number(visits),
    est_monthly_revenue_usd: revenue === null ? null : Number(revenue),
    apps: shared.list(apps),
    ads: shared.list(ads),
    agentic: shared.list(agentic),
    signals: [],
  };
}

/** The signals of the last SIGNAL_WINDOW months up to latestMonth, by store_id, each store's newest first (then by id), as arrays. */
async function recentSignals(q: Kysely<Database>, latestMonth: string): Promise<SignalTuple[]> {
  let from = latestMonth;
  for (let i = 1; i < SIGNAL_WINDOW; i++) from = previousMonth(from);
  return signalRowsBetween(q, from, latestMonth);
}
