/**
 * An independent reader's attack on a release (issue 8), from the published JSON and CSV alone
 * (published-reader.ts); it imports nothing of src/stats. For one breakdown, ONE linear programme
 * over every published month holds every figure a reader can tie together:
 *
 * - per month and cell: the store count S, every metric's n and numerator, the returning stores
 *   R (returning_store_share's numerator) and, per metric with a shown delta, its cohort D;
 * - the cells of every additive figure add up to its `all` figure (store counts, n, numerators of
 *   counts, shares, rates and bounded means, delta cohorts); the unknown cell's size is the total
 *   less the known-share numerator on the methodology page;
 * - numerator ≤ n ≤ S (a mean's sum between its per-store range times n); a trend metric's n and
 *   every delta cohort ≤ R ≤ S; a count's shown delta gives the cell's count (its value, e.g.
 *   the new stores) the month before;
 * - with `stable` (stores keep their country and category, as the generator does): R of a cell
 *   ≤ its S the month before (0 where the cell is not listed then);
 * - a hidden cell holds 0 stores or more (the methodology lists every cell seen in any month in
 *   every month, so a listed cell may be empty).
 *
 * With `enough` (a caller that knows the truth and the rule), a figure stops being solved once
 * the solutions already found span an interval the caller accepts (as any attacker's interval
 * contains those points, the true bounds are at least that wide); a few solves with every target
 * in the objective come first, so most figures need no solve of their own.
 *
 * Every release of an output folder at once (attackReleases, issue 24): each release's figures
 * as above, each earlier release's tied to the latest's by what the reader knows of the changed
 * stores (the difference of every figure, or at most k stores changed); the targets are what every
 * release hid. With `knowsRule`, a reader who knows hidden cells are the smallest of their
 * breakdown: each hidden store count is at most the smallest one published beside it.
 *
 * HiGHS (LP relaxation, warm-started: one model, one objective per bound) minimises and
 * maximises every hidden figure.
 */
import type { Figure, Release } from './published-reader.js';
import { loadHighs } from './highs.js';

export type Dim = 'country' | 'category' | 'plan';
export const UNKNOWN = '(unknown)';

export interface Target {
  month: string;
  cell: string;
  /** 'stores', 'returning', or `n:<metric>` / `num:<metric>` */
  figure: string;
}
export interface Bound extends Target {
  /** attackReleases: the release (index) whose figure this is, when not the latest */
  release?: number;
  lo: number;
  hi: number;
  /** every cell of the breakdown is hidden that month: `most` is the most any cell could hold */
  most?: number;
}

const COUNTS = new Set(['active_stores', 'new_stores', 'panel_stores']);
/** Trend metrics count stores present in both months: their n is at most the returning stores. */
const TRENDS = new Set(['app_adopter_share', 'ad_channel_adopter_share', 'agentic_adopter_share', 'traffic_jump_share', 'plan_upgrade_share', 'mean_product_count_change']);
/** What one store adds to a mean's sum, as the definitions state it; unlisted means: unbounded. */
const MEAN_RANGE: Record<string, [number, number]> = {
  mean_readiness_signals: [0, 5],
  mean_ad_channels: [0, 4],
  mean_apps_installed: [0, Infinity],
  mean_product_count: [0, Infinity],
  mean_monthly_visits: [0, Infinity],
  mean_est_revenue_usd: [0, Infinity],
};
/** Means whose sum is a whole number of things (targets like any numerator). */
const INTEGER_MEANS = new Set(['mean_readiness_signals', 'mean_ad_channels', 'mean_apps_installed']);


const shown = (f: Figure | undefined) => (f && !f.suppressed && f.n !== null ? f : null);
const before = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

