/**
 * The closed-form intervals of one metric's hidden cells (src/stats/intervals.ts) are exactly
 * what HiGHS finds for the same linear system, on random systems whose true values are known.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { metricIntervals } from '../../src/stats/intervals.js';
import { loadIntervalSolver, SystemBuilder, type IntervalSolver } from '../../src/stats/lp.js';

let solver: IntervalSolver;
beforeAll(async () => {
  solver = await loadIntervalSolver();
});

/** Hidden cells with true n and numerators, and the boxes a reader knows n lies in. */
const system = fc
  .array(
    fc.record({ n: fc.integer({ min: 0, max: 60 }), share: fc.double({ min: 0, max: 1, noNaN: true }), slackLo: fc.integer({ min: 0, max: 20 }), slackHi: fc.integer({ min: 0, max: 40 }) }),
    { minLength: 1, maxLength: 6 },
  )
  .map((cells) => cells.map((c) => ({ n: c.n, num: Math.round(c.n * c.share), box: [Math.max(0, c.n - c.slackLo), c.n + c.slackHi] as [number, number] })));

describe('metricIntervals', () => {
  it('agrees with HiGHS on the same system, and contains the truth', () => {
    fc.assert(
      fc.property(system, fc.boolean(), (cells, publishedN) => {
        const nResidual = publishedN ? cells.reduce((s, c) => s + c.n, 0) : null;
        const numResidual = cells.reduce((s, c) => s + c.num, 0);
        const closed = metricIntervals({ nResidual, numResidual, nBox: cells.map((c) => c.box), perStore: [0, 1] });

        const b = new SystemBuilder();
        const n = cells.map((c) => b.variable(c.box[0], c.box[1]));
        const num = cells.map(() => b.variable(0, Infinity));
        cells.forEach((_, i) => b.atMost([num[i]], [n[i]]));
        if (nResidual !== null) b.equal(n.map((v) => [v, 1]), nResidual);
        b.equal(num.map((v) => [v, 1]), numResidual);
        const lp = solver.intervals(b, [...n, ...num]);

        cells.forEach((c, i) => {
          expect(closed[i].n[0]).toBeCloseTo(lp[i][0], 6);
          expect(closed[i].n[1]).toBeCloseTo(lp[i][1], 6);
          expect(closed[i].num[0]).toBeCloseTo(lp[cells.length + i][0], 6);
          expect(closed[i].num[1]).toBeCloseTo(lp[cells.length + i][1], 6);
          expect(c.n).toBeGreaterThanOrEqual(closed[i].n[0] - 1e-9);
          expect(c.n).toBeLessThanOrEqual(closed[i].n[1] + 1e-9);
          expect(c.num).toBeGreaterThanOrEqual(closed[i].num[0] - 1e-9);
          expect(c.num).toBeLessThanOrEqual(closed[i].num[1] + 1e-9);
        });
      }),
      { numRuns: 150 },
    );
  });

  it('pins every hidden numerator at zero when the published cells already hold the total', () => {
    // mcp_server_share in the issue: all = 4, the published cells hold 4, so each hidden cell has 0.
    const [a, b] = metricIntervals({ nResidual: 40, numResidual: 0, nBox: [[1, 39], [1, 39]], perStore: [0, 1] });
    expect(a.num).toEqual([0, 0]);
    expect(b.num).toEqual([0, 0]);
  });
});
