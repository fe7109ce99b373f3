/**
 * What scoring reads of the ingested panel: every store's latest ingested month and its recent
 * signals, only from the runs ingested_months makes visible (a month being loaded is not seen).
 */
import { type Kysely, sql } from 'kysely';
import { previousMonth } from '../panel/columns.js';
import type { RecentSignal, StoreSnapshot } from '../accounts/model.js';
import { SIGNAL_WINDOW } from '../accounts/model.js';
import type { Database } from './schema.js';

/** The visible run of each ingested month, oldest first: equal generations read equal data. */
export async function ingestGeneration(q: Kysely<Database>): Promise<{ month: string; run_id: string }[]> {
  return q.selectFrom('ingested_months').select(['month', 'run_id']).orderBy('month').execute();
}

const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));
const list = (v: string): string[] => JSON.parse(v) as string[];

/** Every store's latest ingested month with the signals of the last SIGNAL_WINDOW months (newest first). */
export async function loadSnapshots(q: Kysely<Database>, latestMonth: string): Promise<StoreSnapshot[]> {
  const { rows } = await sql<Record<string, unknown>>`
    select store_id, month, domain, country, category, plan, created_month, product_count, monthly_visits,
      est_monthly_revenue_usd, apps, ads, agentic
    from (
      select sm.*, row_number() over (partition by sm.store_id order by sm.month desc) as rn
      from store_months sm join ingested_months im on im.month = sm.month and im.run_id = sm.run_id
    ) t
    where rn = 1`.execute(q);
  let from = latestMonth;
  for (let i = 1; i < SIGNAL_WINDOW; i++) from = previousMonth(from);
  const signals = await sql<{ id: string; store_id: string; month: string; type: RecentSignal['type']; subject: string | null; strength: number; detail: string }>`
    select ss.id, ss.store_id, ss.month, ss.type, ss.subject, ss.strength, ss.detail
    from store_signals ss join ingested_months im on im.month = ss.month and im.run_id = ss.run_id
    where ss.month >= ${from} and ss.month <= ${latestMonth}
    order by ss.store_id, ss.month desc, ss.id`.execute(q);
  const byStore = new Map<string, RecentSignal[]>();
  for (const s of signals.rows) {
    const arr = byStore.get(s.store_id) ?? [];
    arr.push({ id: s.id, type: s.type, month: s.month, subject: s.subject, strength: Number(s.strength), detail: s.detail });
    byStore.set(s.store_id, arr);
  }
  return rows.map((r) => ({
    store_id: r.store_id as string,
    month: r.month as string,
    domain: (r.domain as string | null) ?? null,
    country: (r.country as string | null) ?? null,
    category: (r.category as string | null) ?? null,
    plan: (r.plan as string | null) ?? null,
    created_month: (r.created_month as string | null) ?? null,
    product_count: num(r.product_count),
    monthly_visits: num(r.monthly_visits),
    est_monthly_revenue_usd: num(r.est_monthly_revenue_usd),
    apps: list(r.apps as string),
    ads: list(r.ads as string),
    agentic: list(r.agentic as string),
    signals: byStore.get(r.store_id as string) ?? [],
  }));
}
