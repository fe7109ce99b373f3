/**
 * From aggregated cells to published stats: the floor, secondary suppression, deltas on the
 * matched cohort, and the texts. Pure: plain data in, plain data out.
 */
import { previousMonth, type DimensionName } from '../core/panel-contract.js';
import { canonicalUrl } from '../core/public-paths.js';
import type { Cell, CellAgg, MonthAgg } from './aggregate.js';
import { deltaKind, METRICS, PAGES, type MetricDef } from './registry.js';
import { isPercent } from './format.js';
import { FLOOR, primary, protect, type SizedCell } from './suppression.js';
import { anchorOf, citationOf, dimensionString, scopeText, sentenceOf, statId } from './text.js';
import type { Delta, Slug, Stat } from './types.js';

/** One month's stats and what the next month needs to know about them. */
export interface BuiltMonth {
  month: string;
  stats: Map<Slug, Stat[]>;
  /** stat id → whether hidden and its unrounded value (for whole-cell deltas of the next month) */
  cells: Map<string, { hidden: boolean; value: number }>;
}

const round = (x: number, digits: number): number => {
  const f = 10 ** digits;
  const r = Math.round(x * f) / f;
  return Object.is(r, -0) ? 0 : r;
};
const digitsOf = (m: MetricDef) => (m.kind === 'count' ? 0 : m.kind === 'mean' ? 2 : 4);
const exactValue = (m: MetricDef, a: CellAgg) => (m.kind === 'count' ? a.num : a.n === 0 ? 0 : a.num / a.n);

const keyOf = (cell: Cell) => cell.value!;

/**
 * Suppression the disclosure audit adds on top of the rules below (stats/audit.ts), for one
 * month. Keys of cells are `{dimension}:{value}`.
 */
export interface ExtraSuppression {
  /** whole cells: every metric */
  cells: Set<string>;
  /** stat ids: one metric in one cell (or `{metric}:all`); the metric's group follows */
  stats: Set<string>;
  /** cells (or `all`) whose cohort figures are hidden: every delta, and numerators that count the cohort */
  cohorts: Set<string>;
  /** stat ids whose delta alone is hidden (an earlier release of the month hid it: stats/releases.ts) */
  deltas: Set<string>;
}

export const noExtraSuppression = (): ExtraSuppression => ({ cells: new Set(), stats: new Set(), cohorts: new Set(), deltas: new Set() });

/**
 * A figure that counts stores is a sample size: below the floor it is not published. A count's
 * value and a numerator that counts the stores present in both months are such figures.
 */
const numeratorIsSampleSize = (m: MetricDef) => m.kind === 'count' || m.numeratorIsSampleSize === true;
const underFloor = (m: MetricDef, a: CellAgg) => a.n < FLOOR || (numeratorIsSampleSize(m) && a.num < FLOOR);

function metricsFor(dim: DimensionName): readonly MetricDef[] {
  const metrics = dim === 'app' ? METRICS.filter((m) => PAGES.find((p) => p.slug === m.slug)?.byApp) : METRICS;
  return metrics.filter((m) => !m.skip?.includes(dim));
}

interface Row {
  metric: MetricDef;
  dim: DimensionName | null;
  cell: Cell;
  agg: CellAgg;
  hidden: boolean;
  deltaHidden: boolean;
}

/**
 * Hidden cells of every metric of one breakdown. Each metric starts from the breakdown's base
 * pattern (chosen from store counts, which every metric's n and null_rate reveal) plus its own
 * cells below the floor; metrics of one group (the same n) then share the union, re-protected
 * until nothing changes.
 */
