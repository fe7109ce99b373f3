/**
 * The DuckDB edge of the statistics: one pass per month over the panel joined to the same
 * stores' previous month, grouped by every dimension at once. Returns exact integers and
 * decimal sums as plain numbers; everything after this is pure (stats/build.ts).
 */
import { ident, lit, toNumber, type Duck } from '../panel/duck.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, DIMENSIONS, type DimensionName } from '../panel/columns.js';
import { METRICS, PAGES, type MetricDef } from './registry.js';

/** Sums of one metric in one cell of one month. */
export interface CellAgg {
  /** eligible stores */
  e: number;
  /** eligible stores with a known input */
  n: number;
  /** qualifying count (count, share, rate) or exact sum (mean) */
  num: number;
  /** stores of this cell that were present in the previous month */
  cohort_n: number;
  /** stores eligible with a known input in both months */
  matched: number;
  cur_sum: number;
  prev_sum: number;
}

export interface Cell {
  /** null = unknown value (never published, always counted) */
  value: string | null;
  stores: number;
  metrics: Map<string, CellAgg>;
}

export interface MonthAgg {
  month: string;
  /** whether the calendar-previous month is in the panel */
  hasPrior: boolean;
  all: Cell;
  /** dimension name → cells (including the unknown cell when it has stores) */
  groups: Map<DimensionName, Cell[]>;
}

/** Builds `panel_facts`: each panel row with its store's values in the calendar-previous month. */
export async function prepareFacts(duck: Duck): Promise<void> {
  await duck.run(`CREATE OR REPLACE MACRO prev_month(m) AS strftime(strptime(m || '-01', '%Y-%m-%d') - INTERVAL 1 MONTH, '%Y-%m')`);
  await duck.run(`CREATE OR REPLACE MACRO plan_rank(p) AS list_position(['basic', 'grow', 'advanced', 'plus'], p)`);
  const prevCols = ['plan', 'apps', 'product_count', 'monthly_visits', ...AD_COLUMNS, ...AGENTIC_COLUMNS];
  await duck.run(`
    CREATE OR REPLACE TABLE panel_facts AS
    SELECT p.*,
      CASE WHEN pm.month IS NOT NULL THEN q.store_id IS NOT NULL END AS prev_present,
      ${prevCols.map((c) => `q.${c} AS prev_${c}`).join(', ')}
    FROM panel p
    LEFT JOIN (SELECT DISTINCT month FROM panel) pm ON pm.month = prev_month(p.month)
    LEFT JOIN panel q ON q.month = prev_month(p.month) AND q.store_id = p.store_id
    ORDER BY p.month, p.store_id`);
}

/** The value a metric sums: a 0/1 for share, rate and count, the input itself for mean. */
const summand = (m: MetricDef, side: string) => (m.kind === 'mean' ? `${side}_in_${m.key}` : `(${side}_in_${m.key})::INT`);

function aggregates(metrics: readonly MetricDef[]): string {
  return metrics
    .map((m) => {
      const k = m.key;
      const el = `c_el_${k}`;
      const known = m.kind === 'count' ? el : `${el} AND c_in_${k} IS NOT NULL`;
      const both = `${el} AND p_el_${k} AND c_in_${k} IS NOT NULL AND p_in_${k} IS NOT NULL`;
      // count_if and sum(CASE …) rather than FILTER: DuckDB runs hundreds of FILTER aggregates far slower.
      const sumIf = (cond: string, x: string) => `CAST(sum(CASE WHEN ${cond} THEN ${x} END) AS VARCHAR)`;
      return [
        `count_if(${el}) AS "e:${k}"`,
        `count_if(${known}) AS "n:${k}"`,
        m.kind === 'count' ? `count_if(${el} AND c_in_${k}) AS "num:${k}"` : `${sumIf(known, summand(m, 'c'))} AS "num:${k}"`,
        `count_if(${el} AND p_store_id IS NOT NULL) AS "cohort_n:${k}"`,
        `count_if(${both}) AS "matched:${k}"`,
        `${sumIf(both, summand(m, 'c'))} AS "cur_sum:${k}"`,
        `${sumIf(both, summand(m, 'p'))} AS "prev_sum:${k}"`,
      ].join(',\n      ');
    })
    .join(',\n      ');
}

