/**
 * The DuckDB edge of the statistics: one pass per month over the panel joined to the same
 * stores' previous month, grouped by every dimension at once. Returns exact integers and
 * decimal sums as plain numbers (stats/aggregate.ts); everything after this is pure.
 */
import { emptyCell, compareValues, type Cell, type MonthAgg } from '../stats/aggregate.js';
import { METRICS, PAGES, type MetricDef } from '../stats/registry.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, DIMENSIONS, monthIndex, type DimensionName } from './columns.js';
import { ident, toNumber, type Duck } from './duck.js';
import { FINGERPRINT_COLUMNS, fingerprintOf, fingerprintTable } from './fingerprint.js';

/** Macros the registry's SQL uses. */
export async function registerMacros(duck: Duck): Promise<void> {
  await duck.run(`CREATE OR REPLACE MACRO plan_rank(p) AS list_position(['basic', 'grow', 'advanced', 'plus'], p)`);
}

/** Columns the trend metrics read from the previous month, as `prev_*`. */
export const PREV_COLUMNS = ['plan', 'apps', 'product_count', 'monthly_visits', ...AD_COLUMNS, ...AGENTIC_COLUMNS];

/**
 * One month's facts: each row of `cur` (the month's typed panel rows) with each metric's input
 * and eligibility, evaluated beside the same store's values in the calendar-previous month
 * (`prev_*` from `prev`, for trends), and its own PREV_COLUMNS (the next month's `prev`).
 * `prev` is null when the previous month is not loaded: then `prev_present` is NULL (unknown),
 * not FALSE. With `fingerprint`, also each row's fingerprint bucket and hash (fingerprint.ts).
 */
function factsSql(cur: string, prev: string | null, metrics: readonly MetricDef[], fingerprint: boolean): string {
  const inputs = metrics.map((m) => `(${m.input}) AS in_${m.key}` + (m.eligible ? `, (${m.eligible}) AS el_${m.key}` : '')).join(',\n      ');
  // Without the previous month, its columns are NULL (typed like this month's) and so is prev_present.
  const from = prev ?? `(SELECT * FROM ${cur} LIMIT 0)`;
  const present = prev ? 'q.q_store_id IS NOT NULL' : 'CAST(NULL AS BOOLEAN)';
  const prevColumns = `${present} AS prev_present, ${PREV_COLUMNS.map((c) => `q.prev_${c}`).join(', ')}`;
  const join = `LEFT JOIN (SELECT store_id AS q_store_id, ${PREV_COLUMNS.map((c) => `${c} AS prev_${c}`).join(', ')} FROM ${from}) q ON q.q_store_id = p.store_id`;
  const own = PREV_COLUMNS.filter((c) => !['plan', 'apps'].includes(c)).join(', ');
  return `
    SELECT month, mi, store_id, country, category, plan, apps, ${own},
      ${fingerprint ? `${FINGERPRINT_COLUMNS},` : ''}
      ${inputs}
    FROM (SELECT p.*, ${prevColumns} FROM ${cur} p ${join})`;
}

/** One aggregate column: its alias, its SQL over facts rows, and whether it is a sum (exact decimal or huge integer) rather than a count. */
interface AggregateColumn {
  alias: string;
  expr: string;
  sum: boolean;
}

/**
 * The sums of each metric. Written so that metrics without an eligibility rule share the plain
 * counts (`count(*)`, `count(p_store_id)`), which DuckDB computes once for all of them.
 */
function aggregateColumns(metrics: readonly MetricDef[]): AggregateColumn[] {
  const and = (...conds: Array<string | false>) => conds.filter(Boolean).join(' AND ') || 'TRUE';
  return metrics.flatMap((m) => {
    const k = m.key;
    const cur = `in_${k}`;
    const prev = `p_in_${k}`;
    const el = m.eligible !== undefined && `el_${k}`;
    const pel = m.eligible !== undefined && `p_el_${k}`;
    const countIf = (alias: string, ...c: Array<string | false>): AggregateColumn => ({ alias: `${alias}:${k}`, expr: c.every((x) => !x) ? 'count(*)' : `count_if(${and(...c)})`, sum: false });
    const sumIf = (alias: string, x: string, ...c: Array<string | false>): AggregateColumn => ({ alias: `${alias}:${k}`, expr: `sum(CASE WHEN ${and(...c)} THEN ${x} END)`, sum: true });
    const out = [countIf('e', el), countIf('cohort_n', el, 'p_store_id IS NOT NULL')];
    if (m.kind === 'count') {
      out.push(countIf('n', el), countIf('num', el, cur));
    } else {
      const both = [el, pel, `${cur} IS NOT NULL`, `${prev} IS NOT NULL`] as const;
      out.push(countIf('n', el, `${cur} IS NOT NULL`), countIf('matched', ...both));
      if (m.kind === 'mean') out.push(sumIf('num', cur, el), sumIf('cur_sum', cur, ...both), sumIf('prev_sum', prev, ...both));
      else out.push(countIf('num', el, cur), countIf('cur_sum', ...both, cur), countIf('prev_sum', ...both, prev));
    }
    return out;
  });
}

