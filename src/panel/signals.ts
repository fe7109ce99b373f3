/**
 * The signal registry: one entry per signal type, each a DuckDB condition over a store's row of
 * month M beside its row of the calendar-previous month, a strength in (0, 1] and a plain-words
 * detail. publish (panel/runs.ts) evaluates every entry in one query per month; docs/signals.md
 * says the same in words for users. SIGNALS_VERSION is a hash of the registry's SQL, so changing a
 * rule, a threshold or a wording rewrites every month's run by itself.
 *
 * The relation the entries read (`signalsSql`): one row per store present in M or in M−1, with
 * the panel columns of M under their own names and those of M−1 as `prev_*`, plus
 *   `present`       the store is in month M
 *   `prev_present`  the store is in month M−1
 *   `prev_known`    month M−1 is in the panel and holds stores (false in the panel's first month,
 *                   after a missing month, and next to a month file of no rows: runs.ts writeRun)
 *   `month`         month M (text)
 * Rules shared by every entry: a change needs the store in both months, and the value it compares
 * known (not NULL) in both months; an unknown value gives no signal of that kind, never a guess.
 */
import { createHash } from 'node:crypto';
import { AD_COLUMNS, AGENTIC_COLUMNS, PLANS } from '../core/panel-contract.js';
import { lit } from '../core/sql.js';
import { FEATURE_LABELS, NETWORK_NAMES, type SignalType } from '../core/signals.js';


/** traffic_up: monthly visits at least this multiple of the previous month's… */
export const TRAFFIC_UP_RATIO = 1.3;
/** traffic_down: monthly visits at most this multiple of the previous month's… */
export const TRAFFIC_DOWN_RATIO = 0.75;
/** …both only when the previous month had at least this many visits (small numbers swing). */
export const TRAFFIC_MIN_PREVIOUS = 100;
/** catalogue_growth: products at least this multiple of the previous month's… */
export const CATALOGUE_GROWTH_RATIO = 1.2;
/** …and at least this many more products. */
export const CATALOGUE_MIN_ADDED = 10;
/** revenue_jump: estimated revenue at least this multiple of the previous month's… */
export const REVENUE_JUMP_RATIO = 1.3;
/** …when the previous month's estimate was at least this many USD. */
export const REVENUE_MIN_PREVIOUS_USD = 1000;


export interface SignalDef {
  type: SignalType;
  /** SQL condition on the joined row: the store shows this signal in month M (for a per-item subject, at least one item may). */
  when: string;
  /**
   * The signal's subject. `value`: SQL giving a VARCHAR (one signal). `each`: SQL giving a list,
   * one signal per element `subject` for which `keep` (SQL reading `subject` and the row) holds
   * (none when no element does). Absent ⇒ one signal, subject NULL.
   */
  subject?: { each: string; keep: string } | { value: string };
  /** SQL strength in (0, 1]; may read `subject`. */
  strength: string;
  /** SQL plain-words detail; may read `subject`. */
  detail: string;
}

// ---- SQL building blocks ----------------------------------------------------------------

const both = (col: string) => `(present AND prev_present AND ${col} IS NOT NULL AND prev_${col} IS NOT NULL)`;
/** A whole number with thousands separators: 17040 → '17,040'. */
const count = (x: string) => `format('{:,}', CAST(${x} AS BIGINT))`;
const usd = (x: string) => `'$' || format('{:,}', CAST(round(${x}) AS BIGINT))`;
/** Change as a whole percentage of the previous value, e.g. 42 for ×1.42, 30 for ×0.70. */
const percent = (cur: string, prev: string) => `CAST(round(abs(${cur} - ${prev}) * 100.0 / ${prev}) AS BIGINT)`;
/** Strength of a rise: the relative change, at most 1 (a rise from 0 counts 1). */
const riseStrength = (cur: string, prev: string) => `CASE WHEN ${prev} = 0 THEN 1.0 ELSE least(1.0, (${cur} - ${prev}) / CAST(${prev} AS DOUBLE)) END`;
/** `subject` → its label through a fixed map (unknown values stay themselves). */
const labelOf = (labels: Record<string, string>) => `CASE subject ${Object.entries(labels).map(([k, v]) => `WHEN ${lit(k)} THEN ${lit(v)}`).join(' ')} ELSE subject END`;
/**
 * A per-item signal over flag columns: each column true in this month and false in the other
 * (both known) is one signal, its item the subject. Only stores that flip something qualify.
 */
