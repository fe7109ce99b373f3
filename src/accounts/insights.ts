/**
 * Model insights of a workspace: what its model learned from (the labels), its largest weights
 * with their posterior uncertainty, and a backtest on the workspace's own history.
 *
 * The backtest is honest by construction: a store is scored with the score its row had in the
 * ranking current when its FIRST outcome was recorded (outcomes-store.ts keeps it with the
 * outcome), so the model that scored it had seen no label of that store; its result is its latest
 * outcome. Only stores whose latest outcome is `won` or `lost` are scored (the stages between are
 * not a result yet). A rate over fewer than MIN_SAMPLE outcomes is flagged `small_sample`.
 *
 * Pure: outcomes, weights and evidence in, the insights out. The database edge is
 * accounts/insights-store.ts.
 */
import { FLOOR } from '../stats/floor.js';
import { z } from 'zod';
import type { DealStage } from '../core/deal-stages.js';
import { curvature, posteriorCovariance } from './fit.js';
import { labelOf, PRIOR, priorOf, type PriorSds } from './prior.js';
import { cholesky } from './linalg.js';

/** Below this many outcomes a rate is flagged `small_sample`: the same bar as the statistics' publication floor. */
export const MIN_SAMPLE = FLOOR;
/** Weights listed, largest |weight| first (the intercept is shown apart). */
export const TOP_WEIGHTS = 10;
/** Lift is measured in the top K scored outcomes for these K. */
export const LIFT_AT = [10, 50] as const;
/** Model versions the backtest history goes back. */
export const HISTORY_VERSIONS = 10;
/** Width of a weight's interval in posterior standard deviations (95%). */
const Z95 = 1.959964;
/**
 * Decimal places of every figure the insights show (weights, sds, intervals, rates, lifts,
 * scores): the posterior is an approximation, and the digits past these are float noise
 * (`-4.4699729999999995` for -4.47), not information.
 */
export const SHOWN_DECIMALS = 4;
const SHOWN_SCALE = 10 ** SHOWN_DECIMALS;

/**
 * The insights as answered: every number rounded to SHOWN_DECIMALS places (counts and versions,
 * integers, stay as they are). Pure display: nothing is computed from the rounded figures (an
 * account's evidence, whose contributions add up to its logit, is another answer, unrounded).
 */
export function shown<T>(value: T): T {
  if (typeof value === 'number') return (Number.isInteger(value) ? value : Math.round(value * SHOWN_SCALE) / SHOWN_SCALE) as T;
  if (Array.isArray(value)) return value.map(shown) as T;
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, shown(v)])) as T;
  return value;
}

const rate = (d: string) => z.number().nullable().describe(`${d}; null when there is nothing to divide by`);
const smallSample = z.boolean().describe(`True when the figure rests on fewer than ${MIN_SAMPLE} outcomes: read the counts, not the rate`);

const Lift = z
  .object({
    k: z.int().describe('How many of the best-scored outcomes (by their score at the time) the lift is measured in'),
    n: z.int().describe('Outcomes in that top group (fewer than k when fewer were scored)'),
    wins: z.int().describe('Of them, won'),
    win_rate: rate('wins / n'),
    lift: z
      .number()
      .nullable()
      .describe('win_rate of the top group ÷ win_rate of every scored outcome (1 = no better than the average); null when every scored outcome is in the top group, or none was won'),
    small_sample: smallSample,
  })
  .meta({ description: 'Observed win rate of the top k outcomes by their score at the time, against the overall observed win rate' });

const Decile = z.object({
  decile: z.int().describe('1 = the lowest-scored tenth of the scored outcomes, 10 = the highest'),
  count: z.int().describe('Scored outcomes in the decile (the deciles add up to outcomes_scored)'),
  wins: z.int(),
  score_min: z.number().nullable(),
  score_max: z.number().nullable(),
  predicted: rate('Mean score at the time (the predicted rate)'),
  observed: rate('wins / count (the observed win rate)'),
  small_sample: smallSample,
});

