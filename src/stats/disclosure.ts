/**
 * Builds one month under the protection rule: build, audit what a reader can bound from it and
 * the month before, suppress a little more where the rule fails, and again, until it holds.
 * Refuses (DisclosureError) only when no further suppression can help. Pure but for the solver.
 *
 * What is suppressed more, chosen to lose the least: for a store count, the next-smallest
 * published cell of the breakdown; for a count of the month before pinned by this month's
 * cohorts, that cell's cohort figures (its deltas and returning-store numerator) in this month;
 * for a cohort, new-store count, n or numerator, the same figure of the next-smallest published
 * cell that holds any of it (and, when none is left, the metric's total).
 */
import { previousMonth, type DimensionName } from '../core/panel-contract.js';
import type { MonthAgg } from './aggregate.js';
import { audit, AUDITED_DIMENSIONS, publishedAppSize, publishedCohort, publishedOf, type AuditMonth, type AuditScope, type Finding, type IntervalMemo, type Published } from './audit.js';
import { noExtraSuppression, planMonth, statsOf, type BuiltMonth, type ExtraSuppression } from './build.js';
import { DisclosureError, guardMonth } from './guard.js';
import type { IntervalSolver } from './lp.js';
import { METRICS } from './registry.js';
import { carriedSuppression, hideable, type EarlierReleases } from './releases.js';
import { dimensionString, statId } from './text.js';

export { DisclosureError };

/** Metrics whose figures are store counts: hiding one changes the store-count system. */
const COUNTS = new Set(METRICS.filter((m) => m.kind === 'count' || m.numeratorIsSampleSize).map((m) => m.key));

/** Rounds of "suppress more, audit again" before giving up; each round hides at least one more figure. */
const MAX_ROUNDS = 200;

export interface ProtectedMonth {
  built: BuiltMonth;
  extra: ExtraSuppression;
  /** audit rounds it took */
  rounds: number;
  /** the guard's refusal of `built` (guard.ts), null when it passes: run once here, for the caller to act on */
  refusal: DisclosureError | null;
}

/**
 * `previous` is the calendar-previous month as published (final), when there is one: its
 * figures and this month's cohorts are audited together. `earlier` is what the earlier
 * releases of this month published, for a correction: it starts from what they hid and is
 * audited with what they showed.
 */
export function protectMonth(agg: MonthAgg, previous: AuditMonth | undefined, baseUrl: string, solver: IntervalSolver, earlier?: EarlierReleases): ProtectedMonth {
  const extra = earlier ? carriedSuppression(earlier) : noExtraSuppression();
  const prior = previous?.agg.month === previousMonth(agg.month) ? previous : undefined;
  const before = prior ? publishedOf(prior.built) : undefined;
  // A round audits again only the breakdowns the last round's suppression touched (all of them
  // when it touched a total), and solves their store counts again only when it touched those.
  // A breakdown's system left as it was by a round's suppression is not solved again: its
  // intervals are those already found (the same system and targets give the same intervals).
  const memo: IntervalMemo = new Map();
  let scope: AuditScope = { memo };
  for (let round = 1; round <= MAX_ROUNDS; round++) {
    // The audit reads figures only: their texts are made once, for the month as it is published.
    const plan = planMonth(agg, prior?.built, extra);
    const figures = statsOf(plan, agg, prior?.built, baseUrl, false);
    const findings = audit([...(prior ? [prior] : []), { agg, built: figures, earlier }], solver, scope);
    if (findings.length === 0) {
      // The guard has the last word (guard.ts). A breakdown that cannot hide a second cell's
      // cohort beside a hidden one (a single country, say) gives it away as the total's cohort
      // less nothing: hide the total's cohort, as when every cell is hidden, and audit again.
      const refusal = guardRefusal(agg, figures);
      if (extra.cohorts.has('all') || !refusal?.cohort) return { built: statsOf(plan, agg, prior?.built, baseUrl, true), extra, rounds: round, refusal };
      extra.cohorts.add('all');
      scope = { memo };
      continue;
    }
    const stats = hideable(publishedOf(figures), earlier);
    const done = new Set<string>();
    const dims = new Set<DimensionName>();
    const solve = new Set<DimensionName>();
    let more = false;
    for (const f of findings) {
      dims.add(f.dim);
      if (f.metric === null) solve.add(f.dim);
      // Remedies that take the next-smallest cell are one per breakdown and figure a round;
      // those that hide the finding's own cohort are one per finding.
      const own = f.metric === null && (f.month !== agg.month || f.figure === 'new stores');
      const group = own ? `${f.month}|${f.dim}|${f.value}|${f.figure}` : `${f.month}|${f.dim}|${f.metric}|${f.figure}`;
      if (done.has(group)) continue;
      const added = remedy(f, agg, stats, before, extra);
      if (!added) continue;
      done.add(group);
      more = true;
      const total = added.kind !== 'cells' && (added.key === 'all' || added.key.endsWith(':all'));
      for (const d of total ? AUDITED_DIMENSIONS : [f.dim]) {
        dims.add(d);
        // Hiding figures only widens intervals; what can bring new findings is a newly hidden
        // store count, cohort or count, the figures of the store-count system.
        if (total || added.kind !== 'stats' || COUNTS.has(added.key.slice(0, added.key.indexOf(':')))) solve.add(d);
      }
    }
    if (!more) throw new DisclosureError(describe(findings[0]) + releasesOf(earlier, agg.month));
    scope = { dims, solve, memo };
  }
  throw new DisclosureError(`${agg.month}: the protection rule still fails after ${MAX_ROUNDS} rounds of suppression`);
}

