/**
 * The disclosure audit: what a reader can bound from every published figure of the months in
 * scope, cell by cell, against the protection rule. Pure: aggregates and built documents in,
 * findings out.
 *
 * Store counts, cohorts (stores present the month before) and new stores of one breakdown form
 * one linear system over all months in scope: each month's cells add up to the published total
 * (the unknown cell's size is public), a cohort and the new stores fit in the cell, and where
 * the data says stores keep their cell, a cell's cohort fits in the same cell's size the month
 * before. HiGHS gives each hidden figure's interval. Each metric's n and numerator then form a
 * small system per month and breakdown, bounded in closed form (intervals.ts) with the store
 * counts' intervals as boxes.
 */
import { previousMonth, type DimensionName } from '../core/panel-contract.js';
import type { Cell, MonthAgg } from './aggregate.js';
import type { BuiltMonth } from './build.js';
import { metricIntervals } from './intervals.js';
import { publishedOf, type Published } from './published.js';
import { publishedAcross, type EarlierReleases } from './releases.js';
import { SystemBuilder, type IntervalSolver } from './lp.js';
import { METRICS, type MetricDef } from './registry.js';
import { FLOOR } from './suppression.js';
import { dimensionString, statId } from './text.js';
import type { Stat } from './types.js';

export { publishedOf, type Published };

/** A hidden store count's interval must reach this far from the true size, both ways. */
export const PROTECTION_SHARE = 0.3;
const EPS = 1e-6;

export interface AuditMonth {
  agg: MonthAgg;
  built: BuiltMonth;
  /** what the earlier releases of the month published, for a correction: audited with it (stats/releases.ts) */
  earlier?: EarlierReleases;
}

export type Figure = 'stores' | 'cohort' | 'new stores' | 'n' | 'numerator';

export interface Finding {
  month: string;
  dim: DimensionName;
  /** the hidden cell's value */
  value: string;
  /** null for store counts, cohorts and new stores (every metric shares them) */
  metric: string | null;
  figure: Figure;
  interval: [number, number];
  truth: number;
  /** whether a reader's lower bound is what is too tight (else the upper bound, or both) */
  lowTooTight: boolean;
  /** found by the reader who knows the rule (hidden cells are the smallest), not by the general one */
  knowsRule?: true;
}

/**
 * The protection rule for a hidden store count: its interval reaches the floor and at least 30%
 * of the true size both ways; down to one store (the audit takes a cell that holds stores to
 * be known to hold one). An empty cell (listed because its value is seen in another month) is
 * held to the same rule: its interval must reach the floor. When every cell of the breakdown is
 * hidden, the upward reach is capped at `most`, the most the cell could hold (what the hidden
 * cells hold together, less one store for each other non-empty hidden cell): no suppression can
 * widen it further.
 */
export function storeCountProtected([lo, hi]: [number, number], truth: number, most = Infinity): boolean {
  return hi >= Math.min(Math.max(FLOOR, truth * (1 + PROTECTION_SHARE)), most) - EPS && lo <= lowEnough(truth);
}

const lowEnough = (truth: number) => Math.max(1, truth * (1 - PROTECTION_SHARE)) + EPS;

/** Whether an integer figure is pinned: its interval holds a single integer. */
export function determined([lo, hi]: [number, number]): boolean {
  return Math.floor(hi + EPS) - Math.ceil(lo - EPS) < 1;
}

const shown = (s: Stat | undefined): Stat | null => (s && !s.suppressed ? s : null);

/** The cohort size of a cell, if any published figure states it (a delta, or a numerator that counts it). */
export function publishedCohort(stats: Published, dimension: string): number | null {
  for (const m of METRICS) {
    const s = stats.get(statId(m.key, dimension));
    if (m.numeratorIsSampleSize && shown(s)) return s!.numerator;
    if (s?.delta && !s.delta.suppressed && s.delta.cohort_n !== null) return s.delta.cohort_n;
  }
  return null;
}

export const AUDITED_DIMENSIONS: readonly DimensionName[] = ['country', 'category', 'plan', 'app'];
/** Breakdowns by a value a store keeps from month to month. */
const KEPT: ReadonlySet<DimensionName> = new Set(['country', 'category']);

