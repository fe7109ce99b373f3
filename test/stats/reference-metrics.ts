/**
 * The published metrics computed directly in JavaScript from panel rows, written from the
 * registry's definitions (not from its SQL builder): a second implementation to check every
 * published n, value, null_rate and delta against. SQL's three-valued logic is kept: NULL is
 * "unknown", AND/OR/NOT follow Kleene.
 */
import { ADS, AGENTIC, monthBefore, type Flag, type Panel, type PanelRow } from '../panel/panel-rows.js';

type B = boolean | null;
const not3 = (a: B): B => (a === null ? null : !a);
const and3 = (...xs: B[]): B => (xs.includes(false) ? false : xs.includes(null) ? null : true);
const or3 = (...xs: B[]): B => (xs.includes(true) ? true : xs.includes(null) ? null : false);
/** Number of true flags; unknown when any flag is unknown. */
const countTrue = (r: PanelRow, flags: readonly Flag[]): number | null =>
  flags.some((f) => r.flags[f] === null) ? null : flags.filter((f) => r.flags[f]).length;
const hasAny = (r: PanelRow, apps: string[]): B => (r.apps === null ? null : r.apps.some((a) => apps.includes(a)));
const PLAN_RANK = ['basic', 'grow', 'advanced', 'plus'];
const rank = (p: string | null) => (p === null || !PLAN_RANK.includes(p) ? null : PLAN_RANK.indexOf(p) + 1);

/** What a metric reads from one store-month: `row`, the same store's previous month (`prev`), and whether that month is in the panel. */
export interface Ctx {
  row: PanelRow;
  prev: PanelRow | null;
  month: string;
  priorInPanel: boolean;
}
export type Kind = 'count' | 'share' | 'mean';
/** Input of a metric for one store: boolean (share, count) or number (mean); null = unknown. */
type Input = (c: Ctx) => B | number | null;

const known = (v: unknown) => v !== null;
const prevPresent = (c: Ctx): B => (c.priorInPanel ? c.prev !== null : null);
const adopted = (c: Ctx, flags: readonly Flag[]): B =>
  prevPresent(c) ? or3(...flags.map((f) => and3(c.row.flags[f], not3(c.prev!.flags[f])))) : null;