/** The aggregates as SELECT columns over facts rows; sums come back as exact text. */
const aggregates = (metrics: readonly MetricDef[]): string =>
  aggregateColumns(metrics)
    .map((c) => `${c.sum ? `CAST(${c.expr} AS VARCHAR)` : c.expr} AS "${c.alias}"`)
    .join(',\n      ');

/** A month's facts next to the same stores' facts of the previous month (`p_*`, NULL when absent). */
function joined(cur: string, prev: string | null, metrics: readonly MetricDef[], unnestApps = false): string {
  const current = unnestApps ? `(SELECT *, unnest(apps) AS app FROM ${cur})` : cur;
  const prevColumns = metrics.map((m) => `in_${m.key} AS p_in_${m.key}` + (m.eligible ? `, el_${m.key} AS p_el_${m.key}` : '')).join(', ');
  // Without the previous month, the `p_*` columns are NULL, typed like this month's.
  const from = prev ?? `(SELECT * FROM ${cur} LIMIT 0)`;
  return `(SELECT * FROM ${current} c LEFT JOIN (SELECT store_id AS p_store_id, ${prevColumns} FROM ${from}) p ON p.p_store_id = c.store_id)`;
}

function toCell(row: Record<string, unknown>, value: string | null, metrics: readonly MetricDef[]): Cell {
  const cell: Cell = { value, stores: toNumber(row.stores), cohort: toNumber(row.cohort), metrics: new Map() };
  for (const m of metrics) {
    const get = (f: string) => toNumber(row[`${f}:${m.key}`]);
    cell.metrics.set(m.key, {
      e: get('e'), n: get('n'), num: get('num'), cohort_n: get('cohort_n'),
      matched: get('matched'), cur_sum: get('cur_sum'), prev_sum: get('prev_sum'),
    });
  }
  return cell;
}

/** Every metric × every cell of the given months (panel/read.ts's view `panel` holds them). */
export async function aggregateMonths(duck: Duck, months: string[]): Promise<Map<string, MonthAgg>> {
  return (await aggregatePanel(duck, months)).aggs;
}

export interface PanelAggregates {
  aggs: Map<string, MonthAgg>;
  /** month → fingerprint (panel/fingerprint.ts), for the months asked */
  fingerprints: Map<string, string>;
}

/**
 * Every metric × every cell of `months`, and the fingerprints of `fingerprinted`, reading each
 * loaded month of the view `panel` once: months are taken in order, each month's facts (or,
 * for a month only needed before another, its trend columns) held while the next month needs
 * them (two months at a time). A month's facts are derived once, whether it is aggregated, the
 * previous month of one, or both.
 */