export interface AuditScope {
  /** breakdowns to audit (default: all) */
  dims?: ReadonlySet<DimensionName>;
  /** breakdowns whose store-count system is solved (default: the audited ones) */
  solve?: ReadonlySet<DimensionName>;
  /**
   * Called with every hidden figure's interval. Without `exact`, an interval the rule already
   * accepts may be one found inside the true interval (solving stops once the rule holds).
   */
  onInterval?: (f: Finding) => void;
  exact?: boolean;
  /** intervals already found, for the rounds of one month: a system solved before is not solved again */
  memo?: IntervalMemo;
}

/** Intervals found, by everything they are a function of: the system, its targets and what accepts them (intervalsOf). */
export type IntervalMemo = Map<string, ReadonlyArray<readonly [number, number]>>;

/**
 * The solver's intervals of `targets`, or those it found before for the same system, targets,
 * what `enough` accepts of each (`accepts`: every input of `enough` but the interval) and
 * `exact`. The solver is deterministic (a fresh model, the same calls in the same order): the
 * same key gives the same intervals, so nothing found differs from solving again.
 */
function intervalsOf(solver: IntervalSolver, b: SystemBuilder, targets: number[], accepts: unknown[], scope: AuditScope, enough: (v: number, seen: [number, number]) => boolean): Array<[number, number]> {
  const solve = () => solver.intervals(b, targets, scope.exact ? undefined : enough);
  if (!scope.memo) return solve();
  // JSON alone would write ±Infinity (and -0) as null (and 0).
  const key = JSON.stringify([b.lower, b.upper, b.rows, targets, accepts, scope.exact === true], (_, x: unknown) => (typeof x === 'number' && (!Number.isFinite(x) || Object.is(x, -0)) ? `#${x === 0 ? '-0' : x}` : x));
  let found = scope.memo.get(key);
  if (found === undefined) scope.memo.set(key, (found = solve()));
  return found.map(([lo, hi]) => [lo, hi]);
}

/** Every finding over the months in scope (ascending). */
export function audit(months: AuditMonth[], solver: IntervalSolver, scope: AuditScope = {}): Finding[] {
  // What each release itself publishes, and what a reader holding every release of the month knows.
  const own = months.map((m) => publishedOf(m.built));
  const published = months.map((m, i) => (m.earlier ? publishedAcross(own[i], m.agg, m.earlier) : own[i]));
  const findings: Finding[] = [];
  for (const dim of AUDITED_DIMENSIONS) {
    if (scope.dims && !scope.dims.has(dim)) continue;
    const solve = !scope.solve || scope.solve.has(dim);
    if (dim === 'app') {
      auditApps(months, published, solve ? solver : undefined, findings, scope);
      continue;
    }
    const stores = auditStores(dim, months, published, own, solve ? solver : undefined, findings, scope, false);
    if (solve) auditStores(dim, months, published, own, solver, findings, scope, true);
    months.forEach((m, i) => auditMetrics(dim, m.agg, published[i], stores, findings, scope));
  }
  return findings;
}

type Intervals = Map<string, [number, number]>;
const WITHIN_COHORT = METRICS.filter((m) => m.withinCohort);
const cellKey = (month: string, value: string | null) => `${month}\u0000${value ?? ''}`;

/**
 * The store-count system of one breakdown; returns a box around every cell's store count.
 *
 * With `knowsRule`, the reader also knows the suppression rule the methodology publishes: the
 * hidden cells of a breakdown are its smallest, so each holds at most what the smallest
 * published cell holds that month, but for cells an earlier release of the month hid (hidden
 * again whatever their size). Taken only where it is true of the cell, a stronger reader than
 * one who takes it everywhere. Against that reader, what must stay protected are the cells the
 * floor protects: those holding fewer than FLOOR stores.
 */