function sides(metrics: readonly MetricDef[], side: 'c' | 'p'): string {
  return metrics.map((m) => `(${m.input}) AS ${side}_in_${m.key}, (${m.eligible ?? 'TRUE'}) AS ${side}_el_${m.key}`).join(', ');
}

function joined(month: string, metrics: readonly MetricDef[], extra = ''): string {
  return `
    SELECT c.*, p.p_store_id, ${metrics.map((m) => `p.p_in_${m.key}, p.p_el_${m.key}`).join(', ')}
    FROM (SELECT store_id, country, category, plan, apps, ${sides(metrics, 'c')} FROM panel_facts WHERE month = ${lit(month)}) c
    LEFT JOIN (SELECT store_id AS p_store_id, ${sides(metrics, 'p')} FROM panel_facts WHERE month = prev_month(${lit(month)})) p
      ON p.p_store_id = c.store_id ${extra}`;
}

function toCell(row: Record<string, unknown>, value: string | null, metrics: readonly MetricDef[]): Cell {
  const cell: Cell = { value, stores: toNumber(row.stores), metrics: new Map() };
  for (const m of metrics) {
    const get = (f: string) => toNumber(row[`${f}:${m.key}`]);
    cell.metrics.set(m.key, {
      e: get('e'), n: get('n'), num: get('num'), cohort_n: get('cohort_n'),
      matched: get('matched'), cur_sum: get('cur_sum'), prev_sum: get('prev_sum'),
    });
  }
  return cell;
}

/** Every metric × every cell of one month. */
export async function aggregateMonth(duck: Duck, month: string): Promise<MonthAgg> {
  const [{ has }] = await duck.all<{ has: boolean }>(`SELECT count(*) > 0 AS has FROM panel WHERE month = prev_month(${lit(month)})`);
  const dims = DIMENSIONS.map((d) => `GROUPING(${d}) AS ${ident('g_' + d)}`).join(', ');
  const rows = await duck.all(`
    SELECT ${dims}, country, category, plan, count(*) AS stores,
      ${aggregates(METRICS)}
    FROM (${joined(month, METRICS)})
    GROUP BY GROUPING SETS ((), ${DIMENSIONS.map((d) => `(${d})`).join(', ')})`);

  const groups = new Map<DimensionName, Cell[]>(DIMENSIONS.map((d) => [d, []]));
  let all: Cell | undefined;
  for (const row of rows) {
    const dim = DIMENSIONS.find((d) => toNumber(row['g_' + d]) === 0);
    if (!dim) all = toCell(row, null, METRICS);
    else groups.get(dim)!.push(toCell(row, (row[dim] as string | null) ?? null, METRICS));
  }

  const appMetrics = METRICS.filter((m) => PAGES.find((p) => p.slug === m.slug)?.byApp);
  const appRows = await duck.all(`
    SELECT app, count(*) AS stores, ${aggregates(appMetrics)}
    FROM (SELECT *, unnest(apps) AS app FROM (${joined(month, appMetrics)}))
    GROUP BY app`);
  groups.set('app', appRows.map((row) => toCell(row, row.app as string, appMetrics)));

  for (const cells of groups.values()) cells.sort((a, b) => compareValues(a.value, b.value));
  return { month, hasPrior: has, all: all ?? emptyCell(), groups };
}

function emptyCell(): Cell {
  const metrics = new Map(METRICS.map((m) => [m.key, { e: 0, n: 0, num: 0, cohort_n: 0, matched: 0, cur_sum: 0, prev_sum: 0 }]));
  return { value: null, stores: 0, metrics };
}

/** Code-point order, unknown last: the same on every machine. */
export function compareValues(a: string | null, b: string | null): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  return a < b ? -1 : 1;
}
