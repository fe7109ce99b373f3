/**
 * Fitting the account model (accounts/model.ts): the posterior mode of its Bayesian logistic
 * regression by Newton's method on the penalised log-likelihood, and the Laplace approximation
 * there (the Hessian at the mode as the posterior precision), from which each score's spread and
 * interval come (posteriorCovariance, logitSd, scoreInterval). The dense linear algebra is
 * accounts/linalg.ts's.
 */
import { cholesky, solveCholesky } from './linalg.js';
import { sigmoid } from './model.js';
import type { FittedModel, InputSpace, Term, TermMatrix } from './model-types.js';
import { LEARNED_SD, priorOf, splitKey } from './prior.js';
import { standingOfSubject, SUBJECT } from './signal-inputs.js';

export type { FittedModel } from './model-types.js';

/**
 * Posterior mode of the weights given the labels: Newton's method (its step halved while it would
 * lower the objective) on
 *   Σ w_i [y_i log σ(z_i) + (1 − y_i) log(1 − σ(z_i))] − ½ Σ_j (β_j − μ_j)² / s_j².
 * Unlabelled stores do not enter the fit; without labels the mode is the prior mean.
 */
export function fit(space: InputSpace, labelled: ReadonlyArray<{ terms: Term[]; y: number; weight: number }>): FittedModel {
  const d = space.inputs.length;
  const mu = Float64Array.from(space.inputs, (inp) => inp.prior.mean);
  const prec = Float64Array.from(space.inputs, (inp) => 1 / (inp.prior.sd * inp.prior.sd));
  const beta = Float64Array.from(mu);
  let factor: Float64Array = new Float64Array(d * d);
  let value = logPosterior(beta, mu, prec, labelled);
  let iterations = 0;
  // Without labels the first step is zero: the mode is the prior mean, the factor the prior's.
  for (; iterations < 50; iterations++) {
    const { grad, hess } = curvature(beta, mu, prec, labelled);
    factor = cholesky(hess, d);
    const step = solveCholesky(factor, d, grad);
    // Newton's full step can overshoot the mode far from it (few labels, large inputs): halve it
    // until the objective rises. Near the mode the full step is taken, as plain Newton would.
    let t = 1;
    let next = Float64Array.from(beta, (b, j) => b + step[j]);
    let nextValue = logPosterior(next, mu, prec, labelled);
    for (let k = 0; k < 30 && !(nextValue >= value - 1e-12 * Math.abs(value)); k++) {
      t /= 2;
      next = Float64Array.from(beta, (b, j) => b + t * step[j]);
      nextValue = logPosterior(next, mu, prec, labelled);
    }
    let max = 0;
    for (let j = 0; j < d; j++) max = Math.max(max, Math.abs(next[j] - beta[j]));
    beta.set(next);
    value = nextValue;
    if (max < 1e-8) break;
  }
  return { space, weights: beta, precisionFactor: factor, labels: labelled.length, iterations };
}

/**
 * The model a refresh ranks with: `fit`, with the prior sd of each group of LEARNED_SD (subjects,
 * pairs) set by the labels (the evidence approximation, prior.ts LEARNED_SD): fit at the starting
 * sds, re-estimate each group's sd from the fitted weights and their posterior variances, and for
 * a group of LEARNED_SD.own (subjects) each input's own sd around its group's, refit,
 * LEARNED_SD.rounds fits in all. The model's space carries the priors it was fitted with, and
 * `priorSd` the learned sds, by group and, for an input with its own, by its key (model insights
 * read its weights' spread with them, prior.ts priorOf). Without labels it is `fit` at the
 * starting weighting.
 */
export function fitModel(space: InputSpace, labelled: ReadonlyArray<{ terms: Term[]; y: number; weight: number }>): FittedModel {
  const groups: readonly string[] = LEARNED_SD.groups;
  const groupOf = space.inputs.map((inp) => groups.indexOf(splitKey(inp.key)[0]));
  if (labelled.length === 0 || !groupOf.some((g) => g >= 0)) return fit(space, labelled);
  const start = groups.map((g) => priorOf(`${g}:`).sd);
  const own: readonly string[] = LEARNED_SD.own;
  const hasOwn = groupOf.map((g) => g >= 0 && own.includes(groups[g]));
  // The sd each input of a group was fitted with (its group's, or its own).
  let fittedSd = space.inputs.map((inp, j) => (groupOf[j] < 0 ? 0 : inp.prior.sd));
  const standing = standingsOfSubjects(space);
  let model = fit(space, labelled);
  let learned: Record<string, number> = {};
  for (let round = 1; round < LEARNED_SD.rounds; round++) {
    const cov = posteriorCovariance(model);
    const sd = nextSds(model, cov, groupOf, fittedSd, start);
    learned = Object.fromEntries(groups.map((g, k) => [g, sd[k]]));
    fittedSd = fittedSd.map((_, j) => (groupOf[j] < 0 ? 0 : hasOwn[j] ? ownSd(model, cov, j, sd[groupOf[j]]) : sd[groupOf[j]]));
    for (let j = 0; j < fittedSd.length; j++) if (hasOwn[j]) learned[space.inputs[j].key] = fittedSd[j];
    for (const [j, subjects] of standing) learned[space.inputs[j].key] = standingSd(model, cov, j, subjects);
    const inputs = space.inputs.map((inp, j) => (groupOf[j] < 0 && !standing.has(j) ? inp : { ...inp, prior: priorOf(inp.key, learned) }));
    model = fit({ ...space, inputs }, labelled);
  }
  return { ...model, priorSd: learned };
}