class Programme {
  private names = new Map<string, string>();
  private box = new Map<string, [number, number]>();
  readonly rows: string[] = [];
  /** The column of `key`, created within [lo, hi] (narrowed when asked again). */
  v(key: string, lo = 0, hi = Infinity): string {
    let name = this.names.get(key);
    if (!name) {
      this.names.set(key, (name = `x${this.names.size}`));
      this.box.set(name, [lo, hi]);
    } else {
      const [a, b] = this.box.get(name)!;
      this.box.set(name, [Math.max(a, lo), Math.min(b, hi)]);
    }
    return name;
  }
  has(key: string): boolean {
    return this.names.has(key);
  }
  keys(): string[] {
    return [...this.names.keys()];
  }
  fix(key: string, value: number): string {
    return this.v(key, value, value);
  }
  /** Σ coef·x  (op)  rhs */
  row(terms: Array<[string, number]>, op: '<=' | '>=' | '=', rhs: number): void {
    const text = terms.map(([x, c]) => `${c < 0 ? '-' : '+'} ${Math.abs(c)} ${x}`).join(' ');
    this.rows.push(`${text || '0 x0'} ${op} ${rhs}`);
  }
  text(): string {
    const bound = ([name, [lo, hi]]: [string, [number, number]]) => ` ${lo === -Infinity ? '-inf' : lo} <= ${name} <= ${hi === Infinity ? '+inf' : hi}`;
    return `Minimize\n obj: 0 x0\nSubject To\n${this.rows.map((r, i) => ` r${i}: ${r}`).join('\n')}\nBounds\n${[...this.box].map(bound).join('\n')}\nEnd\n`;
  }
}

export interface AttackOptions {
  /** stores keep their cell from month to month (country, category) */
  stable: boolean;
  /** which hidden figures to bound (default: all; every figure constrains the others either way) */
  only?: (t: Target) => boolean;
  /**
   * Attack each month's figures with the programme of the months within `window` of it (every
   * published figure ties a month to the one before at most), instead of one programme of all
   * months: a programme of fewer figures, so intervals at least as wide as the full one's.
   */
  window?: number;
  /** stop solving a figure once the interval its solutions span so far is one this accepts */
  enough?: (b: Bound) => boolean;
  /**
   * With `enough`: the values each attacked figure (by `month|cell|figure`) took in the solutions
   * found so far, read to start its interval and added to. Only for attacks whose solutions all
   * solve this one too: the same breakdown and months with `stable`, before this one without it
   * (that programme only adds rows), so its points are points of this one.
   */
  seen?: Map<string, [number, number]>;
  /**
   * A reader who knows the suppression rule as the methodology states it (hidden cells are the
   * smallest of their breakdown): per month and breakdown, every hidden store count is at most
   * the smallest store count published in that breakdown that month.
   */
  knowsRule?: boolean;
  /**
   * With `knowsRule`: where the reader takes the rule to hold (release index, month, cell); by
   * default everywhere. A caller that knows the truth passes where it does hold: a reader who
   * is never misled by it, the strongest one.
   */
  ruleHolds?: (release: number, month: string, cell: string) => boolean;
}

/** Every hidden figure of `dim` (or those `only` picks), with the interval the programme allows. */
export async function attackRelease(release: Release, dim: Dim, options: AttackOptions): Promise<Bound[]> {
  const all = [...release.months.keys()].sort();
  if (options.window === undefined) return solveAll(...programme(release, dim, all, all, options), options.enough, `${dim}, every month`, options.seen);
  const out: Bound[] = [];
  for (const [i, month] of all.entries()) {
    const months = all.slice(Math.max(0, i - options.window), i + options.window + 1);
    out.push(...(await solveAll(...programme(release, dim, months, [month], options), options.enough, `${dim}${options.stable ? ' (stable cells)' : ''}, ${months.join(' ')}`, options.seen)));
  }
  return out;
}

export interface ReleasesOptions extends Omit<AttackOptions, 'window'> {
  /**
   * What the reader knows of how each release differs from the latest (the last one): for release
   * `r` and a figure, (its value in release r) − (its value in the latest), or undefined where the
   * reader does not know it (that figure of release r is then tied to the latest by nothing, or by
   * `changedAtMost`).
   */
  diff?: (r: number, t: Target) => number | undefined;
  /**
   * A weaker reader: at most this many stores changed between any release and the latest, so
   * every store count, n and count-like numerator moves by at most this much (per figure without
   * a known `diff`).
   */
  changedAtMost?: number;
  /**
   * Also attack each earlier release's figures that it and every release before it hid but a
   * later release published (bounds with `release` set): what a correction reveals of what an
   * earlier release hid, beyond the changed stores' contribution.
   */
  earlierHidden?: boolean;
}

