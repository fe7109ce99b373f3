/**
 * A reader's attack on a publication, from the published documents alone: for one breakdown,
 * every published figure of every month becomes a linear constraint (cells add up to the total;
 * the unknown cell's size from the known-country/category/plan share; cohorts and new stores fit
 * in their cell; a cell's cohort fits in the same cell the month before, as stores keep their
 * country and category; each metric's numerator ≤ n ≤ the cell's stores) and HiGHS bounds each
 * hidden figure, as tau-ARGUS or sdcTable's attack() would. Written independently of
 * src/stats/audit.ts: CPLEX LP text, one persistent model, one objective per bound.
 */
import type { Stat } from '../../src/stats/types.js';
import { loadHighs } from '../helpers/highs.js';

/** month → stat id → stat, read from the published JSON. */
export type PublishedStats = Map<string, Map<string, Stat>>;

export interface Bound {
  month: string;
  value: string;
  /** 'stores', 'cohort', or a metric key (its numerator) */
  figure: string;
  lo: number;
  hi: number;
}


const shown = (s: Stat | undefined) => (s && !s.suppressed ? s : null);
const prev = (month: string) => {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
};

/** The cohort a cell's published figures state: a returning-store numerator or any delta's cohort. */
function cohortOf(stats: Map<string, Stat>, dimension: string): number | null {
  const returning = shown(stats.get(`returning_store_share:${dimension}`));
  if (returning) return returning.numerator;
  for (const s of stats.values()) {
    if (s.dimension === dimension && s.delta && !s.delta.suppressed) return s.delta.cohort_n;
  }
  return null;
}

/**
 * Bounds of every hidden store count, cohort and (for `metrics`) numerator of `dim`.
 * `stable`: whether stores keep their cell from month to month (country, category).
 */
