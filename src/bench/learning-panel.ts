/**
 * STAND-IN for publish --runs + ingest (until those land): loads a generated panel's months
 * straight into the api database's ingested tables (store_months, store_signals, ingested_months),
 * features as the panel has them and signals from a few simple month-over-month rules. Used only
 * by the learning benchmark; the product's path replaces it.
 */
import type { Db } from '../db/index.js';
import { AD_COLUMNS, AGENTIC_COLUMNS } from '../panel/columns.js';
import { openDuck } from '../panel/duck.js';
import { listPanel, loadPanel } from '../panel/read.js';
import type { SignalType } from '../signals/types.js';

interface Row {
  month: string;
  store_id: string;
  domain: string | null;
  country: string | null;
  category: string | null;
  plan: string | null;
  created_month: string | null;
  product_count: number | null;
  monthly_visits: number | null;
  est_monthly_revenue_usd: number | null;
  apps: string[] | null;
  ads: string[] | null;
  agentic: string[] | null;
}

interface Signal {
  month: string;
  store_id: string;
  type: SignalType;
  subject: string | null;
  strength: number;
  detail: string;
}

const PLAN_RANK = ['basic', 'grow', 'advanced', 'plus'];
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v as string));

/** Loads every month of the panel in `dir` as run `standin-<month>`; returns the months loaded. */
export async function loadPanelStandIn(db: Db, dir: string): Promise<string[]> {
  const duck = await openDuck({ threads: 1 });
  let raw: Record<string, unknown>[];
  try {
    const files = await listPanel(dir);
    await loadPanel(duck, files);
    const flags = (cols: readonly string[], strip: string) =>
      `CASE WHEN ${cols.map((c) => `${c} IS NULL`).join(' AND ')} THEN NULL ELSE list_filter([${cols.map((c) => `CASE WHEN ${c} THEN '${c.slice(strip.length)}' END`).join(', ')}], x -> x IS NOT NULL) END`;
    raw = await duck.all(`
      SELECT month, store_id, domain, country, category, plan, created_month, product_count, monthly_visits,
        est_monthly_revenue_usd, apps, ${flags(AD_COLUMNS, 'ads_')} AS ads, ${flags(AGENTIC_COLUMNS, '')} AS agentic
      FROM panel ORDER BY month, store_id`);
  } finally {
    duck.close();
  }
  const rows: Row[] = raw.map((r) => ({
    month: r.month as string,
    store_id: r.store_id as string,
    domain: (r.domain as string | null) ?? null,
    country: (r.country as string | null) ?? null,
    category: (r.category as string | null) ?? null,
    plan: (r.plan as string | null) ?? null,
    created_month: (r.created_month as string | null) ?? null,
    product_count: num(r.product_count),
    monthly_visits: num(r.monthly_visits),
    est_monthly_revenue_usd: num(r.est_monthly_revenue_usd),
    apps: (r.apps as string[] | null) ?? null,
    ads: (r.ads as string[] | null) ?? null,
    agentic: (r.agentic as string[] | null) ?? null,
  }));
  const months = [...new Set(rows.map((r) => r.month))].sort();
  const byMonth = new Map(months.map((m) => [m, new Map<string, Row>()]));
  for (const r of rows) byMonth.get(r.month)!.set(r.store_id, r);

  for (const [k, month] of months.entries()) {
    const cur = byMonth.get(month)!;
    const prev = k > 0 ? byMonth.get(months[k - 1])! : undefined;
    const signals: Signal[] = [];
    if (prev) for (const r of cur.values()) signals.push(...signalsOf(r, prev.get(r.store_id)));
    await insertMonth(db, month, [...cur.values()], signals);
  }
  return months;
}

/** The stand-in's rules: a change needs both months known. */
function signalsOf(r: Row, p: Row | undefined): Signal[] {
  const out: Signal[] = [];
  const add = (type: SignalType, subject: string | null, detail: string, strength = 1) => out.push({ month: r.month, store_id: r.store_id, type, subject, strength, detail });
  if (!p) {
    add('store_opened', null, 'Store first seen in the panel');
    return out;
  }
  const diff = (a: string[] | null, b: string[] | null, on: SignalType, off: SignalType, what: string) => {
    if (a === null || b === null) return;
    for (const x of a) if (!b.includes(x)) add(on, x, `${what} ${x} started`);
    for (const x of b) if (!a.includes(x)) add(off, x, `${what} ${x} stopped`);
  };
  diff(r.ads, p.ads, 'ad_channel_started', 'ad_channel_stopped', 'Ads on');
  diff(r.apps, p.apps, 'app_installed', 'app_removed', 'App');
  diff(r.agentic, p.agentic, 'agentic_feature_adopted', 'agentic_feature_dropped', 'Agentic feature');
  const rank = (plan: string | null) => (plan === null ? -1 : PLAN_RANK.indexOf(plan));
  if (rank(r.plan) >= 0 && rank(p.plan) >= 0 && rank(r.plan) !== rank(p.plan)) {
    add(rank(r.plan) > rank(p.plan) ? 'plan_upgraded' : 'plan_downgraded', r.plan, `Plan changed from ${p.plan} to ${r.plan}`);
  }
  const ratio = (a: number | null, b: number | null) => (a === null || b === null || b <= 0 ? null : a / b);
  const visits = ratio(r.monthly_visits, p.monthly_visits);
  if (visits !== null && visits >= 1.3) add('traffic_up', null, 'Traffic up sharply', Math.min(1, visits - 1));
  if (visits !== null && visits <= 0.75) add('traffic_down', null, 'Traffic down sharply', Math.min(1, 1 - visits));
  const products = ratio(r.product_count, p.product_count);
  if (products !== null && products >= 1.2 && r.product_count! - p.product_count! >= 10) add('catalogue_growth', null, 'Catalogue grew', Math.min(1, products - 1));
  const revenue = ratio(r.est_monthly_revenue_usd, p.est_monthly_revenue_usd);
  if (revenue !== null && revenue >= 1.3 && p.est_monthly_revenue_usd! >= 1000) add('revenue_jump', null, 'Estimated revenue jumped', Math.min(1, revenue - 1));
  return out;
}

async function insertMonth(db: Db, month: string, stores: Row[], signals: Signal[]): Promise<void> {
  const run = `standin-${month}`;
  await db.write(async (trx) => {
    for (let i = 0; i < stores.length; i += 200) {
      await trx
        .insertInto('store_months')
        .values(
          stores.slice(i, i + 200).map((s) => ({
            run_id: run,
            month,
            store_id: s.store_id,
            domain: s.domain,
            country: s.country,
            category: s.category,
            plan: s.plan,
            created_month: s.created_month,
            product_count: s.product_count,
            monthly_visits: s.monthly_visits,
            est_monthly_revenue_usd: s.est_monthly_revenue_usd,
            apps: JSON.stringify(s.apps ?? []),
            ads: JSON.stringify(s.ads ?? []),
            agentic: JSON.stringify(s.agentic ?? []),
          })),
        )
        .execute();
    }
    for (let i = 0; i < signals.length; i += 200) {
      await trx
        .insertInto('store_signals')
        .values(signals.slice(i, i + 200).map((g, j) => ({ run_id: run, id: `sig_${month}_${i + j}`, ...g })))
        .execute();
    }
    await trx.insertInto('ingested_months').values({ month, run_id: run, stores: stores.length, signals: signals.length, loaded_at: new Date(0).toISOString() }).execute();
  });
}
