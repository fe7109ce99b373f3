/**
 * The independent attack on a whole release (independent-attacker.ts) judged against the truth
 * counted from the panel files (panel-truth.ts): every breakdown, with and without assuming
 * stores keep their country and category. Imports nothing of src/stats.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { attackRelease, attackReleases, judge, type Bound, type Dim, type Target } from './independent-attacker.js';
import { truthOf } from './panel-truth.js';
import { readRelease, type Release } from './published-reader.js';
import { readPanel, type Panel } from '../panel/panel-rows.js';

/** Store counts, returning stores, and the numerators and n of the rare features (where zeros hide). */
export const FIGURES = (t: Target) => t.figure === 'stores' || t.figure === 'returning' || /mcp_server|agent_ready|agent_checkout|plan_upgrade/.test(t.figure);

export interface AttackReport {
  /** hidden figures attacked */
  attacked: number;
  /** figures bounded inside their protection interval (or pinned), in words */
  violations: string[];
  /** JSON and CSV saying different things about one figure */
  disagreements: string[];
  /** the hidden store count with the narrowest interval found, relative to its size */
  tightest: string;
}

export interface AttackAllOptions {
  only?: (t: Target) => boolean;
  /** months either side of each attacked month in its programme (default: one programme of all months) */
  window?: number;
}

export async function attackPublished(input: string, out: string, { only = FIGURES, window }: AttackAllOptions = {}): Promise<AttackReport> {
  const release = await readRelease(out);
  const panel = readPanel(input);
  const violations: string[] = [];
  let attacked = 0;
  let tightest = '';
  let tightestWidth = Infinity;
  for (const dim of ['country', 'category', 'plan'] as Dim[]) {
    const truth = truthOf(panel, dim);
    const verdictOf = (b: Bound) => {
      const shownStores = release.months.get(b.month)?.get(`active_stores|${dim}:${b.cell}`);
      return judge(b, truth(b), shownStores && !shownStores.suppressed ? shownStores.n : null);
    };
    // Points of the programme with stable cells are points of the one without (it has the same
    // figures and fewer rows): they start its intervals.
    const seen = new Map<string, [number, number]>();
    for (const stable of dim === 'plan' ? [false] : [true, false]) {
      // Solving a figure stops once its interval is wide enough for the rule: its true interval
      // is wider still.
      const bounds = await attackRelease(release, dim, { stable, only, window, enough: (b) => verdictOf(b) === null, seen });
      attacked += bounds.length;
      for (const b of bounds) {
        const t = truth(b);
        const verdict = verdictOf(b);
        if (verdict) violations.push(`${dim}${stable ? ' (stable cells)' : ''} ${verdict.kind}: ${verdict.text}`);
        if (b.figure === 'stores' && t) {
          const width = (b.hi - b.lo) / t;
          if (width < tightestWidth) [tightestWidth, tightest] = [width, `${dim} ${b.month} ${b.cell}: true ${t}, at least [${+b.lo.toFixed(2)}, ${+b.hi.toFixed(2)}]`];
        }
      }
    }
  }
  return { attacked, violations, disagreements: release.disagreements, tightest };
}

/** Every release folder of an output folder, oldest first, as its live releases.json lists them. */
export async function releaseFolders(out: string): Promise<string[]> {
  const index = JSON.parse(await readFile(path.join(out, '.releases', 'current', 'releases.json'), 'utf8')) as { releases: Array<{ id: string }> };
  return index.releases.map((r) => path.join(out, '.releases', r.id));
}

export interface ReleasesAttackOptions {
  /** which hidden figures to bound (default: FIGURES and every share's n) */
  only?: (t: Target) => boolean;
  /**
   * What the reader knows of the differences between releases: `diff` (the strongest: which
   * stores changed, so every figure's difference, as counted from the two panel versions), or at
   * most `changedAtMost` stores changed.
   */
  reader?: 'diff' | { changedAtMost: number };
  /** the reader knows the suppression rule (hidden store counts ≤ the smallest published one) */
  knowsRule?: boolean;
  /** the assumptions of stable cells to attack with, for country and category (default both) */
  stable?: boolean[];
  /** also each earlier release's figures hidden up to it and published later, judged against its own panel */
  earlierHidden?: boolean;
  /**
   * How a release folder and a panel folder are read (default: readRelease and readPanel). A file
   * that attacks the same folders many times can pass readers that read each once: neither the
   * attack nor the truth changes what they return.
   */
  read?: { release: (folder: string) => Promise<Release>; panel: (dir: string) => Panel };
}

export interface ReleasesReport extends AttackReport {
  /** hidden store counts the rule-knowing reader's rule is wrong for (true size above the smallest published cell's) */
  ruleBroken: string[];
}

/** Hidden store counts and returning stores, rare features, and the n of every share (what issue 24 pinned). */
export const RELEASE_FIGURES = (t: Target) => FIGURES(t) || t.figure.startsWith('n:');

/**
 * Every release of an output folder attacked together (attackReleases), judged against the
 * latest panel's truth: `versions` pairs each release folder (oldest first) with the panel folder
 * it was published from. With `knowsRule`, only the cells the floor protects (true size below
 * 30) are judged.
 */
