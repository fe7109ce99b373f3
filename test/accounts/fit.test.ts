/**
 * The posterior spread of a score (accounts/fit.ts posteriorCovariance, logitSd, scoreInterval):
 * the standard deviation of a row's logit under the Laplace approximation, against a dense
 * inverse of the Hessian built from the labels themselves and against draws from the posterior.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { backSubstituteTransposed } from '../../src/accounts/linalg.js';
import { fit, type FittedModel, INTERVAL_LEVEL, logitSd, posteriorCovariance, scoreInterval } from '../../src/accounts/fit.js';
import { logitOf, sigmoid, type InputSpace, type Term } from '../../src/accounts/model.js';

/** Weights drawn from the posterior (Laplace approximation): β̂ + L⁻ᵀ ε, ε standard normal (Box–Muller). */
function sampleWeights(m: FittedModel, random: () => number): Float64Array {
  const d = m.weights.length;
  const eps = Float64Array.from({ length: d }, () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()));
  const z = backSubstituteTransposed(m.precisionFactor, d, eps);
  return Float64Array.from(m.weights, (b, j) => b + z[j]);
}

/** A small input space: the intercept and `n` inputs with the given priors. */
function space(priors: { mean: number; sd: number }[]): InputSpace {
  const inputs = [{ key: 'intercept', prior: { mean: -2, sd: 2 } }, ...priors.map((prior, j) => ({ key: `x${j}`, prior }))];
  return { inputs, index: new Map(inputs.map((inp, i) => [inp.key, i])), latestMonth: '2026-10' };
}

/** Sparse terms of a store: the intercept and the inputs whose value is non-zero (one input may come twice, as several signals of a type do). */
const termsOf = (xs: readonly number[], repeat?: number): Term[] => [
  { i: 0, x: 1 },
  ...xs.flatMap((x, j) => (x === 0 ? [] : j === repeat ? [{ i: j + 1, x: x / 2 }, { i: j + 1, x: x / 2 }] : [{ i: j + 1, x }])),
];

/** H⁻¹ by Gauss–Jordan elimination of H = diag(1 / prior sd²) + Σ w p (1 − p) x xᵀ at the fitted weights. */
function denseCovariance(s: InputSpace, weights: Float64Array, labelled: { terms: Term[]; weight: number }[]): number[][] {
  const d = s.inputs.length;
  const h = Array.from({ length: d }, (_, a) => Array.from({ length: d }, (_, b) => (a === b ? 1 / s.inputs[a].prior.sd ** 2 : 0)));
  for (const row of labelled) {
    const x = new Array<number>(d).fill(0);
    for (const t of row.terms) x[t.i] += t.x;
    const p = sigmoid(logitOf(weights, row.terms));
    for (let a = 0; a < d; a++) for (let b = 0; b < d; b++) h[a][b] += row.weight * p * (1 - p) * x[a] * x[b];
  }
  const m = h.map((r, a) => [...r, ...Array.from({ length: d }, (_, b) => (a === b ? 1 : 0))]);
  for (let c = 0; c < d; c++) {
    const pivot = m[c][c];
    for (let k = 0; k < 2 * d; k++) m[c][k] /= pivot;
    for (let r = 0; r < d; r++) {
      if (r === c) continue;
      const f = m[r][c];
      for (let k = 0; k < 2 * d; k++) m[r][k] -= f * m[c][k];
    }
  }
  return m.map((r) => r.slice(d));
}

function denseSd(cov: number[][], ts: readonly Term[]): number {
  const x = new Array<number>(cov.length).fill(0);
  for (const t of ts) x[t.i] += t.x;
  let v = 0;
  for (let a = 0; a < x.length; a++) for (let b = 0; b < x.length; b++) v += x[a] * cov[a][b] * x[b];
  return Math.sqrt(v);
}

const value = fc.oneof(fc.constant(0), fc.constant(1), fc.double({ min: -2, max: 2, noNaN: true }));
const prior = fc.record({ mean: fc.double({ min: -1, max: 1, noNaN: true }), sd: fc.double({ min: 0.2, max: 1.5, noNaN: true }) });
const problem = fc.integer({ min: 1, max: 6 }).chain((n) =>
  fc.record({
    priors: fc.array(prior, { minLength: n, maxLength: n }),
    labels: fc.array(fc.record({ xs: fc.array(value, { minLength: n, maxLength: n }), y: fc.constantFrom(0, 1, 0.5), weight: fc.constantFrom(1, 0.5, 2) }), { maxLength: 40 }),
    stores: fc.array(fc.array(value, { minLength: n, maxLength: n }), { minLength: 1, maxLength: 5 }),
    repeat: fc.integer({ min: 0, max: n - 1 }),
  }),
);