function auditStores(dim: DimensionName, months: AuditMonth[], published: Published[], own: Published[], solver: IntervalSolver | undefined, findings: Finding[], scope: AuditScope, knowsRule: boolean): Intervals {
  const b = new SystemBuilder();
  const storeVar = new Map<string, number>();
  const boxes: Intervals = new Map();
  /** `within`: cells (cellKey) whose store count bounds the figure from above (a cell's new stores and cohort) */
  const targets: Array<{ v: number; month: string; cell: Cell; figure: Figure; truth: number; most?: number; within?: string[] }> = [];
  const inScope = new Set(months.map((m) => m.agg.month));
  months.forEach(({ agg }, i) => {
    const stats = published[i];
    const total = shown(stats.get(statId('active_stores', 'all')));
    if (!total) return;
    const cells = agg.groups.get(dim) ?? [];
    const prior = previousMonth(agg.month);
    const priorCells = new Map((months.find((m) => m.agg.month === prior)?.agg.groups.get(dim) ?? []).map((c) => [c.value, c]));
    const target = solver !== undefined;
    const s: number[] = [];
    const co: number[] = [];
    const nw: number[] = [];
    const storesIn = (p: Published, c: Cell) => (c.value === null ? c.stores : shown(p.get(statId('active_stores', dimensionString(dim, c.value))))?.n ?? null);
    const storesOf = (c: Cell) => storesIn(stats, c);
    // The rule speaks of one release: its hidden cells are smaller than what it publishes.
    const smallestShown = knowsRule ? Math.min(...cells.filter((c) => c.value !== null).map((c) => storesIn(own[i], c) ?? Infinity)) : Infinity;
    for (const c of cells) {
      const where = dimensionString(dim, c.value);
      const pub = storesOf(c);
      // A listed cell may hold no stores (every value seen in any month is listed: universe.ts);
      // one that holds some is taken to be known to (a stronger reader than any real one).
      const ruled = c.stores <= smallestShown && !months[i].earlier?.hidden.has(statId('active_stores', where));
      const most = ruled ? Math.min(total.n!, smallestShown) : total.n!;
      const sv = pub !== null ? b.constant(pub) : b.variable(c.stores > 0 ? 1 : 0, most);
      storeVar.set(cellKey(agg.month, c.value), sv);
      s.push(sv);
      if (pub === null && target && (!knowsRule || c.stores < FLOOR)) targets.push({ v: sv, month: agg.month, cell: c, figure: 'stores', truth: c.stores });
      const newStores = c.metrics.get('new_stores')!.num;
      const newPub = c.value === null ? null : shown(stats.get(statId('new_stores', where)))?.value ?? null;
      const nv = newPub !== null ? b.constant(newPub) : b.variable(0, total.n!);
      nw.push(nv);
      b.atMost([nv], [sv]);
      // New stores are audited where the cell's size is hidden: where it is published, new stores
      // are at most its stores less its published cohort, a figure this rule does not cover.
      if (newPub === null && pub === null && target && !knowsRule) targets.push({ v: nv, month: agg.month, cell: c, figure: 'new stores', truth: newStores, within: [cellKey(agg.month, c.value)] });
      if (!agg.hasPrior) continue;
      const coPub = c.value === null ? null : publishedCohort(stats, where);
      const cv = coPub !== null ? b.constant(coPub) : b.variable(0, total.n!);
      co.push(cv);
      b.atMost([cv], [sv]);
      // A trend's n counts stores present in both months: a published one bounds the cohort from below.
      for (const m of WITHIN_COHORT) {
        const trend = shown(stats.get(statId(m.key, where)));
        if (trend) b.atMost([b.constant(trend.n!)], [cv]);
      }
      if (c.cohort + newStores <= c.stores) b.atMost([cv, nv], [sv]);
      // A store keeps its country and category (its plan changes by design): a cell's cohort
      // fits in the same cell the month before, where the data says so.
      const within = [cellKey(agg.month, c.value)];
      if (inScope.has(prior) && KEPT.has(dim)) {
        const before = priorCells.get(c.value);
        const pv = before ? storeVar.get(cellKey(prior, c.value)) : undefined;
        if (before && pv !== undefined && c.cohort <= before.stores) {
          b.atMost([cv], [pv]);
          within.push(cellKey(prior, c.value));
        }
        if (!before && c.cohort === 0) b.row([[cv, 1]], -Infinity, 0);
      }
      if (coPub === null && c.value !== null && target && !knowsRule && (!inScope.has(prior) || priorCells.has(c.value))) {
        targets.push({ v: cv, month: agg.month, cell: c, figure: 'cohort', truth: c.cohort, within });
      }
    }
    b.equal(s.map((v) => [v, 1]), total.n!);
    // Boxes for the metrics' n (outer bounds: one store, none for an empty cell, up to what the hidden cells hold together).
    const hiddenTotal = total.n! - s.reduce((sum, v) => sum + (b.lower[v] === b.upper[v] ? b.lower[v] : 0), 0);
    const hiddenLeast = s.reduce((sum, v) => sum + (b.lower[v] === b.upper[v] ? 0 : b.lower[v]), 0);
    for (const c of cells) {
      const v = storeVar.get(cellKey(agg.month, c.value))!;
      boxes.set(cellKey(agg.month, c.value), b.lower[v] === b.upper[v] ? [b.lower[v], b.upper[v]] : [b.lower[v], hiddenTotal]);
    }
    // With every cell hidden (or shown by an earlier release of the month, which nothing can
    // hide again), no further suppression can widen an interval: the rule then asks for the
    // most a cell could hold.
    const fixed = months[i].earlier?.shown;
    const hidden = (c: Cell) => b.lower[storeVar.get(cellKey(agg.month, c.value))!] !== b.upper[storeVar.get(cellKey(agg.month, c.value))!];
    const noneLeftToHide = cells.every((c) => c.value === null || hidden(c) || fixed?.has(statId('active_stores', dimensionString(dim, c.value))));
    if (noneLeftToHide) for (const t of targets) if (t.month === agg.month && t.figure === 'stores') t.most = hiddenTotal - (hiddenLeast - b.lower[t.v]);
    const newTotal = shown(stats.get(statId('new_stores', 'all')));
    if (newTotal) b.equal(nw.map((v) => [v, 1]), newTotal.value!);
    const coTotal = agg.hasPrior ? publishedCohort(stats, 'all') : null;
    if (coTotal !== null) b.equal(co.map((v) => [v, 1]), coTotal);
    else if (co.length) {
      for (const m of WITHIN_COHORT) {
        const trend = agg.hasPrior ? shown(stats.get(statId(m.key, 'all'))) : null;
        if (trend) b.row(co.map((v) => [v, 1]), trend.n!, Infinity);
      }
    }
  });

  if (!solver) return boxes;
  // A figure bounded by the store count of a cell the published figures show to be empty is zero
  // because that cell is: the store count's own rule decides (it has the cell hidden more, or
  // accepts it when nothing is left to hide, as when a value new to the publication is listed in
  // months an earlier release published whole), and the zero says nothing beyond it.
  const fine = (t: (typeof targets)[number], interval: [number, number]) =>
    t.figure === 'stores' ? storeCountProtected(interval, t.truth, t.most) : !determined(interval) || t.within?.some((k) => knownEmpty(boxes, k)) === true;
  const byVar = new Map(targets.map((t) => [t.v, t]));
  const accepts = targets.map((t) => [t.figure, t.truth, t.most ?? Infinity, t.within?.some((k) => knownEmpty(boxes, k)) === true]);
  const found = intervalsOf(solver, b, targets.map((t) => t.v), accepts, scope, (v, seen) => fine(byVar.get(v)!, seen));
  targets.forEach((t, i) => {
    const interval = found[i];
    const lowTooTight = t.figure === 'stores' && interval[0] > lowEnough(t.truth);
    const finding: Finding = { month: t.month, dim, value: t.cell.value!, metric: null, figure: t.figure, interval, truth: t.truth, lowTooTight, ...(knowsRule ? { knowsRule: true as const } : {}) };
    scope.onInterval?.(finding);
    if (!fine(t, interval)) findings.push(finding);
  });
  return boxes;
}