/** A figure whose value moves by at most one when one store is added, removed or changed. */
const countLike = (figure: string) => figure === 'stores' || figure === 'num:returning_store_share' || (/^(n|num):/.test(figure) && !figure.includes(':mean_'));

/**
 * Several releases of one output folder (oldest first, the latest last) attacked as ONE programme
 * of `dim`: each release has its own figures (each its own programme, as attackRelease builds it),
 * and each figure of an earlier release is tied to the latest's by what the reader knows of the
 * difference (`diff`, or at most `changedAtMost` stores). The targets are the latest release's
 * figures hidden in every release that lists them (a figure any release published is known; what
 * comparing releases tells beyond it is the changed stores' own contribution).
 */
export async function attackReleases(releases: Release[], dim: Dim, options: ReleasesOptions): Promise<Bound[]> {
  if (releases.length === 0) return [];
  const p = new Programme();
  const last = releases.length - 1;
  const built = releases.map((release, r) => {
    const months = [...release.months.keys()].sort();
    return programme(release, dim, months, months, options, p, `r${r}|`, r);
  });
  // Targets: hidden in every release in which the figure exists (its programme has its column).
  const hiddenIn = built.map(([, targets]) => new Set(targets.map((t) => t.key)));
  const exists = (r: number, t: Attacked, from: number) => p.has(`r${r}|${t.col.slice(`r${from}|`.length)}`);
  const hiddenUpTo = (t: Attacked, from: number, to: number) => built.every((_, r) => r > to || r === from || hiddenIn[r].has(t.key) || !exists(r, t, from));
  const targets: Attacked[] = built[last][1].filter((t) => hiddenUpTo(t, last, last));
  if (options.earlierHidden) {
    for (let r = 0; r < last; r++) {
      for (const t of built[r][1]) {
        const publishedLater = built.some((_, q) => q > r && exists(q, t, r) && !hiddenIn[q].has(t.key));
        if (publishedLater && hiddenUpTo(t, r, r)) targets.push({ ...t, release: r, key: `r${r}|${t.key}` });
      }
    }
  }
  // Ties: release r's figure = the latest's + d.
  for (const name of p.keys()) {
    const m = /^r(\d+)\|(.*)$/.exec(name)!;
    const r = Number(m[1]);
    if (r === last) continue;
    const latest = `r${last}|${m[2]}`;
    if (!p.has(latest)) continue;
    const [month, cell, figure] = m[2].split('|');
    const d = options.diff?.(r, { month, cell, figure: figure === 'num:returning_store_share' ? 'returning' : figure });
    if (d !== undefined) {
      p.row([[p.v(name), 1], [p.v(latest), -1]], '=', d);
    } else if (options.changedAtMost !== undefined && countLike(figure)) {
      p.row([[p.v(name), 1], [p.v(latest), -1]], '<=', options.changedAtMost);
      p.row([[p.v(name), 1], [p.v(latest), -1]], '>=', -options.changedAtMost);
    }
  }
  const mosts = new Map(built[last][2]);
  built.forEach(([, , m], r) => m.forEach((most, month) => mosts.set(`r${r}|${month}`, most)));
  return solveAll(p, targets, mosts, options.enough, `${dim}${options.stable ? ' (stable cells)' : ''}, ${releases.length} releases`, options.seen);
}

/** A target as programme() finds it: `key` names the figure (month|cell|figure), `col` its column. */
type Attacked = Target & { key: string; col: string; release?: number };

/**
 * The programme of `months`, with the hidden figures of `attacked` (among them) as targets; built
 * into `p` with its columns' names prefixed by `prefix` (attackReleases: one prefix per release).
 */
