/**
 * The DuckDB edge of the statistics: one pass per month over the panel joined to the same
 * stores' previous month, grouped by every dimension at once. Returns exact integers and
 * decimal sums as plain numbers (stats/aggregate.ts); everything after this is pure.
 */
import { emptyCell, compareValues, type Cell, type MonthAgg } from '../stats/aggregate.js';
import { METRICS, PAGES, type MetricDef } from '../stats/registry.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, DIMENSIONS, monthIndex, type DimensionName } from './columns.js';
import { ident, toNumber, type Duck } from './duck.js';

/** Macros the registry's SQL uses. */
export async function registerMacros(duck: Duck): Promise<void> {
  await duck.run(`CREATE OR REPLACE MACRO plan_rank(p) AS list_position(['basic', 'grow', 'advanced', 'plus'], p)`);
}

/** Columns the trend metrics read from the previous month, as `prev_*`. */
export const PREV_COLUMNS = ['plan', 'apps', 'product_count', 'monthly_visits', ...AD_COLUMNS, ...AGENTIC_COLUMNS];

/**
 * `facts` of the given month indexes: each panel row with each metric's input and eligibility,
 * evaluated beside the store's values in the calendar-previous month (`prev_*`, for trends).
 */
function factsSql(mis: number[], metrics: readonly MetricDef[], present: ReadonlySet<number>): string {
  const list = mis.join(', ') || 'NULL';
  const prevList = mis.map((m) => m - 1).join(', ') || 'NULL';
  const known = [...present].join(', ') || 'NULL';
  const inputs = metrics.map((m) => `(${m.input}) AS in_${m.key}` + (m.eligible ? `, (${m.eligible}) AS el_${m.key}` : '')).join(',\n      ');
  if (!metrics.some((m) => /\bprev_/.test(m.input + (m.eligible ?? '')))) {
    return `SELECT month, mi, store_id, country, category, plan, apps, ${inputs} FROM panel WHERE mi IN (${list})`;
  }
  return `
    SELECT month, mi, store_id, country, category, plan, apps,
      ${inputs}
    FROM (
      SELECT p.*,
        CASE WHEN p.mi - 1 IN (${known}) THEN q.q_store_id IS NOT NULL END AS prev_present,
        ${PREV_COLUMNS.map((c) => `q.prev_${c}`).join(', ')}
      FROM (SELECT * FROM panel WHERE mi IN (${list})) p
      LEFT JOIN (SELECT store_id AS q_store_id, mi AS q_mi, ${PREV_COLUMNS.map((c) => `${c} AS prev_${c}`).join(', ')}
                 FROM panel WHERE mi IN (${prevList})) q
        ON q.q_mi = p.mi - 1 AND q.q_store_id = p.store_id
    )`;
}

/**
 * The sums of one metric. Written so that metrics without an eligibility rule share the plain
 * counts (`count(*)`, `count(p_store_id)`), which DuckDB computes once for all of them.
 */
function aggregates(metrics: readonly MetricDef[]): string {
  const and = (...conds: Array<string | false>) => conds.filter(Boolean).join(' AND ') || 'TRUE';
  return metrics
    .map((m) => {
      const k = m.key;
      const cur = `in_${k}`;
      const prev = `p_in_${k}`;
      const el = m.eligible !== undefined && `el_${k}`;
      const pel = m.eligible !== undefined && `p_el_${k}`;
      const countIf = (...c: Array<string | false>) => (c.every((x) => !x) ? 'count(*)' : `count_if(${and(...c)})`);
      const sumIf = (x: string, ...c: Array<string | false>) => `CAST(sum(CASE WHEN ${and(...c)} THEN ${x} END) AS VARCHAR)`;
      const out = [`${countIf(el)} AS "e:${k}"`, `${countIf(el, 'p_store_id IS NOT NULL')} AS "cohort_n:${k}"`];
      if (m.kind === 'count') {
        out.push(`${countIf(el)} AS "n:${k}"`, `${countIf(el, cur)} AS "num:${k}"`);
      } else {
        const both = [el, pel, `${cur} IS NOT NULL`, `${prev} IS NOT NULL`] as const;
        out.push(`${countIf(el, `${cur} IS NOT NULL`)} AS "n:${k}"`, `${countIf(...both)} AS "matched:${k}"`);
        if (m.kind === 'mean') {
          out.push(`${sumIf(cur, el)} AS "num:${k}"`, `${sumIf(cur, ...both)} AS "cur_sum:${k}"`, `${sumIf(prev, ...both)} AS "prev_sum:${k}"`);
        } else {
          out.push(`${countIf(el, cur)} AS "num:${k}"`, `${countIf(...both, cur)} AS "cur_sum:${k}"`, `${countIf(...both, prev)} AS "prev_sum:${k}"`);
        }
      }
      return out.join(',\n      ');
    })
    .join(',\n      ');
}