const HistoryEntry = z.object({
  model_version: z.int().describe('The backtest as it stood while this model version was current: every outcome recorded up to then'),
  outcomes_scored: z.int(),
  wins: z.int(),
  win_rate: rate('wins / outcomes_scored'),
  lift_at_10: z.number().nullable(),
  lift_at_50: z.number().nullable(),
  small_sample: smallSample,
});

const Weight = z.object({
  feature: z.string().describe('The input, e.g. `country:US`, `app:klaviyo`, `signal:traffic_up` (`:earlier`: the signal in an earlier month)'),
  label: z.string().describe('The same in plain words'),
  weight: z.number().describe("The input's weight in the logit (posterior mode)"),
  sd: z.number().describe('Posterior standard deviation of the weight (Laplace approximation at the mode)'),
  // Two numbers as an array of length 2, not a tuple: a tuple's JSON Schema (prefixItems, 2020-12)
  // reads as "no item allowed" to the draft-07 validators MCP clients check structured content with.
  interval: z.array(z.number()).length(2).describe('95% credible interval [low, high]: weight ± 1.96 sd'),
  prior: z.object({ mean: z.number(), sd: z.number() }).describe('The starting weighting: where the weight is without labels'),
  moved: z.number().describe("How far the workspace's outcomes moved the weight from its starting weighting, in prior standard deviations: (weight − prior.mean) ÷ prior.sd (0 before any label)"),
});

export const ModelInsights = z.object({
  object: z.literal('model_insights'),
  model_version: z.int().nullable().describe('The current model version; null before the workspace was first ranked'),
  trained_at: z.string().nullable().describe('When the current model was fitted'),
  ranking_version: z.int().describe('The current ranking version'),
  labels: z
    .object({
      total: z.int().describe('Stores with an outcome (a store\'s latest outcome is its label)'),
      won: z.int(),
      lost: z.int(),
      in_progress: z.int().describe('Latest outcome a stage between (discovery … negotiation): a weaker positive label'),
      used_by_model: z.int().describe('Labels the current model was fitted on (stores it could see)'),
    })
    .describe('What the model learns from'),
  intercept: z.object({ weight: z.number(), sd: z.number() }).nullable().describe("The model's starting logit for every account"),
  weights: z.array(Weight).describe(`The ${TOP_WEIGHTS} largest weights by absolute value (intercept apart); empty before the first ranking`),
  learned: z
    .array(Weight)
    .describe(`What the outcomes taught: the ${TOP_WEIGHTS} weights they moved furthest from the starting weighting (largest |moved|, intercept apart, only weights that moved); empty before any label`),
  backtest: z
    .object({
      outcomes_scored: z.int().describe('Stores whose latest outcome is won or lost and whose first outcome found them in the ranking'),
      wins: z.int(),
      win_rate: rate('wins / outcomes_scored'),
      small_sample: smallSample,
      unscored: z.int().describe('Stores won or lost that the ranking did not list when their first outcome was recorded (or recorded before scores were kept)'),
      note: z.string().nullable().describe('Why the figures are thin, when they are'),
      lift_at_10: Lift,
      lift_at_50: Lift,
      calibration: z.array(Decile).describe('Predicted against observed win rate by score decile (ten entries, always)'),
      history: z.array(HistoryEntry).describe(`How the backtest moved over the last ${HISTORY_VERSIONS} model versions that scored an outcome, oldest first`),
    })
    .describe("Outcomes scored with what the model predicted before it saw them: each store with its score when its first outcome was recorded, its result its latest outcome"),
});

export type ModelInsightsBody = z.output<typeof ModelInsights>;
type BacktestBody = ModelInsightsBody['backtest'];

/** An outcome as the backtest reads it, in recording order. */
export interface BacktestOutcome {
  store_id: string;
  action: DealStage;
  ranked_score: number | null;
  ranked_model_version: number | null;
}

interface Scored {
  store_id: string;
  score: number;
  won: boolean;
}

