/**
 * The hidden truth of a generated panel (`storelens generate --truth FILE`): for every store of
 * the last month, the propensity p = σ(wᵀx) that an agency contacting it wins it. x is computed
 * here from the generator's own latent variables (before any value is blanked out as missing)
 * and from the change between the last two months: its own notion of what happened, written
 * independently of src/signals and src/accounts. The learning benchmark draws outcomes from p;
 * the service never sees it, and must learn what it can from those outcomes.
 *
 * HIDDEN_TRUTH is chosen so there is something to learn, and something learnable from a few
 * hundred outcomes: a few strong effects the account model's prior (accounts/prior.ts PRIOR)
 * does not know (beauty and pets stores, the plus plan, the recharge app, agent checkout), some
 * of its beliefs wrong-signed (bigger stores, Meta ads and brand-new stores lower p here, where
 * the prior raises the score), and the fresh activity the prior rightly values (a plan upgrade,
 * a new ad channel, an agentic feature adopted, apps installed).
 */
import { lit, type Duck } from './duck.js';
import { AD_COLUMNS, AGENTIC_COLUMNS } from '../core/panel-contract.js';

/** The generator's latent variables as SQL over its gen_store table (panel/generate.ts passes them in). */
export interface Latent {
  /** Plans from lowest to highest. */
  planOrder: readonly string[];
  /** The plan's index in planOrder at month index t, before capping to the top plan. */
  planIndexSql(t: number): string;
  /** The app ids installed at month index t (a list). */
  appsSql(t: number): string;
  /** Whether a store has adopted a yes/no column (ads_*, agentic) by month index t. */
  adoptedSql(col: string, t: number): string;
}

export const HIDDEN_TRUTH = {
  intercept: -2.0,
  /** Category as generated (before it is blanked): unlisted categories 0. */
  category: { beauty: 1.5, pets: 1.2, electronics: -1.0 } as Record<string, number>,
  country: {} as Record<string, number>,
  /** Plan in the last month. */
  plan: { plus: 1.2, basic: -0.6 } as Record<string, number>,
  /** Per standard deviation of the log latent size (visits, revenue and catalogue all grow with it). */
  size: -0.5,
  /** Apps installed in the last month. */
  app: { recharge: 1.2 } as Record<string, number>,
  /** Ad channels and agentic features on in the last month. */
  flag: { agent_checkout: 1.5, ads_meta: -0.6 } as Record<string, number>,
  /** Changes between the last two months. */
  change: {
    /** The plan moved up a tier. */
    plan_upgraded: 1.5,
    /** Per ad channel switched on. */
    ads_started: 1.2,
    /** Per agentic feature switched on. */
    agentic_adopted: 1.0,
    /** Per app installed. */
    app_installed: 0.3,
    /** First month in the panel. */
    opened: -1.0,
  },
} as const;

/** The standard deviation of log(s), s = exp(1.6 (U1 + U2 + U3 − 1.5)) in generate.ts: 1.6 × 0.5. */
const LOG_SIZE_SD = 0.8;

const weighted = (expr: string, weights: Record<string, number>) =>
  Object.keys(weights).length === 0 ? '0' : `CASE ${expr} ${Object.entries(weights).map(([v, w]) => `WHEN ${lit(v)} THEN ${w}`).join(' ')} ELSE 0 END`;

/** The logit of each store of the last month (index M − 1) as a SQL expression over gen_store. */
function logitSql(M: number, L: Latent): string {
  const t1 = M - 1;
  const t0 = Math.max(M - 2, 0);
  const W = HIDDEN_TRUTH;
  const top = L.planOrder.length - 1;
  const plan1 = `[${L.planOrder.map(lit).join(', ')}][least(${L.planIndexSql(t1)}, ${top}) + 1]`;
  const upgraded = `(least(${L.planIndexSql(t1)}, ${top}) > least(${L.planIndexSql(t0)}, ${top}))`;
  const flag = (c: string) => `CASE WHEN ${L.adoptedSql(c, t1)} THEN ${W.flag[c] ?? 0} ELSE 0 END`;
  const started = (cols: readonly string[]) => cols.map((c) => `CASE WHEN ${L.adoptedSql(c, t1)} AND NOT ${L.adoptedSql(c, t0)} THEN 1 ELSE 0 END`).join(' + ');
  const installed = M > 1 ? `len(list_filter(app_plan, x -> x.m = ${t1}))` : '0';
  return [
    `${W.intercept}`,
    weighted('category', W.category),
    weighted('country', W.country),
    weighted(plan1, W.plan),
    `${W.size} * ln(s) / ${LOG_SIZE_SD}`,
    `list_sum(list_transform(${L.appsSql(t1)}, a -> ${weighted('a', W.app)}))`,
    ...Object.keys(W.flag).map(flag),
    `CASE WHEN ${upgraded} THEN ${W.change.plan_upgraded} ELSE 0 END`,
    `${W.change.ads_started} * (${started(AD_COLUMNS)})`,
    `${W.change.agentic_adopted} * (${started(AGENTIC_COLUMNS)})`,
    `${W.change.app_installed} * ${installed}`,
    `CASE WHEN ${M} > 1 AND b = ${t1} THEN ${W.change.opened} ELSE 0 END`,
  ]
    .map((e) => `coalesce(${e}, 0)`)
    .join(' + ');
}

/**
 * Writes {store_id, p} for every store of the last month to `to`: CSV, or NDJSON when `file`
 * (the name it is written for) ends in .ndjson/.json.
 */
export async function writeTruth(duck: Duck, file: string, to: string, M: number, latent: Latent): Promise<void> {
  const t1 = M - 1;
  const format = /\.(nd)?json$/i.test(file) ? '(FORMAT json)' : '(FORMAT csv, HEADER true)';
  await duck.run(`
    COPY (SELECT store_id, round(1 / (1 + exp(-(${logitSql(M, latent)}))), 6) AS p
          FROM gen_store WHERE b <= ${t1} AND d > ${t1} ORDER BY i)
    TO ${lit(to)} ${format}`);
}