/** This month's facts next to the same stores' facts of the previous month. */
function joined(mis: number[], metrics: readonly MetricDef[], present: ReadonlySet<number>, unnestApps = false): string {
  const both = [...new Set([...mis, ...mis.map((m) => m - 1)])].filter((m) => present.has(m));
  const list = mis.join(', ');
  const current = unnestApps ? `(SELECT *, unnest(apps) AS app FROM facts WHERE mi IN (${list}))` : `(SELECT * FROM facts WHERE mi IN (${list}))`;
  return `(
    WITH facts AS MATERIALIZED (${factsSql(both, metrics, present)})
    SELECT * FROM ${current} c
    LEFT JOIN (SELECT store_id AS p_store_id, mi AS p_mi, ${metrics.map((m) => `in_${m.key} AS p_in_${m.key}` + (m.eligible ? `, el_${m.key} AS p_el_${m.key}` : '')).join(', ')}
               FROM facts) p
      ON p.p_mi = c.mi - 1 AND p.p_store_id = c.store_id) c`;
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

/** Every metric × every cell of the given months, in one pass. */
export async function aggregateMonths(duck: Duck, months: string[]): Promise<Map<string, MonthAgg>> {
  const mis = months.map(monthIndex);
  const present = new Set((await duck.all<{ mi: number }>(`SELECT DISTINCT mi FROM panel`)).map((r) => toNumber(r.mi)));
  const byMi = new Map<number, MonthAgg>();
  months.forEach((month, i) => {
    const groups = new Map<DimensionName, Cell[]>([...DIMENSIONS.map((d) => [d, []] as [DimensionName, Cell[]]), ['app', []]]);
    byMi.set(mis[i], { month, hasPrior: present.has(mis[i] - 1), all: emptyCell(), groups });
  });

  const dims = DIMENSIONS.map((d) => `GROUPING(${d}) AS ${ident('g_' + d)}`).join(', ');
  const rows = await duck.all(`
    SELECT mi, ${dims}, country, category, plan, count(*) AS stores, count(p_store_id) AS cohort,
      ${aggregates(METRICS)}
    FROM ${joined(mis, METRICS, present)}
    GROUP BY GROUPING SETS ((mi), ${DIMENSIONS.map((d) => `(mi, ${d})`).join(', ')})`);
  for (const row of rows) {
    const agg = byMi.get(toNumber(row.mi))!;
    const dim = DIMENSIONS.find((d) => toNumber(row['g_' + d]) === 0);
    if (!dim) agg.all = toCell(row, null, METRICS);
    else agg.groups.get(dim)!.push(toCell(row, (row[dim] as string | null) ?? null, METRICS));
  }

  const appMetrics = METRICS.filter((m) => PAGES.find((p) => p.slug === m.slug)?.byApp);
  const appRows = await duck.all(`
    SELECT mi, app, count(*) AS stores, count(p_store_id) AS cohort, ${aggregates(appMetrics)}
    FROM ${joined(mis, appMetrics, present, true)}
    GROUP BY mi, app`);
  for (const row of appRows) byMi.get(toNumber(row.mi))!.groups.get('app')!.push(toCell(row, row.app as string, appMetrics));

  const out = new Map<string, MonthAgg>();
  for (const agg of byMi.values()) {
    for (const cells of agg.groups.values()) cells.sort((a, b) => compareValues(a.value, b.value));
    out.set(agg.month, agg);
  }
  return out;
}