/** One entry per store: its score when its first outcome was recorded, its latest outcome. */
function byStore(outcomes: readonly BacktestOutcome[]): { scored: Scored[]; unscored: number } {
  const first = new Map<string, number | null>();
  const latest = new Map<string, DealStage>();
  for (const o of outcomes) {
    if (!first.has(o.store_id)) first.set(o.store_id, o.ranked_score);
    latest.set(o.store_id, o.action);
  }
  const scored: Scored[] = [];
  let unscored = 0;
  for (const [store_id, action] of latest) {
    if (action !== 'won' && action !== 'lost') continue;
    const score = first.get(store_id) ?? null;
    if (score === null) unscored++;
    else scored.push({ store_id, score, won: action === 'won' });
  }
  return { scored, unscored };
}

const ratio = (a: number, b: number): number | null => (b > 0 ? a / b : null);

/** Best score first, ties by store_id. */
const best = (a: Scored, b: Scored) => b.score - a.score || (a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : 0);

function lift(ranked: readonly Scored[], k: number, overall: number | null): z.output<typeof Lift> {
  const top = ranked.slice(0, k);
  const wins = top.filter((s) => s.won).length;
  const win_rate = ratio(wins, top.length);
  const meaningful = ranked.length > k && overall !== null && overall > 0 && win_rate !== null;
  return { k, n: top.length, wins, win_rate, lift: meaningful ? win_rate / overall : null, small_sample: top.length < MIN_SAMPLE || ranked.length < MIN_SAMPLE };
}

function calibration(ranked: readonly Scored[]): z.output<typeof Decile>[] {
  const asc = [...ranked].reverse();
  const n = asc.length;
  return Array.from({ length: 10 }, (_, d) => {
    const part = asc.slice(Math.floor((d * n) / 10), Math.floor(((d + 1) * n) / 10));
    const wins = part.filter((s) => s.won).length;
    return {
      decile: d + 1,
      count: part.length,
      wins,
      score_min: part.length ? part[0].score : null,
      score_max: part.length ? part[part.length - 1].score : null,
      predicted: ratio(part.reduce((sum, s) => sum + s.score, 0), part.length),
      observed: ratio(wins, part.length),
      small_sample: part.length < MIN_SAMPLE,
    };
  });
}

/** The backtest of outcomes in recording order (see the module comment). */
export function backtest(outcomes: readonly BacktestOutcome[]): BacktestBody {
  const { scored, unscored } = byStore(outcomes);
  const ranked = [...scored].sort(best);
  const wins = ranked.filter((s) => s.won).length;
  const win_rate = ratio(wins, ranked.length);
  const note =
    ranked.length === 0
      ? unscored > 0
        ? 'No won or lost outcome was scored: the ranking did not list these stores when their first outcome was recorded.'
        : 'No won or lost outcome yet: record outcomes (POST /outcomes) and the backtest fills in.'
      : ranked.length < MIN_SAMPLE
        ? `Only ${ranked.length} won or lost outcome${ranked.length === 1 ? ' was' : 's were'} scored (fewer than ${MIN_SAMPLE}): the rates are shown with their counts, not as findings.`
        : null;
  return {
    outcomes_scored: ranked.length,
    wins,
    win_rate,
    small_sample: ranked.length < MIN_SAMPLE,
    unscored,
    note,
    lift_at_10: lift(ranked, LIFT_AT[0], win_rate),
    lift_at_50: lift(ranked, LIFT_AT[1], win_rate),
    calibration: calibration(ranked),
    history: history(outcomes),
  };
}

/**
 * The backtest as it stood at each of the last HISTORY_VERSIONS model versions that scored an
 * outcome: every outcome recorded up to the last one that version scored.
 */