/** `scale`: inputs are integers in 1/scale units (revenue in cents), summed exactly, divided once. */
export const REFERENCE: Record<string, { kind: Kind; digits: number; scale?: number; input: Input }> = {
  active_stores: { kind: 'count', digits: 0, input: () => true },
  new_stores: { kind: 'count', digits: 0, input: (c) => (c.row.created_month === null ? null : c.row.created_month === c.month) },
  new_store_rate: { kind: 'share', digits: 4, input: (c) => (c.row.created_month === null ? null : c.row.created_month === c.month) },
  custom_domain_share: { kind: 'share', digits: 4, input: (c) => (c.row.domain === null ? null : !c.row.domain.endsWith('.myshopify.com')) },
  plus_plan_share: { kind: 'share', digits: 4, input: (c) => (c.row.plan === null ? null : c.row.plan === 'plus') },
  mean_product_count: { kind: 'mean', digits: 2, input: (c) => c.row.product_count },
  mean_monthly_visits: { kind: 'mean', digits: 2, input: (c) => c.row.monthly_visits },
  mean_est_revenue_usd: { kind: 'mean', digits: 2, scale: 100, input: (c) => c.row.revenue_cents },
  ...Object.fromEntries(AGENTIC.map((f) => [`${f}_share`, { kind: 'share' as const, digits: 4, input: (c: Ctx) => c.row.flags[f] }])),
  agent_ready_share: { kind: 'share', digits: 4, input: (c) => and3(c.row.flags.llms_txt, c.row.flags.product_schema, c.row.flags.ai_crawlers_allowed) },
  mean_readiness_signals: { kind: 'mean', digits: 2, input: (c) => countTrue(c.row, AGENTIC) },
  mean_apps_installed: { kind: 'mean', digits: 2, input: (c) => c.row.apps?.length ?? null },
  five_plus_apps_share: { kind: 'share', digits: 4, input: (c) => (c.row.apps === null ? null : c.row.apps.length >= 5) },
  email_app_share: { kind: 'share', digits: 4, input: (c) => hasAny(c.row, ['klaviyo', 'omnisend', 'mailchimp', 'privy']) },
  reviews_app_share: { kind: 'share', digits: 4, input: (c) => hasAny(c.row, ['judgeme', 'yotpo', 'loox', 'okendo']) },
  subscriptions_app_share: { kind: 'share', digits: 4, input: (c) => hasAny(c.row, ['recharge', 'bold-subscriptions', 'appstle']) },
  support_app_share: { kind: 'share', digits: 4, input: (c) => hasAny(c.row, ['gorgias', 'tidio', 'shopify-inbox']) },
  ...Object.fromEntries(ADS.map((f) => [`${f.slice(4)}_ads_share`, { kind: 'share' as const, digits: 4, input: (c: Ctx) => c.row.flags[f] }])),
  any_ads_share: { kind: 'share', digits: 4, input: (c) => or3(...ADS.map((f) => c.row.flags[f])) },
  multi_channel_ads_share: { kind: 'share', digits: 4, input: (c) => (countTrue(c.row, ADS) === null ? null : countTrue(c.row, ADS)! >= 2) },
  mean_ad_channels: { kind: 'mean', digits: 2, input: (c) => countTrue(c.row, ADS) },
  returning_store_share: { kind: 'share', digits: 4, input: prevPresent },
  app_adopter_share: {
    kind: 'share',
    digits: 4,
    input: (c) => (c.row.apps !== null && c.prev?.apps != null ? c.row.apps.some((a) => !c.prev!.apps!.includes(a)) : null),
  },
  ad_channel_adopter_share: { kind: 'share', digits: 4, input: (c) => adopted(c, ADS) },
  agentic_adopter_share: { kind: 'share', digits: 4, input: (c) => adopted(c, AGENTIC) },
  traffic_jump_share: {
    kind: 'share',
    digits: 4,
    input: (c) => (c.row.monthly_visits !== null && c.prev?.monthly_visits != null ? c.row.monthly_visits * 10 > c.prev.monthly_visits * 11 : null),
  },
  plan_upgrade_share: {
    kind: 'share',
    digits: 4,
    input: (c) => {
      if (c.row.plan === null || c.prev?.plan == null) return null;
      const [a, b] = [rank(c.row.plan), rank(c.prev.plan)];
      return a === null || b === null ? null : a > b;
    },
  },
  mean_product_count_change: {
    kind: 'mean',
    digits: 2,
    input: (c) => (c.row.product_count !== null && c.prev?.product_count != null ? c.row.product_count - c.prev.product_count : null),
  },
  panel_stores: { kind: 'count', digits: 0, input: () => true },
  country_known_share: { kind: 'share', digits: 4, input: (c) => known(c.row.country) },
  category_known_share: { kind: 'share', digits: 4, input: (c) => known(c.row.category) },
  plan_known_share: { kind: 'share', digits: 4, input: (c) => known(c.row.plan) },
  revenue_known_share: { kind: 'share', digits: 4, input: (c) => known(c.row.revenue_cents) },
  apps_known_share: { kind: 'share', digits: 4, input: (c) => known(c.row.apps) },
  visits_known_share: { kind: 'share', digits: 4, input: (c) => known(c.row.monthly_visits) },
  agentic_checked_share: { kind: 'share', digits: 4, input: (c) => known(countTrue(c.row, AGENTIC)) },
};

/** A metric's input as a number: 1/0 for booleans, the value for means; null = unknown. */
export function inputOf(metricKey: string, c: Ctx): number | null {
  const v = REFERENCE[metricKey].input(c);
  return v === null ? null : typeof v === 'boolean' ? Number(v) : v;
}

/** Rounding as DESIGN.md fixes it (shares 4 decimals, means 2): Math.round on the scaled value, no negative zero. */
export function roundAs(x: number, digits: number): number {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
}

/** Every store of a month with what its metrics need. */
export function contexts(panel: Panel, month: string): Ctx[] {
  const rows = panel.get(month)!;
  const before = panel.get(monthBefore(month));
  return [...rows.values()].map((row) => ({ row, prev: before?.get(row.store_id) ?? null, month, priorInPanel: before !== undefined }));
}

/** The same store's context one month earlier (for delta cohorts), or null when it was absent. */
export function priorContext(panel: Panel, c: Ctx): Ctx | null {
  if (!c.prev) return null;
  const month = monthBefore(c.month);
  const before = panel.get(monthBefore(month));
  return { row: c.prev, prev: before?.get(c.row.store_id) ?? null, month, priorInPanel: before !== undefined };
}

/** The cell of a store in one breakdown: its (normalised) value, or null when unknown. */
export const cellOf = (row: PanelRow, dim: 'country' | 'category' | 'plan'): string | null => row[dim];
