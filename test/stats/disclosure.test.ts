/**
 * protectMonth's rounds on a generated panel: a system a round leaves as it was is not solved
 * again, and what it builds is what buildMonth builds with the suppression it chose (the audit's
 * rounds read figures only; the texts are made once).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateMonths, registerMacros } from '../../src/panel/aggregate.js';
import { openDuck } from '../../src/panel/duck.js';
import { generatePanel } from '../../src/panel/generate.js';
import { listPanel, loadPanel } from '../../src/panel/read.js';
import type { MonthAgg } from '../../src/stats/aggregate.js';
import type { AuditMonth } from '../../src/stats/audit.js';
import { buildMonth } from '../../src/stats/build.js';
import { guardRefusal, protectMonth, type ProtectedMonth } from '../../src/stats/disclosure.js';
import { loadIntervalSolver, type IntervalSolver } from '../../src/stats/lp.js';
import { tempDirs } from '../helpers/tmp.js';

const BASE = 'https://stats.example.com';
const dirs = tempDirs('storelens-disclosure-');
let solver: IntervalSolver;
let aggs: MonthAgg[];

beforeAll(async () => {
  solver = await loadIntervalSolver();
  const dir = await dirs.make();
  const duck = await openDuck();
  try {
    await generatePanel(duck, { out: dir, stores: 200, seed: '34', from: '2026-08', to: '2026-09', format: 'csv' });
    const files = await listPanel(dir);
    await loadPanel(duck, files, () => {});
    await registerMacros(duck);
    aggs = [...(await aggregateMonths(duck, files.map((f) => f.month))).values()].sort((a, b) => (a.month < b.month ? -1 : 1));
  } finally {
    duck.close();
  }
});
afterAll(() => dirs.removeAll());

/** The solver, counting the systems (with their targets) it is asked to solve, within one month. */
function counting(): { solver: IntervalSolver; repeats: () => number; calls: () => number } {
  const seen = new Map<string, number>();
  return {
    solver: {
      intervals(system, targets, enough) {
        const key = JSON.stringify([system.lower, system.upper, system.rows, targets], (_, x: unknown) => (typeof x === 'number' && !Number.isFinite(x) ? String(x) : x));
        seen.set(key, (seen.get(key) ?? 0) + 1);
        return solver.intervals(system, targets, enough);
      },
    },
    repeats: () => [...seen.values()].reduce((sum, n) => sum + n - 1, 0),
    calls: () => [...seen.values()].reduce((sum, n) => sum + n, 0),
  };
}

describe('protectMonth', () => {
  it('solves no system twice in the rounds of a month, and builds what buildMonth builds with the suppression it chose', () => {
    let previous: AuditMonth | undefined;
    let rounds = 0;
    for (const agg of aggs) {
      const s = counting();
      const p: ProtectedMonth = protectMonth(agg, previous, BASE, s.solver);
      rounds += p.rounds;
      expect(s.calls()).toBeGreaterThan(0);
      expect(s.repeats()).toBe(0);
      expect(p.built).toEqual(buildMonth(agg, previous?.built, BASE, p.extra));
      expect(p.refusal).toBeNull();
      expect(guardRefusal(agg, p.built)).toBeNull();
      previous = { agg, built: p.built };
    }
    // Suppression added by a round's findings, audited again: what this test is about.
    expect(rounds).toBeGreaterThan(aggs.length);
  });
});