/** The guard's refusal of a built month, or null when it passes. */
export function guardRefusal(agg: MonthAgg, built: BuiltMonth): DisclosureError | null {
  try {
    guardMonth(agg, built);
    return null;
  } catch (e) {
    if (e instanceof DisclosureError) return e;
    throw e;
  }
}

/** Names the earlier releases of the month a refusal takes into account: each of a few, the first and last of many. */
export function releasesOf(earlier: EarlierReleases | undefined, month: string): string {
  const ids = earlier?.releases ?? [];
  if (ids.length === 0) return '';
  const named = ids.length <= 3 ? `the earlier release(s) ${ids.join(', ')}` : `the ${ids.length} earlier releases (${ids[0]} to ${ids[ids.length - 1]})`;
  return ` (with what ${named} of ${month} published)`;
}

function describe(f: Finding): string {
  const what = f.metric ? `${f.figure} of ${f.metric}` : f.figure;
  const [lo, hi] = f.interval.map((x) => Math.round(x * 100) / 100);
  const reader = f.knowsRule ? ' (for a reader who knows the suppression rule)' : '';
  return `cannot protect ${what} by ${f.dim} for ${f.value} in ${f.month}: the published figures bound it to [${lo}, ${hi}]${reader} and no further suppression helps`;
}

type Added = { kind: keyof ExtraSuppression; key: string } | null;

/** Adds one suppression that may fix the finding; null when nothing is left to add. */
function remedy(f: Finding, agg: MonthAgg, stats: Published, before: Published | undefined, extra: ExtraSuppression): Added {
  const cells = (agg.groups.get(f.dim) ?? []).filter((c) => c.value !== null);
  const where = (value: string | null) => dimensionString(f.dim, value);
  const shown = (id: string) => {
    const s = stats.get(id);
    return s !== undefined && !s.suppressed;
  };
  const add = (kind: keyof ExtraSuppression, key: string): Added => (extra[kind].has(key) ? null : (extra[kind].add(key), { kind, key }));
  const smallest = <T>(items: T[], size: (x: T) => number) => [...items].sort((a, b) => size(a) - size(b))[0];

  if (f.month !== agg.month) {
    // The month before is final: what pins it is this month's cohorts. Hide the cell's own
    // cohort if it is published, else the smallest published cohort of a cell hidden then.
    const own = cells.find((c) => c.value === f.value && publishedCohort(stats, where(c.value)) !== null);
    if (own) return add('cohorts', where(own.value));
    const candidates = cells.filter((c) => publishedCohort(stats, where(c.value)) !== null && !extra.cohorts.has(where(c.value)));
    const next = smallest(candidates, (c) => c.cohort);
    if (next !== undefined) return add('cohorts', where(next.value));
    if (publishedCohort(stats, 'all') !== null) return add('cohorts', 'all');
  }
  // A cell's new stores are at most its stores less its cohort: with both published, hide the cohort.
  if (f.figure === 'new stores' && f.month === agg.month && publishedCohort(stats, where(f.value)) !== null) return add('cohorts', where(f.value));
  switch (f.month === agg.month ? f.figure : 'stores') {
    case 'stores': {
      // Too high a lower bound comes from the cohorts: the total's cohort and the cells' sizes
      // the month before bound each cell's cohort from below. Hide the total's cohort.
      if (f.lowTooTight && !f.knowsRule && f.month === agg.month && publishedCohort(stats, 'all') !== null) return add('cohorts', 'all');
      // Else hide one more cell, preferring one hidden the month before: consistent patterns
      // leave a reader fewer differences to work with.
      const storesShown = (p: Published | undefined, c: (typeof cells)[number]) =>
        p !== undefined && (f.dim === 'app' ? publishedAppSize(p, where(c.value)) !== null : p.get(statId('active_stores', where(c.value)))?.suppressed === false);
      const open = cells.filter((c) => storesShown(stats, c));
      const hiddenBefore = open.filter((c) => !storesShown(before, c));
      // Against the reader who knows the rule, only the smallest widens the interval (it raises
      // the smallest published cell, the bound that reader puts on every hidden one).
      const next = smallest(hiddenBefore.length && !f.knowsRule ? hiddenBefore : open, (c) => c.stores);
      if (next !== undefined) return add('cells', where(next.value));
      // Every cell is hidden: what still bounds them is the cohorts; hide the total's.
      return f.dim !== 'app' && publishedCohort(stats, 'all') !== null ? add('cohorts', 'all') : null;
    }
    case 'cohort': {
      const next = smallest(cells.filter((c) => c.cohort > 0 && publishedCohort(stats, where(c.value)) !== null), (c) => c.cohort);
      if (next !== undefined) return add('cohorts', where(next.value));
      return publishedCohort(stats, 'all') !== null ? add('cohorts', 'all') : null;
    }
    case 'new stores':
    case 'n':
    case 'numerator': {
      const key = f.metric ?? 'new_stores';
      const holds = (c: (typeof cells)[number]) => (f.figure === 'n' ? c.metrics.get(key)!.n : c.metrics.get(key)!.num) !== 0;
      const next = smallest(cells.filter((c) => holds(c) && shown(statId(key, where(c.value)))), (c) => c.metrics.get(key)!.n);
      if (next !== undefined) return add('stats', statId(key, where(next.value)));
      // New stores are also what a month's stores less its cohort leave: hide the total's cohort last.
      return add('stats', statId(key, 'all')) ?? (f.figure === 'new stores' && publishedCohort(stats, 'all') !== null ? add('cohorts', 'all') : null);
    }
  }
}