export async function attack(published: PublishedStats, dim: 'country' | 'category' | 'plan', metrics: string[], stable: boolean): Promise<Bound[]> {
  const rows: string[] = [];
  const bounds: string[] = [];
  const targets: Array<{ name: string; month: string; value: string; figure: string }> = [];
  let vars = 0;
  const names = new Map<string, string>();
  const v = (key: string) => {
    let name = names.get(key);
    if (!name) names.set(key, (name = `x${vars++}`));
    return name;
  };
  const fix = (name: string, value: number) => bounds.push(` ${name} = ${value}`);
  const sum = (terms: string[]) => terms.join(' + ') || '0 x_zero';

  for (const [month, stats] of published) {
    const all = shown(stats.get('active_stores:all'));
    if (!all) continue;
    const values = [...stats.values()].filter((s) => s.metric_key === 'active_stores' && s.dimension.startsWith(`${dim}:`)).map((s) => s.dimension.slice(dim.length + 1));
    const cells = [...values, '\u0000unknown'];
    const known = shown(stats.get(`${dim}_known_share:all`));
    const hasPrior = [...stats.values()].some((s) => s.delta !== null);
    const before = published.get(prev(month));
    const cellsBefore = before ? new Set([...before.values()].filter((s) => s.metric_key === 'active_stores' && s.dimension.startsWith(`${dim}:`)).map((s) => s.dimension.slice(dim.length + 1))) : null;
    const col = (figure: string, value: string) => v(`${month}|${value}|${figure}`);
    for (const value of cells) {
      const dimension = `${dim}:${value}`;
      const unknown = value === '\u0000unknown';
      const s = col('stores', value);
      const st = unknown ? null : shown(stats.get(`active_stores:${dimension}`));
      if (st) fix(s, st.n!);
      else if (unknown && known) fix(s, all.n! - known.numerator!);
      // Every cell seen in any month is listed in every month: a hidden one may be empty.
      else bounds.push(` 0 <= ${s} <= ${all.n}`);
      if (!st && !unknown) targets.push({ name: s, month, value, figure: 'stores' });
      const nw = col('new', value);
      const newStat = unknown ? null : shown(stats.get(`new_stores:${dimension}`));
      if (newStat) fix(nw, newStat.value!);
      if (hasPrior) {
        const co = col('cohort', value);
        const c = unknown ? null : cohortOf(stats, dimension);
        if (c !== null) fix(co, c);
        else if (!unknown && (!cellsBefore || cellsBefore.has(value))) targets.push({ name: co, month, value, figure: 'cohort' });
        rows.push(` ${co} + ${nw} - ${s} <= 0`);
        if (stable && cellsBefore && !unknown) {
          if (cellsBefore.has(value)) rows.push(` ${co} - ${v(`${prev(month)}|${value}|stores`)} <= 0`);
          else rows.push(` ${co} <= 0`);
        }
      } else rows.push(` ${nw} - ${s} <= 0`);
      for (const key of metrics) {
        const n = col(`n:${key}`, value);
        const num = col(`num:${key}`, value);
        const m = unknown ? null : shown(stats.get(`${key}:${dimension}`));
        if (m) {
          fix(n, m.n!);
          fix(num, m.numerator!);
        } else if (!unknown) targets.push({ name: num, month, value, figure: key });
        const total = shown(stats.get(`${key}:all`));
        rows.push(total && total.n === all.n ? ` ${n} - ${s} = 0` : ` ${n} - ${s} <= 0`, ` ${num} - ${n} <= 0`);
      }
    }
    rows.push(` ${sum(cells.map((x) => col('stores', x)))} = ${all.n}`);
    const newAll = shown(stats.get('new_stores:all'));
    if (newAll) rows.push(` ${sum(cells.map((x) => col('new', x)))} = ${newAll.value}`);
    const coAll = hasPrior ? cohortOf(stats, 'all') : null;
    if (coAll !== null) rows.push(` ${sum(cells.map((x) => col('cohort', x)))} = ${coAll}`);
    for (const key of metrics) {
      const total = shown(stats.get(`${key}:all`));
      if (!total) continue;
      rows.push(` ${sum(cells.map((x) => col(`n:${key}`, x)))} = ${total.n}`, ` ${sum(cells.map((x) => col(`num:${key}`, x)))} = ${total.numerator}`);
    }
  }
  const lp = `Minimize\n obj: 0 x0\nSubject To\n${rows.map((r, i) => ` r${i}:${r}`).join('\n')}\nBounds\n${bounds.join('\n')}\n x_zero = 0\nEnd\n`;
  const model = (await loadHighs()).createModel({ format: 'lp', data: lp });
  try {
    // One model, one objective per bound: without presolve the primal simplex re-solves from the
    // last basis (still feasible) instead of from scratch, as independent-attacker.ts does. The
    // optimum is the LP's, whichever simplex finds it.
    model.options.set({ output_flag: false, presolve: 'off', solver: 'simplex', simplex_strategy: 4 });
    const solve = (i: number, sign: 1 | -1) => {
      model.changeColCost(i, sign);
      model.run();
      let status = model.getModelStatus();
      if (status !== 7) {
        // A warm start can go astray numerically: that objective again from scratch, as before.
        model.options.set({ presolve: 'on', simplex_strategy: 1 });
        model.clearSolver();
        model.run();
        status = model.getModelStatus();
        model.options.set({ presolve: 'off', simplex_strategy: 4 });
      }
      const x = sign * model.getObjectiveValue();
      model.changeColCost(i, 0);
      if (status !== 7) throw new Error(`attack LP: HiGHS status ${status}`);
      return x;
    };
    return targets.map((t) => {
      const i = model.getColByName(t.name);
      return { month: t.month, value: t.value, figure: t.figure, lo: solve(i, 1), hi: solve(i, -1) };
    });
  } finally {
    model.dispose();
  }
}

/** Bounds that break the protection rule, given the true figures (`truth(bound)`). */
export function breaches(found: Bound[], truth: (b: Bound) => number): string[] {
  const out: string[] = [];
  for (const b of found) {
    const t = truth(b);
    const text = `${b.month} ${b.value} ${b.figure}: true ${t}, bounded to [${+b.lo.toFixed(2)}, ${+b.hi.toFixed(2)}]`;
    if (t < b.lo - 1e-6 || t > b.hi + 1e-6) out.push(`${text} (outside!)`);
    else if (b.figure === 'stores') {
      if (b.hi < 30 - 1e-6 || b.lo > Math.max(1, 0.7 * t) + 1e-6 || b.hi < 1.3 * t - 1e-6) out.push(text);
    } else if (Math.floor(b.hi + 1e-6) - Math.ceil(b.lo - 1e-6) < 1) out.push(text);
  }
  return out;
}