function flipped(columns: readonly string[], value: (c: string) => string, on: 'now' | 'before'): Pick<SignalDef, 'when' | 'subject'> {
  const [a, b] = on === 'now' ? ['', 'prev_'] : ['prev_', ''];
  const flips = columns.map((c) => `${a}${c} AND NOT ${b}${c}`);
  return {
    when: `present AND prev_present AND (${flips.map((f) => `(${f})`).join(' OR ')})`,
    subject: { each: `[${flips.map((f, i) => `CASE WHEN ${f} THEN ${lit(value(columns[i]))} END`).join(', ')}]`, keep: 'subject IS NOT NULL' },
  };
}
const planRank = (col: string) => `list_position([${PLANS.map(lit).join(', ')}], ${col})`;
const plansKnown = `(present AND prev_present AND ${planRank('plan')} IS NOT NULL AND ${planRank('prev_plan')} IS NOT NULL)`;
const adNetwork = (c: string) => c.slice('ads_'.length);

// ---- the registry ------------------------------------------------------------------------

export const SIGNALS: readonly SignalDef[] = [
  {
    type: 'store_opened',
    // Absent last month (which the panel has), or in the panel's first month created that month.
    when: `present AND CASE WHEN prev_known THEN NOT prev_present ELSE created_month = month END`,
    strength: '1.0',
    detail: `CASE WHEN created_month = month THEN 'Opened in ' || month ELSE 'Appeared in the panel in ' || month || ', absent the month before' END`,
  },
  {
    type: 'store_closed',
    when: `prev_present AND NOT present`,
    strength: '1.0',
    detail: `'No longer in the panel in ' || month || ' (present the month before)'`,
  },
  {
    type: 'ad_channel_started',
    ...flipped(AD_COLUMNS, adNetwork, 'now'),
    strength: '1.0',
    detail: `'Started advertising on ' || ${labelOf(NETWORK_NAMES)}`,
  },
  {
    type: 'ad_channel_stopped',
    ...flipped(AD_COLUMNS, adNetwork, 'before'),
    strength: '1.0',
    detail: `'Stopped advertising on ' || ${labelOf(NETWORK_NAMES)}`,
  },
  {
    type: 'app_installed',
    when: `${both('apps')} AND apps <> prev_apps`,
    subject: { each: 'apps', keep: 'NOT list_contains(prev_apps, subject)' },
    strength: '1.0',
    detail: `'Installed ' || subject`,
  },
  {
    type: 'app_removed',
    when: `${both('apps')} AND apps <> prev_apps`,
    subject: { each: 'prev_apps', keep: 'NOT list_contains(apps, subject)' },
    strength: '1.0',
    detail: `'Removed ' || subject`,
  },
  {
    type: 'agentic_feature_adopted',
    ...flipped(AGENTIC_COLUMNS, (c) => c, 'now'),
    strength: '1.0',
    detail: `'Adopted ' || ${labelOf(FEATURE_LABELS)}`,
  },
  {
    type: 'agentic_feature_dropped',
    ...flipped(AGENTIC_COLUMNS, (c) => c, 'before'),
    strength: '1.0',
    detail: `'Dropped ' || ${labelOf(FEATURE_LABELS)}`,
  },
  {
    type: 'traffic_up',
    when: `${both('monthly_visits')} AND prev_monthly_visits >= ${TRAFFIC_MIN_PREVIOUS} AND monthly_visits >= prev_monthly_visits * ${TRAFFIC_UP_RATIO}`,
    strength: riseStrength('monthly_visits', 'prev_monthly_visits'),
    detail: `'Monthly visits up ' || ${percent('monthly_visits', 'prev_monthly_visits')} || '% (' || ${count('prev_monthly_visits')} || ' → ' || ${count('monthly_visits')} || ')'`,
  },
  {
    type: 'traffic_down',
    when: `${both('monthly_visits')} AND prev_monthly_visits >= ${TRAFFIC_MIN_PREVIOUS} AND monthly_visits <= prev_monthly_visits * ${TRAFFIC_DOWN_RATIO}`,
    // The share of last month's visits lost: at least 0.25 here, 1 when traffic fell to nothing.
    strength: `least(1.0, (prev_monthly_visits - monthly_visits) / CAST(prev_monthly_visits AS DOUBLE))`,
    detail: `'Monthly visits down ' || ${percent('monthly_visits', 'prev_monthly_visits')} || '% (' || ${count('prev_monthly_visits')} || ' → ' || ${count('monthly_visits')} || ')'`,
  },
  {
    type: 'catalogue_growth',
    when: `${both('product_count')} AND product_count >= prev_product_count * ${CATALOGUE_GROWTH_RATIO} AND product_count - prev_product_count >= ${CATALOGUE_MIN_ADDED}`,
    strength: riseStrength('product_count', 'prev_product_count'),
    detail: `CASE WHEN prev_product_count = 0 THEN 'Products up from 0 to ' || ${count('product_count')}
      ELSE 'Products up ' || ${percent('product_count', 'prev_product_count')} || '% (' || ${count('prev_product_count')} || ' → ' || ${count('product_count')} || ')' END`,
  },
  {
    type: 'revenue_jump',
    when: `${both('est_monthly_revenue_usd')} AND prev_est_monthly_revenue_usd >= ${REVENUE_MIN_PREVIOUS_USD} AND est_monthly_revenue_usd >= prev_est_monthly_revenue_usd * ${REVENUE_JUMP_RATIO}`,
    strength: riseStrength('est_monthly_revenue_usd', 'prev_est_monthly_revenue_usd'),
    detail: `'Estimated monthly revenue up ' || ${percent('est_monthly_revenue_usd', 'prev_est_monthly_revenue_usd')} || '% (' || ${usd('prev_est_monthly_revenue_usd')} || ' → ' || ${usd('est_monthly_revenue_usd')} || ')'`,
  },
  {
    type: 'plan_upgraded',
    when: `${plansKnown} AND ${planRank('plan')} > ${planRank('prev_plan')}`,
    subject: { value: 'plan' },
    strength: '1.0',
    detail: `'Upgraded from ' || prev_plan || ' to ' || plan`,
  },
  {
    type: 'plan_downgraded',
    when: `${plansKnown} AND ${planRank('plan')} < ${planRank('prev_plan')}`,
    subject: { value: 'plan' },
    strength: '1.0',
    detail: `'Downgraded from ' || prev_plan || ' to ' || plan`,
  },
];

