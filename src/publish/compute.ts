/**
 * Statistics for the months that need them: load the panel files they depend on, aggregate,
 * then build each month under the protection rule (audited with the month before), and guard.
 */
import { CliError } from '../core/errors.js';
import { previousMonth } from '../core/panel-contract.js';
import { aggregatePanel, registerMacros, type MonthStates } from '../panel/aggregate.js';
import { lit, openDuck, toNumber, type Duck, type DuckMemory } from '../panel/duck.js';
import { checkIdOverlap, checkMonthSizes } from '../panel/contract.js';
import { loadPanel, type PanelFile } from '../panel/read.js';
import { writeRun, type RunInfo, type WriteRunsOptions } from '../panel/runs.js';
import type { MonthAgg } from '../stats/aggregate.js';
import type { AuditMonth } from '../stats/audit.js';
import { buildMonth, type BuiltMonth, type ExtraSuppression } from '../stats/build.js';
import { DisclosureError, guardRefusal, protectMonth } from '../stats/disclosure.js';
import type { EarlierReleases } from '../stats/releases.js';
import { loadIntervalSolver } from '../stats/lp.js';
import { unionOf, universeHash, valuesOf, withUniverse, type CellValues } from '../stats/universe.js';
import type { Phase } from './phases.js';

/** Where computeMonths reports: progress lines, and the phase it enters (phases.ts). */
export interface Reporter {
  progress: (message: string) => void;
  phase: (phase: Phase) => void;
}

export interface ComputedMonths {
  built: Map<string, BuiltMonth>;
  /** the suppression the audit added to each built month (kept with the publication) */
  extras: Map<string, ExtraSuppression>;
  /** time spent building under the protection rule (audits and re-builds included) */
  auditSeconds: number;
  /** month → fingerprint of its panel file (panel/fingerprint.ts), for each month aggregated by this call */
  fingerprints: Map<string, string>;
  /** the runs written (or found complete) in the runs folder, one per requested run month */
  runs: RunInfo[];
  /** month → the breakdown values holding stores, for each built month */
  cells: Map<string, CellValues>;
  /** every breakdown value listed in each built month (stats/universe.ts) */
  universe: CellValues;
  /** the listed values differ from `listedAs`: nothing was built, every published month must be */
  relisted: boolean;
  /** the months aggregated by this call (not taken from `cached`), for the cache */
  aggregated: Map<string, MonthAgg>;
}

/** The runs (panel/runs.ts) to write from the same DuckDB load: the months, and the panel files' hashes their run ids are made of. */
export type RunsRequest = Pick<WriteRunsOptions, 'runsDir' | 'months' | 'hashes'>;

/** What computeMonths may take from earlier runs and must keep consistent with them. */
export interface ComputeOptions {
  /**
   * The audit's suppression of months already published: a previous month that is not rebuilt
   * is rebuilt exactly as it was published.
   */
  published?: ReadonlyMap<string, ExtraSuppression>;
  /** the breakdown values of the published months not rebuilt: every month lists those and the built months' own */
  known?: CellValues;
  /**
   * The hash of the values the months not rebuilt list: a change of the listed values stops
   * before building (those months must be rebuilt with the others).
   */
  listedAs?: string;
  /** the runs folder's months to write from the same load (each with its previous month) */
  runs?: RunsRequest;
  /** aggregates kept from earlier runs (aggregate-cache.ts), by month: those months are not aggregated again */
  cached?: ReadonlyMap<string, MonthAgg>;
  /** what the releases already published of each month (stats/releases.ts): a rebuilt month is a correction of it */
  earlier?: ReadonlyMap<string, EarlierReleases>;
  /**
   * The months loaded must hold stores; those of `shrinkChecked` (the months whose input is new
   * or changed) not far fewer than the month before, unless `allowShrink` (panel/contract.ts).
   */
  sizes?: { shrinkChecked: ReadonlySet<string>; allowShrink: boolean; allowNewIds?: boolean };
  /** what DuckDB may hold in memory, and where it spills the rest */
  memory?: DuckMemory;
  /**
   * Store states kept from earlier runs (state-cache.ts): `kept`, month → its state's Parquet
   * file, read instead of that month's panel file where the month is needed only as the month
   * before another; `keep`, the month whose state to write (to `file`) if its facts are made.
   */
  states?: { kept: ReadonlyMap<string, string>; keep?: { month: string; file: string } };
}

/**
 * Built stats of each requested month. A month's deltas and audit need the previous month's
 * aggregates; a month's aggregates need its panel file and the previous month's (trends and
 * matched cohorts): those files are loaded, so `--month` and `--all` agree. With only runs
 * requested, only those are written.
 */