/** Whether the published figures show a cell to hold no store: what the hidden cells of its breakdown hold together is none. */
const knownEmpty = (boxes: Intervals, key: string): boolean => boxes.get(key)?.[1] === 0;

/** App cells overlap (a store runs several apps): what adds up is installs, this total's numerator. */
const APP_IDENTITY = 'mean_apps_installed';

/** An app cell's size, if any of its published stats states it (they all count its stores). */
export function publishedAppSize(stats: Published, dimension: string): number | null {
  for (const m of METRICS) {
    const s = shown(stats.get(statId(m.key, dimension)));
    if (s) return s.n;
  }
  return null;
}

/** The app breakdown: its cells' sizes add up to the installs total, each at most the stores with known apps. */
function auditApps(months: AuditMonth[], published: Published[], solver: IntervalSolver | undefined, findings: Finding[], scope: AuditScope): void {
  if (!solver) return;
  const b = new SystemBuilder();
  const targets: Array<{ v: number; month: string; cell: Cell; most: number }> = [];
  months.forEach(({ agg }, i) => {
    const installs = shown(published[i].get(statId(APP_IDENTITY, 'all')));
    if (!installs) return;
    const cells = agg.groups.get('app') ?? [];
    const sizes = cells.map((c) => publishedAppSize(published[i], dimensionString('app', c.value)));
    const vars = sizes.map((pub) => (pub !== null ? b.constant(pub) : b.variable(1, installs.n!)));
    b.equal(vars.map((v) => [v, 1]), installs.numerator!);
    const hidden = sizes.filter((x) => x === null).length;
    const fixed = months[i].earlier?.shown;
    const fixedCell = (c: Cell) => fixed !== undefined && METRICS.some((m) => fixed.has(statId(m.key, dimensionString('app', c.value))));
    const shownTotal = sizes.reduce((sum: number, x) => sum + (x ?? 0), 0);
    const most = sizes.every((x, k) => x === null || fixedCell(cells[k])) ? installs.numerator! - shownTotal - (hidden - 1) : Infinity;
    cells.forEach((c, k) => sizes[k] === null && targets.push({ v: vars[k], month: agg.month, cell: c, most }));
  });
  const fine = (t: (typeof targets)[number], interval: [number, number]) => storeCountProtected(interval, t.cell.stores, t.most);
  const byVar = new Map(targets.map((t) => [t.v, t]));
  const accepts = targets.map((t) => [t.cell.stores, t.most]);
  const found = intervalsOf(solver, b, targets.map((t) => t.v), accepts, scope, (v, seen) => fine(byVar.get(v)!, seen));
  targets.forEach((t, i) => {
    const finding: Finding = { month: t.month, dim: 'app', value: t.cell.value!, metric: null, figure: 'stores', interval: found[i], truth: t.cell.stores, lowTooTight: false };
    scope.onInterval?.(finding);
    if (!fine(t, found[i])) findings.push(finding);
  });
}