function programme(release: Release, dim: Dim, months: string[], attacked: string[], { stable, only = () => true, knowsRule = false, ruleHolds }: AttackOptions, p = new Programme(), prefix = '', index = 0): [Programme, Attacked[], Map<string, number>] {
  const targets: Attacked[] = [];
  const mosts = new Map<string, number>();
  const cellsOf = (month: string) => {
    const cells = new Set<string>();
    for (const f of release.months.get(month)!.values()) if (f.dimension.startsWith(`${dim}:`)) cells.add(f.dimension.slice(dim.length + 1));
    return [...cells, UNKNOWN];
  };
  for (const month of months) {
    const figs = release.months.get(month)!;
    const total = shown(figs.get('active_stores|all'));
    if (!total) continue;
    const T = total.n!;
    const cells = cellsOf(month);
    const get = (metric: string, cell: string) => (cell === UNKNOWN ? null : shown(figs.get(`${metric}|${dim}:${cell}`)));
    const key = (figure: string, cell: string, m = month) => `${prefix}${m}|${cell}|${figure}`;
    const target = (figure: string, cell: string) =>
      attacked.includes(month) && only({ month, cell, figure }) && targets.push({ month, cell, figure, key: `${month}|${cell}|${figure}`, col: key(figure === 'returning' ? 'num:returning_store_share' : figure, cell) });

    // Store counts.
    const known = shown(figs.get(`${dim}_known_share|all`));
    let hiddenCells = 0;
    let publishedStores = 0;
    for (const cell of cells) {
      const pub = get('active_stores', cell);
      if (pub) {
        p.fix(key('stores', cell), pub.n!);
        publishedStores += pub.n!;
      } else if (cell === UNKNOWN) {
        if (known && known.n === T) p.fix(key('stores', cell), T - known.numerator!);
        else p.v(key('stores', cell), 0, T);
      } else {
        // Every cell seen in any month is listed in every month (methodology): a hidden one may be empty.
        p.v(key('stores', cell), 0, T);
        target('stores', cell);
        hiddenCells++;
      }
    }
    p.row(cells.map((c) => [p.v(key('stores', c)), 1]), '=', T);
    if (knowsRule) {
      // The methodology: hidden cells are the smallest of their breakdown.
      const published = cells.filter((c) => c !== UNKNOWN).map((c) => get('active_stores', c)?.n ?? null).filter((n): n is number => n !== null);
      const least = Math.min(...published);
      const holds = (cell: string) => ruleHolds?.(index, month, cell) ?? true;
      if (published.length > 0) for (const cell of cells) if (cell !== UNKNOWN && !get('active_stores', cell) && holds(cell)) p.v(key('stores', cell), 0, least);
    }
    if (hiddenCells === cells.length - 1 && known && known.n === T) mosts.set(month, T - (T - known.numerator!) - publishedStores);

    const metrics = new Set<string>();
    for (const f of figs.values()) if (f.dimension === 'all' || f.dimension.startsWith(`${dim}:`)) metrics.add(f.metric);
    const hasPrior = metrics.has('returning_store_share');
    // Returning stores (the numerator of returning_store_share) come first: trends refer to them.
    const returning = (cell: string) => p.v(key('num:returning_store_share', cell), 0, T);

    for (const metric of metrics) {
      const isStores = metric === 'active_stores';
      const all = shown(figs.get(`${metric}|all`));
      const count = COUNTS.has(metric);
      const mean = metric.startsWith('mean_');
      const range = MEAN_RANGE[metric];
      const nKey = (cell: string) => key(`n:${metric}`, cell);
      const numKey = (cell: string) => key(`num:${metric}`, cell);
      for (const cell of cells) {
        const s = p.v(key('stores', cell));
        const pub = get(metric, cell);
        const hiddenCell = cell !== UNKNOWN;
        const n = isStores ? s : pub ? p.fix(nKey(cell), pub.n!) : p.v(nKey(cell), 0, T);
        if (!pub && hiddenCell && !count) target(`n:${metric}`, cell);
        if (isStores) {
          // its figures are the store counts themselves
        } else if (metric === 'panel_stores' && all && all.n === T) p.row([[n, 1], [s, -1]], '=', 0);
        else p.row([[n, 1], [s, -1]], '<=', 0);
        if (TRENDS.has(metric) && hasPrior) p.row([[n, 1], [returning(cell), -1]], '<=', 0);
        if (count) {
          if (!pub && hiddenCell && !isStores) target(`num:${metric}`, cell);
          // A count's numerator (its value: the stores counted, e.g. new stores) fits in its n.
          if (!isStores) p.row([[pub ? p.fix(numKey(cell), pub.numerator!) : p.v(numKey(cell), 0, T), 1], [n, -1]], '<=', 0);
        } else if (!mean || range) {
          const [lo, hi] = range ?? [0, 1];
          const u = pub ? p.fix(numKey(cell), pub.numerator!) : p.v(numKey(cell), mean ? -Infinity : 0, mean && hi === Infinity ? Infinity : T * hi);
          if (!pub && hiddenCell && (!mean || INTEGER_MEANS.has(metric))) target(`num:${metric}`, cell);
          p.row([[u, 1], [n, -lo]], '>=', 0);
          if (hi !== Infinity) p.row([[u, 1], [n, -hi]], '<=', 0);
        }
        // A count's shown delta states the cell's count (its value) the month before.
        const f = cell === UNKNOWN ? null : figs.get(`${metric}|${dim}:${cell}`);
        if (count && f && f.change !== null && pub) {
          const prior = metric === 'active_stores' ? key('stores', cell, before(month)) : key(`num:${metric}`, cell, before(month));
          p.row([[p.v(prior), 1]], '=', pub.numerator! - f.change);
        }
        // A shown delta's cohort: the cell's stores present the month before (every metric's delta
        // is taken on that cohort, as the published figures show).
        if (hasPrior && f && f.cohort !== null) p.row([[returning(cell), 1]], '=', f.cohort);
      }
      if (all && !isStores) {
        p.row(cells.map((c) => [p.v(nKey(c)), 1]), '=', all.n!);
        if ((count || !mean || range) && all.numerator !== null) p.row(cells.map((c) => [p.v(numKey(c)), 1]), '=', all.numerator);
      }
      const allCohort = figs.get(`${metric}|all`)?.cohort ?? null;
      if (hasPrior && allCohort !== null) p.row(cells.map((c) => [returning(c), 1]), '=', allCohort);
      // (New stores + returning stores ≤ stores does not hold: the generated panels have stores
      // created in a month they were already observed in.)
    }
    if (hasPrior) {
      for (const cell of cells) if (cell !== UNKNOWN && !get('returning_store_share', cell)) target('returning', cell);
      if (stable && months.includes(before(month))) {
        const earlier = new Set(cellsOf(before(month)));
        for (const cell of cells) {
          if (earlier.has(cell)) p.row([[returning(cell), 1], [p.v(key('stores', cell, before(month))), -1]], '<=', 0);
          else p.row([[returning(cell), 1]], '<=', 0);
        }
      }
    }
  }
  return [p, targets, mosts];
}

