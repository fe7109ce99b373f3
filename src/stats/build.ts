/**
 * From aggregated cells to published stats: the floor, secondary suppression, deltas on the
 * matched cohort, and the texts. Pure: plain data in, plain data out.
 */
import { previousMonth, type DimensionName } from '../panel/columns.js';
import type { Cell, CellAgg, MonthAgg } from './aggregate.js';
import { METRICS, PAGES, type MetricDef } from './registry.js';
import { FLOOR, primary, protect, type SizedCell } from './suppression.js';
import { anchorOf, citationOf, dimensionString, scopeText, sentenceOf, statId } from './text.js';
import type { Delta, Slug, Stat } from './types.js';

/** One month's stats and what the next month needs to know about them. */
export interface BuiltMonth {
  month: string;
  stats: Map<Slug, Stat[]>;
  /** stat id → whether hidden and its numerator (for count deltas of the next month) */
  cells: Map<string, { hidden: boolean; num: number }>;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};
const digitsOf = (m: MetricDef) => (m.kind === 'count' ? 0 : m.kind === 'mean' ? 2 : 4);

const keyOf = (cell: Cell) => cell.value!;

function metricsFor(dim: DimensionName): readonly MetricDef[] {
  return dim === 'app' ? METRICS.filter((m) => PAGES.find((p) => p.slug === m.slug)?.byApp) : METRICS;
}

interface Row {
  metric: MetricDef;
  dim: DimensionName | null;
  cell: Cell;
  agg: CellAgg;
  hidden: boolean;
  deltaHidden: boolean;
}

export function buildMonth(agg: MonthAgg, prior: BuiltMonth | undefined, baseUrl: string): BuiltMonth {
  const rows: Row[] = [];
  const allHidden = new Map<string, boolean>();
  for (const metric of METRICS) {
    const a = agg.all.metrics.get(metric.key)!;
    const hidden = a.n < FLOOR;
    allHidden.set(metric.key, hidden);
    rows.push({ metric, dim: null, cell: agg.all, agg: a, hidden, deltaHidden: hidden || deltaPrimary(metric, a, prior, statId(metric.key, 'all')) });
  }

  for (const [dim, cells] of agg.groups) {
    // The unknown cell is never published and protects nothing (its size is public).
    const known = cells.filter((c) => c.value !== null);
    const sized = (f: (c: Cell) => number): SizedCell[] => known.map((c) => ({ key: keyOf(c), n: f(c) }));
    const storeCells = sized((c) => c.stores);
    const base = protect(storeCells, primary(storeCells));
    for (const metric of metricsFor(dim)) {
      const nCells = sized((c) => c.metrics.get(metric.key)!.n);
      const hidden = protect(nCells, new Set([...base, ...primary(nCells)]));
      const deltaStart = new Set(hidden);
      for (const c of known) {
        const a = c.metrics.get(metric.key)!;
        if (deltaPrimary(metric, a, prior, statId(metric.key, dimensionString(dim, c.value)))) deltaStart.add(keyOf(c));
      }
      const deltaHidden = protect(sized((c) => c.metrics.get(metric.key)!.cohort_n), deltaStart);
      for (const c of known) {
        const key = keyOf(c);
        rows.push({ metric, dim, cell: c, agg: c.metrics.get(metric.key)!, hidden: hidden.has(key), deltaHidden: deltaHidden.has(key) });
      }
    }
  }

  const order = new Map(METRICS.map((m, i) => [m.key, i]));
  rows.sort((a, b) => order.get(a.metric.key)! - order.get(b.metric.key)!); // stable: all, then each dimension
  const stats = new Map<Slug, Stat[]>(PAGES.map((p) => [p.slug, []]));
  const out = new Map<string, { hidden: boolean; num: number }>();
  for (const row of rows) {
    const stat = toStat(row, agg, prior, baseUrl);
    stats.get(row.metric.slug)!.push(stat);
    out.set(stat.id, { hidden: row.hidden, num: row.agg.num });
  }
  return { month: agg.month, stats, cells: out };
}

/** A delta that must be hidden on its own: too small a cohort, or a count whose prior cell was hidden. */
function deltaPrimary(metric: MetricDef, a: CellAgg, prior: BuiltMonth | undefined, id: string): boolean {
  if (a.cohort_n < FLOOR) return true;
  if (metric.kind === 'count') {
    const p = prior?.cells.get(id);
    return !p || p.hidden;
  }
  return a.matched < FLOOR;
}

function toStat(row: Row, agg: MonthAgg, prior: BuiltMonth | undefined, baseUrl: string): Stat {
  const { metric, dim, cell, agg: a, hidden } = row;
  const page = PAGES.find((p) => p.slug === metric.slug)!;
  const dimension = dimensionString(dim, cell.value);
  const id = statId(metric.key, dimension);
  const anchor = anchorOf(id);
  const canonical_url = `${baseUrl}/data/${metric.slug}#${anchor}`;
  const scope = scopeText(dim, cell.value);
  const digits = digitsOf(metric);
  const value = hidden ? null : metric.kind === 'count' ? a.num : round(a.num / a.n, digits);
  return {
    id,
    metric_key: metric.key,
    dimension,
    canonical_url,
    anchor,
    value,
    numerator: hidden ? null : round(a.num, 2),
    n: hidden ? null : a.n,
    null_rate: hidden ? null : metric.kind === 'count' || a.e === 0 ? 0 : round((a.e - a.n) / a.e, 4),
    suppressed: hidden,
    delta: deltaOf(row, agg, prior, id, digits),
    definition: metric.definition,
    sentence: sentenceOf(metric, scope, agg.month, value, hidden ? null : a.n),
    citation: citationOf(page, metric, scope, agg.month, canonical_url),
    month: agg.month,
    methodology_version: metric.methodology_version,
  };
}

function deltaOf(row: Row, agg: MonthAgg, prior: BuiltMonth | undefined, id: string, digits: number): Delta | null {
  if (!agg.hasPrior) return null;
  const prior_month = previousMonth(agg.month);
  if (row.deltaHidden) return { value: null, cohort_n: null, suppressed: true, prior_month };
  const a = row.agg;
  const value = row.metric.kind === 'count' ? a.num - prior!.cells.get(id)!.num : round((a.cur_sum - a.prev_sum) / a.matched, digits);
  return { value, cohort_n: a.cohort_n, suppressed: false, prior_month };
}