function hiddenSets(
  metrics: readonly MetricDef[],
  sized: (f: (c: Cell) => number) => SizedCell[],
  base: ReadonlySet<string>,
  start: (m: MetricDef) => Iterable<string>,
  size: (m: MetricDef, c: Cell) => number,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  for (const m of metrics) {
    const cells = sized((c) => size(m, c));
    out.set(m.key, protect(cells, new Set([...base, ...primary(cells), ...start(m)])));
  }
  const groups = new Map<string, MetricDef[]>();
  for (const m of metrics) if (m.group) groups.set(m.group, [...(groups.get(m.group) ?? []), m]);
  for (const members of groups.values()) {
    for (let changed = true; changed; ) {
      changed = false;
      const union = new Set(members.flatMap((m) => [...out.get(m.key)!]));
      for (const m of members) {
        const next = protect(sized((c) => size(m, c)), union);
        if (next.size !== out.get(m.key)!.size) changed = true;
        out.set(m.key, next);
      }
    }
  }
  return out;
}

/** Figures that state (or bound from below) a cell's cohort: hidden with the cohort. */
const hiddenWithCohort = (m: MetricDef): boolean => m.numeratorIsSampleSize === true || m.withinCohort === true;

export function buildMonth(agg: MonthAgg, prior: BuiltMonth | undefined, baseUrl: string, extra: ExtraSuppression = noExtraSuppression()): BuiltMonth {
  return statsOf(planMonth(agg, prior, extra), agg, prior, baseUrl, true);
}

/** What is hidden of one month, figure by figure, in published order: a month's stats are made from it (statsOf). */
export interface MonthPlan {
  rows: readonly Row[];
}

export function planMonth(agg: MonthAgg, prior: BuiltMonth | undefined, extra: ExtraSuppression = noExtraSuppression()): MonthPlan {
  const rows: Row[] = [];
  for (const metric of METRICS) {
    const a = agg.all.metrics.get(metric.key)!;
    const cohortHidden = extra.cohorts.has('all');
    const hidden = underFloor(metric, a) || extra.stats.has(statId(metric.key, 'all')) || (cohortHidden && hiddenWithCohort(metric));
    const id = statId(metric.key, 'all');
    rows.push({ metric, dim: null, cell: agg.all, agg: a, hidden, deltaHidden: hidden || cohortHidden || extra.deltas.has(id) || deltaPrimary(metric, a, prior, id) });
  }

  for (const [dim, cells] of agg.groups) {
    // The unknown cell is never published and protects nothing (its size is public).
    const known = cells.filter((c) => c.value !== null);
    const sized = (f: (c: Cell) => number): SizedCell[] => known.map((c) => ({ key: keyOf(c), n: f(c) }));
    const metrics = metricsFor(dim);
    const extraOf = (set: Set<string>) => known.filter((c) => set.has(dimensionString(dim, c.value))).map(keyOf);
    const storeCells = sized((c) => c.stores);
    const base = protect(storeCells, new Set([...primary(storeCells), ...extraOf(extra.cells)]));
    const start = (m: MetricDef) =>
      known
        .filter((c) => {
          const where = dimensionString(dim, c.value);
          return (numeratorIsSampleSize(m) && c.metrics.get(m.key)!.num < FLOOR) || extra.stats.has(statId(m.key, where)) || (hiddenWithCohort(m) && extra.cohorts.has(where));
        })
        .map(keyOf);
    const hidden = hiddenSets(metrics, sized, base, start, (m, c) => c.metrics.get(m.key)!.n);
    // Deltas: cohort sizes are one figure for every metric, so their base pattern is shared too.
    const cohortCells = sized((c) => c.cohort);
    const deltaBase = protect(cohortCells, new Set([...primary(cohortCells), ...extraOf(extra.cohorts)]));
    const deltaHidden = hiddenSets(
      metrics,
      sized,
      deltaBase,
      (m) => [
        ...hidden.get(m.key)!,
        ...known.filter((c) => {
          const id = statId(m.key, dimensionString(dim, c.value));
          return extra.deltas.has(id) || deltaPrimary(m, c.metrics.get(m.key)!, prior, id);
        }).map(keyOf),
      ],
      (m, c) => c.metrics.get(m.key)!.cohort_n,
    );
    for (const metric of metrics) {
      for (const c of known) {
        const key = keyOf(c);
        rows.push({ metric, dim, cell: c, agg: c.metrics.get(metric.key)!, hidden: hidden.get(metric.key)!.has(key), deltaHidden: deltaHidden.get(metric.key)!.has(key) });
      }
    }
  }

  const order = new Map(METRICS.map((m, i) => [m.key, i]));
  rows.sort((a, b) => order.get(a.metric.key)! - order.get(b.metric.key)!); // stable: all, then each dimension
  return { rows };
}