export async function attackReleasesPublished(versions: Array<{ panel: string; folder: string }>, { only = RELEASE_FIGURES, reader = 'diff', knowsRule = false, stable: stables = [true, false], earlierHidden = false, read = { release: readRelease, panel: readPanel } }: ReleasesAttackOptions = {}): Promise<ReleasesReport> {
  const releases: Release[] = await Promise.all(versions.map((v) => read.release(v.folder)));
  const panels = versions.map((v) => read.panel(v.panel));
  const last = releases.length - 1;
  const violations: string[] = [];
  const ruleBroken: string[] = [];
  let attacked = 0;
  let tightest = '';
  let tightestWidth = Infinity;
  for (const dim of ['country', 'category', 'plan'] as Dim[]) {
    const truths = panels.map((panel) => truthOf(panel, dim));
    const truth = truths[last];
    const truthAt = (b: Bound) => truths[b.release ?? last](b);
    const diff = (r: number, t: Target) => {
      const [a, b] = [truths[r](t), truth(t)];
      return a === undefined || b === undefined ? undefined : a - b;
    };
    const protectedCell = (b: Bound) => (truths[b.release ?? last]({ month: b.month, cell: b.cell, figure: 'stores' }) ?? 0) < 30;
    // The cell's store count where the reader knows it: published in its release, or (knowing
    // which stores changed) in any release, less that release's difference.
    const knownStores = (b: Bound): number | null => {
      const r = b.release ?? last;
      const stores = { month: b.month, cell: b.cell, figure: 'stores' };
      for (const q of reader === 'diff' ? [r, ...releases.keys()] : [r]) {
        const shown = releases[q].months.get(b.month)?.get(`active_stores|${dim}:${b.cell}`);
        if (shown && !shown.suppressed && shown.n !== null) return shown.n + (truths[r](stores) ?? 0) - (truths[q](stores) ?? 0);
      }
      return null;
    };
    const verdictOf = (b: Bound) => {
      if (knowsRule && !protectedCell(b)) return null;
      return judge(b, truthAt(b), knownStores(b));
    };
    // The rule as the methodology states it: a hidden cell is no larger than the smallest
    // published one, but for a cell hidden again because the month before (in the same release)
    // or an earlier release of the month hid it. Where a hidden cell breaks it otherwise, it is
    // listed; the rule-knowing reader takes the bound only where it holds (never misled).
    const hiddenIn = (r: number, month: string, cell: string) => releases[r].months.get(month)?.get(`active_stores|${dim}:${cell}`)?.suppressed === true;
    const smallestShown = (r: number, month: string) =>
      Math.min(...[...(releases[r].months.get(month)?.values() ?? [])].filter((f) => f.metric === 'active_stores' && f.dimension.startsWith(`${dim}:`) && !f.suppressed && f.n !== null).map((f) => f.n!));
    const excepted = (r: number, month: string, cell: string) => hiddenIn(r, previousMonthOf(month), cell) || [...releases.keys()].some((q) => q < r && hiddenIn(q, month, cell));
    const ruleHolds = (r: number, month: string, cell: string) => (truths[r]({ month, cell, figure: 'stores' }) ?? 0) <= smallestShown(r, month);
    if (knowsRule) {
      releases.forEach((release, r) => {
        for (const [month, figs] of release.months) {
          for (const f of [...figs.values()].filter((x) => x.metric === 'active_stores' && x.dimension.startsWith(`${dim}:`) && x.suppressed)) {
            const cell = f.dimension.slice(dim.length + 1);
            if (!ruleHolds(r, month, cell) && !excepted(r, month, cell)) {
              ruleBroken.push(`${dim} ${month} ${f.dimension} (release ${r}): hidden with ${truths[r]({ month, cell, figure: 'stores' })} stores, the smallest published ${smallestShown(r, month)}`);
            }
          }
        }
      });
    }
    const seen = new Map<string, [number, number]>();
    for (const stable of dim === 'plan' ? [false] : stables) {
      const bounds = await attackReleases(releases, dim, {
        stable,
        only,
        knowsRule,
        ruleHolds,
        enough: (b) => verdictOf(b) === null,
        seen,
        earlierHidden,
        ...(reader === 'diff' ? { diff } : { changedAtMost: reader.changedAtMost }),
      });
      attacked += bounds.length;
      for (const b of bounds) {
        const t = truthAt(b);
        const of = b.release === undefined ? '' : ` (release ${b.release} of ${releases.length})`;
        const verdict = verdictOf(b);
        if (verdict) violations.push(`${dim}${stable ? ' (stable cells)' : ''} ${verdict.kind}: ${verdict.text}${of}`);
        if (b.figure === 'stores' && t && (!knowsRule || protectedCell(b))) {
          const width = (b.hi - b.lo) / t;
          if (width < tightestWidth) [tightestWidth, tightest] = [width, `${dim} ${b.month} ${b.cell}${of}: true ${t}, at least [${+b.lo.toFixed(2)}, ${+b.hi.toFixed(2)}]`];
        }
      }
    }
  }
  return { attacked, violations, disagreements: releases.flatMap((r) => r.disagreements), tightest, ruleBroken };
}

/** The calendar month before `month` (YYYY-MM). */
function previousMonthOf(month: string): string {
  const [y, m] = month.split('-').map(Number);
  return m === 1 ? `${y - 1}-12` : `${y}-${String(m - 1).padStart(2, '0')}`;
}