/** The default range of one store's contribution to a metric's numerator. */
const perStore = (m: MetricDef): [number, number] => (m.kind === 'mean' ? [...(m.range ?? [0, Infinity])] as [number, number] : [0, 1]);

/** Each metric's hidden n and numerators in one breakdown and month. */
function auditMetrics(dim: DimensionName, agg: MonthAgg, stats: Published, stores: Intervals, findings: Finding[], scope: AuditScope): void {
  const cells = agg.groups.get(dim) ?? [];
  const allStores = shown(stats.get(statId('active_stores', 'all')));
  for (const m of METRICS) {
    if (m.skip?.includes(dim as 'country')) continue;
    const total = shown(stats.get(statId(m.key, 'all')));
    if (!total) continue;
    // When the total's n is every store, so is every cell's: n is the store count.
    const nIsStores = allStores !== null && total.n === allStores.n;
    let nResidual = total.n!;
    let numResidual = total.numerator!;
    const hidden: Cell[] = [];
    const nBox: Array<[number, number]> = [];
    for (const c of cells) {
      const s = c.value === null ? null : shown(stats.get(statId(m.key, dimensionString(dim, c.value))));
      if (s) {
        nResidual -= s.n!;
        numResidual -= s.numerator!;
        continue;
      }
      const box = stores.get(cellKey(agg.month, c.value)) ?? [c.value === null ? c.stores : Math.min(1, c.stores), allStores?.n ?? Infinity];
      hidden.push(c);
      nBox.push(nIsStores ? box : [0, box[1]]);
    }
    if (hidden.every((c) => c.value === null)) continue;
    const intervals = metricIntervals({ nResidual, numResidual, nBox, perStore: perStore(m) });
    hidden.forEach((c, i) => {
      // A cell shown to be empty has n and numerators of zero: its store count's rule decides (auditStores).
      if (c.value === null || knownEmpty(stores, cellKey(agg.month, c.value))) return;
      const a = c.metrics.get(m.key)!;
      const report = (figure: Figure, interval: [number, number], truth: number, check: boolean) => {
        const found = check && determined(interval);
        if (!found && !scope.onInterval) return;
        const finding: Finding = { month: agg.month, dim, value: c.value!, metric: m.key, figure, interval, truth, lowTooTight: false };
        scope.onInterval?.(finding);
        if (found) findings.push(finding);
      };
      report('n', intervals[i].n, a.n, !nIsStores);
      report('numerator', intervals[i].num, a.num, true);
    });
  }
}