/**
 * The stats of a planned month. Without `texts`, their anchor, URL, sentence and citation are
 * left empty: every figure is as published, for an audit that reads nothing else.
 */
export function statsOf(plan: MonthPlan, agg: MonthAgg, prior: BuiltMonth | undefined, baseUrl: string, texts: boolean): BuiltMonth {
  const stats = new Map<Slug, Stat[]>(PAGES.map((p) => [p.slug, []]));
  const out = new Map<string, { hidden: boolean; value: number }>();
  for (const row of plan.rows) {
    const stat = toStat(row, agg, prior, baseUrl, texts);
    stats.get(row.metric.slug)!.push(stat);
    out.set(stat.id, { hidden: row.hidden, value: exactValue(row.metric, row.agg) });
  }
  return { month: agg.month, stats, cells: out };
}

/** A delta that must be hidden on its own: too small a cohort, or a whole-cell delta whose prior cell was hidden. */
function deltaPrimary(metric: MetricDef, a: CellAgg, prior: BuiltMonth | undefined, id: string): boolean {
  if (a.cohort_n < FLOOR) return true;
  if (deltaKind(metric) === 'cell') {
    const p = prior?.cells.get(id);
    return !p || p.hidden;
  }
  return a.matched < FLOOR;
}

function toStat(row: Row, agg: MonthAgg, prior: BuiltMonth | undefined, baseUrl: string, texts: boolean): Stat {
  const { metric, dim, cell, agg: a, hidden } = row;
  const dimension = dimensionString(dim, cell.value);
  const id = statId(metric.key, dimension);
  const anchor = texts ? anchorOf(id) : '';
  const canonical_url = texts ? canonicalUrl(baseUrl, metric.slug, anchor) : '';
  const digits = digitsOf(metric);
  const value = hidden ? null : metric.kind === 'count' ? a.num : round(a.num / a.n, digits);
  const scope = texts ? scopeText(dim, cell.value) : '';
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
    sentence: texts ? sentenceOf(metric, scope, agg.month, hidden ? null : sentenceValue(metric, a, value!), hidden ? null : a.n, !agg.hasPrior && metric.slug === 'platform-trends') : '',
    citation: texts ? citationOf(PAGES.find((p) => p.slug === metric.slug)!, metric, scope, agg.month, canonical_url) : '',
    month: agg.month,
    methodology_version: metric.methodology_version,
  };
}

/** What the sentence shows: a share or rate as the exact fraction, rounded once as it prints (stats/format.ts shownValue). */
const sentenceValue = (m: MetricDef, a: CellAgg, value: number): number => (isPercent(m.kind) ? exactValue(m, a) : value);

function deltaOf(row: Row, agg: MonthAgg, prior: BuiltMonth | undefined, id: string, digits: number): Delta | null {
  if (!agg.hasPrior) return null;
  const prior_month = previousMonth(agg.month);
  if (row.deltaHidden) return { value: null, cohort_n: null, suppressed: true, prior_month };
  const a = row.agg;
  const value =
    deltaKind(row.metric) === 'cell'
      ? round(exactValue(row.metric, a) - prior!.cells.get(id)!.value, digits)
      : round((a.cur_sum - a.prev_sum) / a.matched, digits);
  return { value, cohort_n: a.cohort_n, suppressed: false, prior_month };
}