async function solveAll(p: Programme, targets: Attacked[], mosts: Map<string, number>, enough?: (b: Bound) => boolean, context = '', known?: Map<string, [number, number]>): Promise<Bound[]> {
  if (targets.length === 0) return [];
  const model = (await loadHighs()).createModel({ format: 'lp', data: p.text() });
  try {
    // Without presolve, the primal simplex re-solves from the last basis after each objective change
    // (that basis stays feasible): measured about 10x faster than the default dual simplex here.
    model.options.set({ output_flag: false, log_to_console: false, presolve: 'off', solver: 'simplex', simplex_strategy: 4 });
    const cols = targets.map((t) => model.getColByName(p.v(t.col)));
    // Every solution found is a point every attacker's interval contains: the values it gives the
    // targets widen what each is known to reach.
    const seen = targets.map((t): [number, number] => [...(known?.get(t.key) ?? [Infinity, -Infinity])]);
    const solve = (i: number, sign: 1 | -1) => {
      model.changeColCost(i, sign);
      model.run();
      let status = model.getModelStatus();
      if (status !== 7) {
        // A warm start can go astray numerically: solve that objective again from scratch with the dual simplex.
        model.options.set({ simplex_strategy: 1 });
        model.clearSolver();
        model.run();
        status = model.getModelStatus();
        model.options.set({ simplex_strategy: 4 });
      }
      if (status !== 7) throw new Error(`attack LP: HiGHS status ${status} (${context})`);
      const x = sign * model.getObjectiveValue();
      if (enough) {
        const values = model.getSolution().colValue;
        cols.forEach((c, k) => (seen[k] = [Math.min(seen[k][0], values[c]), Math.max(seen[k][1], values[c])]));
      }
      model.changeColCost(i, 0);
      return x;
    };
    const boundOf = (k: number): Bound => {
      const { key, col, ...t } = targets[k];
      void key;
      void col;
      const bound: Bound = { ...t, lo: seen[k][0], hi: seen[k][1] };
      const most = mosts.get(t.release === undefined ? t.month : `r${t.release}|${t.month}`);
      if (t.figure === 'stores' && most !== undefined) bound.most = most;
      return bound;
    };
    const settled = (b: Bound) => enough !== undefined && b.lo <= b.hi && enough(b);
    if (enough) {
      // Solves for every open target at once first (their sum minimised, maximised, then seeded
      // ±1 mixes, while a solve still settles a tenth of those open): their points alone often
      // span what the caller accepts, and those targets need no solve of their own.
      let r = 12345;
      const coin = () => ((r = (r * 1103515245 + 12345) % 2147483648) < 1073741824 ? 1 : -1);
      let open = targets.map((_, k) => k).filter((k) => !settled(boundOf(k)));
      for (let pass = 0; open.length > 1; pass++) {
        for (const k of open) model.changeColCost(cols[k], pass === 0 ? -1 : pass === 1 ? 1 : coin());
        model.run();
        if (model.getModelStatus() === 7) {
          const values = model.getSolution().colValue;
          cols.forEach((c, k) => (seen[k] = [Math.min(seen[k][0], values[c]), Math.max(seen[k][1], values[c])]));
        }
        for (const k of open) model.changeColCost(cols[k], 0);
        const still = open.filter((k) => !settled(boundOf(k)));
        if (pass > 0 && still.length > 0.9 * open.length) break;
        open = still;
      }
    }
    const bounds = targets.map((_, k) => {
      const bound = boundOf(k);
      if (settled(bound)) return bound;
      bound.lo = solve(cols[k], 1);
      bound.hi = Math.max(seen[k][1], bound.lo);
      if (settled(bound)) return bound;
      bound.hi = solve(cols[k], -1);
      return bound;
    });
    if (enough && known) targets.forEach((t, k) => known.set(t.key, seen[k]));
    return bounds;
  } finally {
    model.dispose();
  }
}