describe("a score's posterior spread", () => {
  it("equals √(xᵀ H⁻¹ x) with H the penalised log-likelihood's Hessian at the fitted weights, for any labels", () => {
    fc.assert(
      fc.property(problem, ({ priors, labels, stores, repeat }) => {
        const s = space(priors);
        const labelled = labels.map((l) => ({ terms: termsOf(l.xs), y: l.y, weight: l.weight }));
        const m = fit(s, labelled);
        // The Hessian is the one at the mode the fit converged to (Newton's steps vanish there).
        expect(m.iterations).toBeLessThan(50);
        const cov = posteriorCovariance(m);
        const dense = denseCovariance(s, m.weights, labelled);
        for (const xs of stores) {
          const ts = termsOf(xs, repeat);
          expect(logitSd(cov, ts)).toBeCloseTo(denseSd(dense, ts), 6);
        }
      }),
      { numRuns: 200 },
    );
  });

  it('comes from the mode itself: the fit converges and the gradient vanishes there, for any labels', () => {
    fc.assert(
      fc.property(problem, ({ priors, labels }) => {
        const s = space(priors);
        const labelled = labels.map((l) => ({ terms: termsOf(l.xs), y: l.y, weight: l.weight }));
        const m = fit(s, labelled);
        expect(m.iterations).toBeLessThan(50);
        const grad = s.inputs.map((inp, j) => -(m.weights[j] - inp.prior.mean) / inp.prior.sd ** 2);
        for (const row of labelled) {
          const r = row.weight * (row.y - sigmoid(logitOf(m.weights, row.terms)));
          for (const t of row.terms) grad[t.i] += r * t.x;
        }
        for (const g of grad) expect(Math.abs(g)).toBeLessThan(1e-6);
      }),
      { numRuns: 300 },
    );
  });

  it('is the prior spread √(Σ x² sd²) when the workspace has no labels', () => {
    fc.assert(
      fc.property(problem, ({ priors, stores, repeat }) => {
        const s = space(priors);
        const cov = posteriorCovariance(fit(s, []));
        for (const xs of stores) {
          const prior = Math.sqrt(2 ** 2 + xs.reduce((v, x, j) => v + (x * priors[j].sd) ** 2, 0));
          expect(logitSd(cov, termsOf(xs, repeat))).toBeCloseTo(prior, 9);
        }
      }),
    );
  });

  it('agrees with the spread of logits under weights drawn from the posterior, within sampling error', () => {
    const s = space([{ mean: 0.5, sd: 0.75 }, { mean: 0, sd: 0.5 }, { mean: -0.3, sd: 1 }, { mean: 0.2, sd: 0.4 }]);
    const random = seededRandom(7);
    const labelled = Array.from({ length: 60 }, (_, k) => {
      const xs = [k % 2, k % 3 === 0 ? 1 : 0, random() * 2 - 1, k % 5 === 0 ? 1 : 0];
      return { terms: termsOf(xs), y: random() < sigmoid(-1 + 2 * xs[0] - xs[2]) ? 1 : 0, weight: 1 };
    });
    const m = fit(s, labelled);
    const cov = posteriorCovariance(m);
    const stores = [[1, 0, 0.5, 0], [0, 1, -1, 1], [1, 1, 0, 0], [0, 0, 0, 0]].map((xs) => termsOf(xs, 2));
    const n = 20_000;
    const draws = Array.from({ length: n }, () => sampleWeights(m, random));
    for (const ts of stores) {
      const logits = draws.map((w) => logitOf(w, ts));
      const mean = logits.reduce((a, b) => a + b, 0) / n;
      const empirical = Math.sqrt(logits.reduce((a, z) => a + (z - mean) ** 2, 0) / (n - 1));
      const sd = logitSd(cov, ts);
      // The sample sd's standard error is about sd / √(2n): 0.5% here; allow four of them.
      expect(Math.abs(empirical - sd) / sd).toBeLessThan(4 / Math.sqrt(2 * n));
      // The draws are centred on the mode's logit.
      expect(Math.abs(mean - logitOf(m.weights, ts))).toBeLessThan((4 * sd) / Math.sqrt(n));
    }
  });

  it('narrows as labels of the same kind of store come in', () => {
    const s = space([{ mean: 0.5, sd: 0.75 }, { mean: 0, sd: 0.5 }]);
    const ts = termsOf([1, 0]);
    const sdAfter = (n: number) => logitSd(posteriorCovariance(fit(s, Array.from({ length: n }, (_, k) => ({ terms: ts, y: k % 3 === 0 ? 1 : 0, weight: 1 })))), ts);
    expect(sdAfter(10)).toBeLessThan(sdAfter(0));
    expect(sdAfter(100)).toBeLessThan(sdAfter(10));
  });
});

describe("a score's interval", () => {
  it(`holds the score, and is the ${INTERVAL_LEVEL * 100}% interval of σ(logit) with the logit normal`, () => {
    fc.assert(
      fc.property(fc.double({ min: -8, max: 8, noNaN: true }), fc.double({ min: 0, max: 3, noNaN: true }), (logit, sd) => {
        const { level, low, high } = scoreInterval(logit, sd);
        expect(level).toBe(0.9);
        expect(low).toBeLessThanOrEqual(sigmoid(logit));
        expect(high).toBeGreaterThanOrEqual(sigmoid(logit));
        // 5% of a normal logit lies below each end.
        expect(Math.log(low / (1 - low))).toBeCloseTo(logit - 1.6448536 * sd, 5);
        expect(Math.log(high / (1 - high))).toBeCloseTo(logit + 1.6448536 * sd, 5);
      }),
    );
    expect(scoreInterval(0.3, 0)).toEqual({ level: 0.9, low: sigmoid(0.3), high: sigmoid(0.3) });
  });
});