export async function aggregatePanel(duck: Duck, months: string[], fingerprinted: readonly string[] = [], onMonth?: (month: string) => void): Promise<PanelAggregates> {
  const present = new Set((await duck.all<{ mi: number }>(`SELECT DISTINCT mi FROM panel`)).map((r) => toNumber(r.mi)));
  const wanted = new Set(months.map(monthIndex));
  const fingerprint = new Set(fingerprinted);
  // Facts: every aggregated month and the loaded month before each. Months read: those, the
  // loaded month before each (its columns are the facts' `prev_*`), and those fingerprinted.
  const factsOf = new Set([...wanted, ...[...wanted].map((m) => m - 1).filter((m) => present.has(m))]);
  const rowsOf = new Set([...factsOf, ...[...factsOf].map((m) => m - 1).filter((m) => present.has(m)), ...fingerprinted.map(monthIndex)]);
  const appMetrics = METRICS.filter((m) => PAGES.find((p) => p.slug === m.slug)?.byApp);
  const prevOf = (mi: number) => `agg_prev_${mi}`;
  const facts = (mi: number) => `agg_facts_${mi}`;
  const aggs = new Map<string, MonthAgg>();
  const fingerprints = new Map<string, string>();
  const made: string[] = [];
  const drop = async (table: string) => {
    await duck.run(`DROP TABLE IF EXISTS ${table}`);
    made.splice(made.indexOf(table), 1);
  };
  try {
    for (const mi of [...rowsOf].sort((a, b) => a - b)) {
      const month = monthOf(mi);
      const rows = `(SELECT * FROM panel WHERE mi = ${mi})`;
      // The previous month's columns: from its facts, or read for this month alone.
      const prev = made.includes(facts(mi - 1)) ? facts(mi - 1) : made.includes(prevOf(mi - 1)) ? prevOf(mi - 1) : null;
      if (factsOf.has(mi)) {
        await duck.run(`CREATE OR REPLACE TEMP TABLE ${facts(mi)} AS ${factsSql(rows, prev, METRICS, fingerprint.has(month))}`);
        made.push(facts(mi));
        if (fingerprint.has(month)) fingerprints.set(month, await fingerprintOf(duck, facts(mi)));
      } else {
        if (fingerprint.has(month)) fingerprints.set(month, await fingerprintTable(duck, rows));
        if (factsOf.has(mi + 1)) {
          await duck.run(`CREATE OR REPLACE TEMP TABLE ${prevOf(mi)} AS SELECT store_id, ${PREV_COLUMNS.join(', ')} FROM ${rows}`);
          made.push(prevOf(mi));
        }
      }
      if (made.includes(prevOf(mi - 1))) await drop(prevOf(mi - 1));
      if (wanted.has(mi)) {
        onMonth?.(month);
        const prevFacts = made.includes(facts(mi - 1)) ? facts(mi - 1) : null;
        aggs.set(month, await aggregateMonth(duck, month, present.has(mi - 1), joined(facts(mi), prevFacts, METRICS), joined(facts(mi), prevFacts, appMetrics, true), appMetrics));
      }
      if (made.includes(facts(mi - 1))) await drop(facts(mi - 1));
    }
  } finally {
    for (const table of [...made]) await drop(table);
  }
  return { aggs, fingerprints };
}

const monthOf = (mi: number): string => `${Math.floor(mi / 12)}-${String((mi % 12) + 1).padStart(2, '0')}`;

/** One month's cells: every breakdown of every metric, then every app of the apps page's metrics. */
async function aggregateMonth(duck: Duck, month: string, hasPrior: boolean, rel: string, appRel: string, appMetrics: readonly MetricDef[]): Promise<MonthAgg> {
  const groups = new Map<DimensionName, Cell[]>([...DIMENSIONS.map((d) => [d, []] as [DimensionName, Cell[]]), ['app', []]]);
  const agg: MonthAgg = { month, hasPrior, all: emptyCell(), groups };
  // Once at the finest cell (country × category × plan), then rolled up: every figure is a
  // count or an exact sum, so the roll-up's sums are the same numbers as summing the rows.
  const columns = aggregateColumns(METRICS);
  await duck.run(`
    CREATE OR REPLACE TEMP TABLE agg_finest AS
    SELECT country, category, plan, count(*) AS stores, count(p_store_id) AS cohort,
      ${columns.map((c) => `${c.expr} AS "${c.alias}"`).join(',\n      ')}
    FROM ${rel} c
    GROUP BY country, category, plan`);
  const dims = DIMENSIONS.map((d) => `GROUPING(${d}) AS ${ident('g_' + d)}`).join(', ');
  const distinct = [...new Map(columns.map((c) => [c.alias, c])).values()];
  const rows = await duck.all(`
    SELECT ${dims}, country, category, plan, sum(stores) AS stores, sum(cohort) AS cohort,
      ${distinct.map((c) => `${c.sum ? `CAST(sum("${c.alias}") AS VARCHAR)` : `sum("${c.alias}")`} AS "${c.alias}"`).join(',\n      ')}
    FROM agg_finest
    GROUP BY GROUPING SETS ((), ${DIMENSIONS.map((d) => `(${d})`).join(', ')})`);
  await duck.run(`DROP TABLE agg_finest`);
  for (const row of rows) {
    const dim = DIMENSIONS.find((d) => toNumber(row['g_' + d]) === 0);
    if (!dim) agg.all = toCell(row, null, METRICS);
    else agg.groups.get(dim)!.push(toCell(row, (row[dim] as string | null) ?? null, METRICS));
  }
  const appRows = await duck.all(`
    SELECT app, count(*) AS stores, count(p_store_id) AS cohort, ${aggregates(appMetrics)}
    FROM ${appRel} c
    GROUP BY app`);
  for (const row of appRows) agg.groups.get('app')!.push(toCell(row, row.app as string, appMetrics));
  for (const cells of agg.groups.values()) cells.sort((a, b) => compareValues(a.value, b.value));
  return agg;
}