export interface Verdict {
  text: string;
  kind: 'outside' | 'stores' | 'pinned';
}

const EPS = 1e-6;
/**
 * The protection rule against what the attack found, with the true figure where the caller
 * knows it: a hidden store count's interval reaches 30 and ±30% of the truth (down to 1; up to
 * `most` when every cell is hidden), and no other hidden figure is pinned to one whole number.
 */
export function judge(b: Bound, truth: number | undefined, publishedStores: number | null = null): Verdict | null {
  const text = `${b.month} ${b.cell} ${b.figure}: true ${truth ?? '?'}, bounded to [${+b.lo.toFixed(2)}, ${+b.hi.toFixed(2)}]`;
  if (truth !== undefined && (truth < b.lo - EPS || truth > b.hi + EPS)) return { text: `${text} (outside: an assumption is wrong)`, kind: 'outside' };
  if (b.figure === 'stores' && truth !== undefined) {
    const reach = Math.min(Math.max(30, 1.3 * truth), b.most ?? Infinity);
    if (b.hi < reach - EPS || b.lo > Math.max(1, 0.7 * truth) + EPS) return { text, kind: 'stores' };
    return null;
  }
  // An n pinned at the cell's published store count (every store checked) tells nothing new.
  if (b.figure.startsWith('n:') && publishedStores !== null && Math.abs(b.lo - publishedStores) < EPS && Math.abs(b.hi - publishedStores) < EPS) return null;
  return Math.floor(b.hi + EPS) - Math.ceil(b.lo - EPS) < 1 ? { text, kind: 'pinned' } : null;
}