export async function computeMonths(files: PanelFile[], months: string[], baseUrl: string, report: Reporter, o: ComputeOptions = {}): Promise<ComputedMonths> {
  const { published = new Map(), known = {}, listedAs, runs, cached = new Map(), earlier = new Map(), sizes, memory, states } = o;
  const byMonth = new Map(files.map((f) => [f.month, f]));
  const priorsNeeded = months.map(previousMonth).filter((p) => byMonth.has(p) && !months.includes(p));
  // Months whose documents are built, plus the previous months a delta and the audit need.
  const monthsAggregated = [...new Set([...months, ...priorsNeeded])].sort();
  const toAggregate = monthsAggregated.filter((m) => !cached.has(m));
  const needed = new Set<string>();
  for (const m of toAggregate) for (const x of [m, previousMonth(m)]) if (byMonth.has(x)) needed.add(x);
  // A month's signals compare it with the month before.
  for (const m of runs?.months ?? []) for (const x of [m, previousMonth(m)]) if (byMonth.has(x)) needed.add(x);
  // A month needed only as the month before another is read from its kept state, when there is one.
  const ownRead = new Set([...toAggregate, ...(runs?.months ?? [])]);
  const fromState = [...needed].filter((m) => !ownRead.has(m) && states?.kept.has(m));
  let aggs = new Map<string, MonthAgg>();
  let fingerprints = new Map<string, string>();
  const written: RunInfo[] = [];
  if (needed.size) {
    const duck = await openDuck(memory);
    try {
      report.phase('reading');
      const { read, stores: stateStores } = await readableStates(duck, fromState.map((m) => [m, states!.kept.get(m)!]));
      const files = [...needed].sort().map((m) => byMonth.get(m)!);
      const load = files.filter((f) => !read.has(f.month));
      const stores = new Map([...(await loadPanel(duck, load, (f) => report.progress(`reading ${f.name}`))), ...stateStores]);
      const [wrong] = checkMonthSizes(new Map(files.map((f) => [f.month, { file: f, stores: stores.get(f.month)! }])), sizes?.allowShrink ?? false, sizes?.shrinkChecked);
      if (wrong) throw new CliError(wrong);
      await registerMacros(duck);
      report.phase('aggregating');
      if (toAggregate.length) report.progress(`aggregating ${toAggregate.length} month(s)`);
      // The runs are written from the same month tables, as each month is aggregated.
      const writing = runs && { ...runs, onProgress: report.progress };
      const visit = writing && {
        months: writing.months,
        each: async (month: string, cur: string, prev: string | null) => {
          report.phase('writing');
          written.push(await writeRun(duck, byMonth.get(month)!, stores.get(month)!, cur, prev, writing));
          report.phase('aggregating');
        },
      };
      // Every month aggregated here is fingerprinted too: its aggregates may be kept and build it later.
      const monthStates: MonthStates = { read, keep: states?.keep };
      ({ aggs, fingerprints } = await aggregatePanel(duck, toAggregate, toAggregate, (m) => report.progress(`aggregating ${m}`), visit, monthStates));
      // The stores a month shares with the month before are the statistics' matched cohort.
      for (const m of toAggregate.filter((x) => !sizes?.shrinkChecked || sizes.shrinkChecked.has(x))) {
        const before = stores.get(previousMonth(m));
        const moved = before === undefined ? null : checkIdOverlap({ file: byMonth.get(m)!, stores: stores.get(m)!, before, shared: aggs.get(m)!.all.cohort }, sizes?.allowNewIds ?? false);
        if (moved) throw new CliError(moved);
      }
    } finally {
      duck.close();
    }
  }
  const fresh = new Map(aggs);
  for (const m of monthsAggregated) if (cached.has(m)) aggs.set(m, cached.get(m)!);
  if (aggs.size === 0) return { built: new Map(), extras: new Map(), auditSeconds: 0, fingerprints, runs: written, cells: new Map(), universe: unionOf([known]), relisted: false, aggregated: fresh };
  const cells = new Map(months.filter((m) => aggs.has(m)).map((m) => [m, valuesOf(aggs.get(m)!)]));
  const universe = unionOf([known, ...cells.values()]);
  if (listedAs !== undefined && universeHash(universe) !== listedAs) {
    return { built: new Map(), extras: new Map(), auditSeconds: 0, fingerprints, cells, universe, relisted: true, runs: written, aggregated: fresh };
  }
  for (const [m, agg] of aggs) aggs.set(m, withUniverse(agg, universe));
  report.phase('auditing');
  const solver = await loadIntervalSolver();
  let auditSeconds = 0;
  const done = new Map<string, AuditMonth>();
  const out = new Map<string, BuiltMonth>();
  const extras = new Map<string, ExtraSuppression>();
  for (const m of [...aggs.keys()].sort()) {
    const agg = aggs.get(m)!;
    const previous = done.get(previousMonth(m));
    const known = months.includes(m) ? undefined : published.get(m);
    let built: BuiltMonth;
    let refusal: DisclosureError | null;
    if (known) {
      built = buildMonth(agg, previous?.built, baseUrl, known);
      refusal = guardRefusal(agg, built);
    } else {
      report.progress(`building ${m} under the protection rule`);
      const t0 = performance.now();
      const p = refuseOnDisclosure(() => protectMonth(agg, previous, baseUrl, solver, earlier.get(m)));
      auditSeconds += (performance.now() - t0) / 1000;
      built = p.built;
      extras.set(m, p.extra);
      // protectMonth ran the guard on what it built.
      refusal = p.refusal;
    }
    refuseOnDisclosure(() => {
      if (refusal) throw refusal;
    });
    done.set(m, { agg, built, earlier: earlier.get(m) });
    if (months.includes(m)) out.set(m, built);
  }
  return { built: out, extras, auditSeconds, fingerprints, cells, universe, relisted: false, runs: written, aggregated: fresh };
}

/**
 * The kept states that can be read (month → relation) and their stores; one that cannot (damaged,
 * cut short) is left out, and its month's panel file is read instead.
 */
async function readableStates(duck: Duck, kept: [string, string][]): Promise<{ read: Map<string, string>; stores: Map<string, number> }> {
  const read = new Map<string, string>();
  const stores = new Map<string, number>();
  for (const [m, file] of kept) {
    const rel = `read_parquet(${lit(file)})`;
    try {
      stores.set(m, toNumber((await duck.all<{ n: unknown }>(`SELECT count(*) AS n FROM ${rel}`))[0].n));
      read.set(m, rel);
    } catch {
      // not a readable state: the panel file is read
    }
  }
  return { read, stores };
}

/** A disclosure the rules cannot prevent stops the run (exit 1), naming metric, breakdown and month. */
function refuseOnDisclosure<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof DisclosureError) throw new CliError(`refusing to publish: ${e.message}`, 1);
    throw e;
  }
}