/** The panel columns each row of the joined relation carries (and `prev_*` of each). */
export const SIGNAL_INPUT_COLUMNS = [
  'created_month',
  'plan',
  'product_count',
  'monthly_visits',
  'est_monthly_revenue_usd',
  'apps',
  ...AD_COLUMNS,
  ...AGENTIC_COLUMNS,
] as const;

/**
 * One SELECT of every signal of `month`: `cur` and `prev` are relations of the panel's rows of
 * month M and M−1 (the same columns as the `panel` view; `prev` empty when M−1 is not in the
 * panel, which `prevKnown` says). Columns: the contract's signals.parquet. The two months are
 * joined once (kept for the query); each entry is then a plain filter of the joined rows, and
 * only the rows it keeps are made signals (most stores show none in a month: building a list of
 * signals for every row cost several times the join). Nothing is sorted, so the rows come in no
 * particular order (a reader that needs one sorts).
 */
export function signalsSql(month: string, cur: string, prev: string, prevKnown: boolean): string {
  const cols = SIGNAL_INPUT_COLUMNS;
  const joined = `SELECT coalesce(c.store_id, p.store_id) AS store_id, ${lit(month)} AS month,
      c.store_id IS NOT NULL AS present, p.store_id IS NOT NULL AS prev_present, ${prevKnown} AS prev_known,
      ${cols.map((x) => `c.${x} AS ${x}, p.${x} AS prev_${x}`).join(', ')}
    FROM ${cur} c FULL OUTER JOIN ${prev} p ON c.store_id = p.store_id`;
  const entries = SIGNALS.map((s) => {
    const rows = !s.subject
      ? `(SELECT *, CAST(NULL AS VARCHAR) AS subject FROM signal_rows WHERE ${s.when})`
      : 'value' in s.subject
        ? `(SELECT *, CAST(${s.subject.value} AS VARCHAR) AS subject FROM signal_rows WHERE ${s.when})`
        : `(SELECT * FROM (SELECT *, CAST(unnest(${s.subject.each}) AS VARCHAR) AS subject FROM signal_rows WHERE ${s.when}) WHERE ${s.subject.keep})`;
    return `SELECT store_id, ${lit(s.type)} AS type, subject, CAST(${s.strength} AS DOUBLE) AS strength, CAST(${s.detail} AS VARCHAR) AS detail FROM ${rows}`;
  });
  return `WITH signal_rows AS MATERIALIZED (${joined})
    SELECT 'sig_' || md5(${lit(month)} || chr(0) || store_id || chr(0) || type || chr(0) || coalesce(subject, '')) AS id,
      CAST(${lit(month)} AS VARCHAR) AS month, store_id, type, subject, strength, detail
    FROM (${entries.join('\n    UNION ALL\n    ')})`;
}

/**
 * Part of every run id: a hash of every entry and of the relation they read (the SQL of one
 * month), so a changed rule, threshold or wording rewrites the runs without anyone remembering
 * to bump a number. RUNS_FORMAT covers what the SQL does not: the files' layout.
 */
// 2: a month file of no rows is no month to compare with (before, every store of the month
// after it "opened" and every store of the month before it "closed"): runs written by 1 are
// rewritten once. 3: the files' rows in no particular order (written in one pass, unsorted).
// 4: a run's stores are its month's panel file, copied (stores.<format>), typed by ingest.
const RUNS_FORMAT = 4;
export const SIGNALS_VERSION = createHash('sha256')
  .update(JSON.stringify({ format: RUNS_FORMAT, signals: SIGNALS, sql: signalsSql('2000-02', 'cur', 'prev', true) }))
  .digest('hex')
  .slice(0, 16);