/** One step of the evidence approximation (prior.ts LEARNED_SD): each group's sd from `m` (posterior covariance `cov`), its inputs fitted with sds `fittedSd`. */
function nextSds(m: FittedModel, cov: Float64Array, groupOf: readonly number[], fittedSd: readonly number[], start: readonly number[]): number[] {
  const d = m.weights.length;
  const squares = start.map(() => 0);
  const determined = start.map(() => 0);
  for (let j = 0; j < d; j++) {
    const g = groupOf[j];
    if (g < 0) continue;
    squares[g] += (m.weights[j] - m.space.inputs[j].prior.mean) ** 2;
    // 1 for a weight the labels pin down, 0 for one they leave at its prior.
    determined[g] += 1 - cov[j * d + j] / fittedSd[j] ** 2;
  }
  const { pseudo, min, max } = LEARNED_SD;
  return start.map((s, g) => Math.min(max, Math.max(min, Math.sqrt((squares[g] + pseudo * s ** 2) / (determined[g] + pseudo)))));
}

/**
 * An input's own sd around its group's `groupSd` (prior.ts LEARNED_SD.own): the step of a
 * Student-t prior's EM, sd² = ((β − μ)² + posterior var + ν × groupSd²) ÷ (1 + ν), within [MIN, MAX].
 * A weight the labels leave near its prior stays at its group's sd; one they pull far widens alone.
 */
function ownSd(m: FittedModel, cov: Float64Array, j: number, groupSd: number): number {
  const d = m.weights.length;
  const { nu, min, max } = LEARNED_SD;
  const v = ((m.weights[j] - m.space.inputs[j].prior.mean) ** 2 + cov[j * d + j] + nu * groupSd ** 2) / (1 + nu);
  return Math.min(max, Math.max(min, Math.sqrt(v)));
}

/**
 * Each standing input (an app a store has, a network it advertises on, an agentic feature; not a
 * plan: signal-inputs.ts STANDING_OF_SUBJECT) that a subject input is about (signal-inputs.ts standingOfSubject), by its index in the space,
 * with the indices of those subjects: `app:recharge` with `subject:app_installed:recharge` and
 * `subject:app_removed:recharge`.
 */
function standingsOfSubjects(space: InputSpace): Map<number, number[]> {
  const out = new Map<number, number[]>();
  space.inputs.forEach((inp, j) => {
    const [group, name] = splitKey(inp.key);
    const key = group === SUBJECT ? standingOfSubject(name) : undefined;
    const at = key === undefined ? undefined : space.index.get(key);
    if (at !== undefined) out.set(at, [...(out.get(at) ?? []), j]);
  });
  return out;
}

/**
 * The sd of a standing input `j` (the note above prior.ts LEARNED_SD): the step of a Student-t prior's EM
 * shared with its subjects, sd² = (Σ over j and its subjects of ((β − μ)² + posterior var) + ν × sd₀²)
 * ÷ (1 + subjects + ν), never below its starting sd₀ nor above MAX. Having an app and having just
 * installed it are two inputs that most labelled stores show together; each input's own prior
 * would hand the effect to the looser of the two (a subject, whose own sd widens), and the stores
 * that have had the app for months would not get it. Sharing the spread lets the outcomes decide.
 */
function standingSd(m: FittedModel, cov: Float64Array, j: number, subjects: readonly number[]): number {
  const d = m.weights.length;
  const start = priorOf(m.space.inputs[j].key).sd;
  const { nu, max } = LEARNED_SD;
  let v = nu * start * start;
  for (const k of [j, ...subjects]) v += (m.weights[k] - m.space.inputs[k].prior.mean) ** 2 + cov[k * d + k];
  return Math.min(max, Math.max(start, Math.sqrt(v / (1 + subjects.length + nu))));
}

/**
 * The gradient of the objective `fit` maximises at weights `beta`, and its negated Hessian
 * H = diag(1 / prior sd²) + Σ w p (1 − p) x xᵀ (lower triangle, row-major d×d): the posterior
 * precision of the Laplace approximation when `beta` is the mode.
 */