function history(outcomes: readonly BacktestOutcome[]): z.output<typeof HistoryEntry>[] {
  const versions = [...new Set(outcomes.map((o) => o.ranked_model_version).filter((v): v is number => v !== null))].sort((a, b) => a - b).slice(-HISTORY_VERSIONS);
  return versions.map((v) => {
    let last = -1;
    outcomes.forEach((o, i) => {
      if (o.ranked_model_version !== null && o.ranked_model_version <= v) last = i;
    });
    const ranked = byStore(outcomes.slice(0, last + 1)).scored.sort(best);
    const wins = ranked.filter((s) => s.won).length;
    const win_rate = ratio(wins, ranked.length);
    return {
      model_version: v,
      outcomes_scored: ranked.length,
      wins,
      win_rate,
      lift_at_10: lift(ranked, LIFT_AT[0], win_rate).lift,
      lift_at_50: lift(ranked, LIFT_AT[1], win_rate).lift,
      small_sample: ranked.length < MIN_SAMPLE,
    };
  });
}

/** A label the model was fitted on, with the store's inputs (its stored evidence: key and value). */
export interface LabelledInputs {
  inputs: ReadonlyArray<{ key: string; x: number }>;
  y: number;
  weight: number;
}

/**
 * Posterior standard deviation of each weight: the Laplace approximation at the fitted weights,
 * the same precision accounts/fit.ts fitModel() ends on (fit.ts curvature), inverted, with the
 * prior sds the fit learned (`priorSds`, the stored model's prior_sd). `weights` in input order (its keys).
 */
export function posteriorSd(weights: Readonly<Record<string, number>>, labelled: readonly LabelledInputs[], priorSds?: PriorSds): Map<string, number> {
  const keys = Object.keys(weights);
  const d = keys.length;
  const index = new Map(keys.map((k, j) => [k, j]));
  const beta = Float64Array.from(keys, (k) => weights[k]);
  const mu = Float64Array.from(keys, (k) => priorOf(k).mean);
  const prec = Float64Array.from(keys, (k) => 1 / priorOf(k, priorSds).sd ** 2);
  const rows = labelled.map((row) => ({ y: row.y, weight: row.weight, terms: row.inputs.flatMap((t) => (index.has(t.key) ? [{ i: index.get(t.key)!, x: t.x }] : [])) }));
  const cov = posteriorCovariance({ weights: beta, precisionFactor: cholesky(curvature(beta, mu, prec, rows).hess, d) });
  return new Map(keys.map((k, j) => [k, Math.sqrt(cov[j * d + j])]));
}

/**
 * The intercept, the TOP_WEIGHTS largest other weights, and the TOP_WEIGHTS that moved furthest
 * from their prior (what the outcomes taught), each with its uncertainty.
 */
export function topWeights(weights: Readonly<Record<string, number>>, sd: ReadonlyMap<string, number>, priorSds?: PriorSds): Pick<ModelInsightsBody, 'intercept' | 'weights' | 'learned'> {
  const entry = (key: string) => {
    const w = weights[key];
    const prior = priorOf(key, priorSds);
    const s = sd.get(key) ?? prior.sd;
    return { feature: key, label: labelOf(key), weight: w, sd: s, interval: [w - Z95 * s, w + Z95 * s] as [number, number], prior, moved: (w - prior.mean) / prior.sd };
  };
  const all = Object.keys(weights)
    .filter((k) => k !== 'intercept')
    .map(entry);
  const byKey = (a: { feature: string }, b: { feature: string }) => (a.feature < b.feature ? -1 : 1);
  const largest = [...all].sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight) || byKey(a, b));
  // A weight no label touched stays at its prior mean up to the fit's tolerance.
  const learned = all.filter((e) => Math.abs(e.moved) > 1e-6).sort((a, b) => Math.abs(b.moved) - Math.abs(a.moved) || byKey(a, b));
  const intercept = weights.intercept === undefined ? null : { weight: weights.intercept, sd: sd.get('intercept') ?? PRIOR.intercept.sd };
  return { intercept, weights: largest.slice(0, TOP_WEIGHTS), learned: learned.slice(0, TOP_WEIGHTS) };
}