export function curvature(beta: Float64Array, mu: Float64Array, prec: Float64Array, labelled: ReadonlyArray<{ terms: readonly Term[]; y: number; weight: number }>): { grad: Float64Array; hess: Float64Array } {
  const d = beta.length;
  const grad = new Float64Array(d);
  const hess = new Float64Array(d * d);
  for (let j = 0; j < d; j++) {
    grad[j] = -prec[j] * (beta[j] - mu[j]);
    hess[j * d + j] = prec[j];
  }
  for (const row of labelled) {
    let z = 0;
    for (const t of row.terms) z += beta[t.i] * t.x;
    const p = sigmoid(z);
    const r = row.weight * (row.y - p);
    const w = row.weight * p * (1 - p);
    // Terms of one input (several signals of a type) add up to its value.
    const merged = mergeTerms(row.terms);
    for (const [a, xa] of merged) {
      grad[a] += r * xa;
      for (const [b, xb] of merged) if (b <= a) hess[a * d + b] += w * xa * xb;
    }
  }
  return { grad, hess };
}

/** log σ(z), without overflow for large |z|. */
const logSigmoid = (z: number): number => (z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z)));

/** The objective `fit` maximises at weights `beta` (up to a constant). */
function logPosterior(beta: Float64Array, mu: Float64Array, prec: Float64Array, labelled: ReadonlyArray<{ terms: readonly Term[]; y: number; weight: number }>): number {
  let f = 0;
  for (let j = 0; j < beta.length; j++) f -= 0.5 * prec[j] * (beta[j] - mu[j]) ** 2;
  for (const row of labelled) {
    let z = 0;
    for (const t of row.terms) z += beta[t.i] * t.x;
    f += row.weight * (row.y * logSigmoid(z) + (1 - row.y) * logSigmoid(-z));
  }
  return f;
}

/**
 * The posterior covariance Σ = H⁻¹ = L⁻ᵀ L⁻¹ of a fitted model (row-major d×d, symmetric), from its
 * precision factor: formed once per fit, so each row's spread is a sum over its own few terms.
 */
export function posteriorCovariance(m: Pick<FittedModel, 'weights' | 'precisionFactor'>): Float64Array {
  const d = m.weights.length;
  const l = m.precisionFactor;
  // Column j of L⁻¹ solves L y = e_j (zero above j).
  const inv = new Float64Array(d * d);
  for (let j = 0; j < d; j++) {
    for (let i = j; i < d; i++) {
      let s = i === j ? 1 : 0;
      for (let k = j; k < i; k++) s -= l[i * d + k] * inv[k * d + j];
      inv[i * d + j] = s / l[i * d + i];
    }
  }
  const cov = new Float64Array(d * d);
  for (let a = 0; a < d; a++) {
    for (let b = 0; b <= a; b++) {
      let s = 0;
      for (let k = a; k < d; k++) s += inv[k * d + a] * inv[k * d + b];
      cov[a * d + b] = s;
      cov[b * d + a] = s;
    }
  }
  return cov;
}

/**
 * The posterior standard deviation of a store's logit, √(xᵀ Σ x) over its terms (Σ from
 * posteriorCovariance): how far the logit is uncertain under the Laplace approximation.
 */
export function logitSd(cov: Float64Array, ts: readonly Term[]): number {
  const d = Math.round(Math.sqrt(cov.length));
  // Over every pair of terms (terms of one input add up to its value, so they need no merging).
  let v = 0;
  for (let k = 0; k < ts.length; k++) {
    const a = ts[k].i * d;
    v += ts[k].x * ts[k].x * cov[a + ts[k].i];
    for (let l = 0; l < k; l++) v += 2 * ts[k].x * ts[l].x * cov[a + ts[l].i];
  }
  return Math.sqrt(Math.max(v, 0));
}

/** The share of the posterior a row's score interval holds. */
export const INTERVAL_LEVEL = 0.9;
/** The standard normal quantile of (1 + INTERVAL_LEVEL) / 2: the interval is the logit ± Z90 sd. */
const Z90 = 1.6448536269514722;

/**
 * A score's credible interval at INTERVAL_LEVEL: σ(logit ∓ Z sd). The logit is normal under the
 * Laplace approximation and σ is monotone, so the score lies in it with that probability.
 */
export function scoreInterval(logit: number, sd: number): { level: number; low: number; high: number } {
  return { level: INTERVAL_LEVEL, low: sigmoid(logit - Z90 * sd), high: sigmoid(logit + Z90 * sd) };
}

/** Every store's logitSd, summed as logitSd sums it. */
export function logitSds(cov: Float64Array, m: TermMatrix): Float64Array {
  const d = Math.round(Math.sqrt(cov.length));
  const n = m.start.length - 1;
  const out = new Float64Array(n);
  const { input, value } = m;
  for (let k = 0; k < n; k++) {
    let v = 0;
    const from = m.start[k];
    for (let a = from; a < m.start[k + 1]; a++) {
      const row = input[a] * d;
      const xa = value[a];
      v += xa * xa * cov[row + input[a]];
      for (let b = from; b < a; b++) v += 2 * xa * value[b] * cov[row + input[b]];
    }
    out[k] = Math.sqrt(Math.max(v, 0));
  }
  return out;
}

function mergeTerms(ts: readonly Term[]): Array<[number, number]> {
  const m = new Map<number, number>();
  for (const t of ts) m.set(t.i, (m.get(t.i) ?? 0) + t.x);
  return [...m];
}
