/**
 * The account model's shapes, shared by its parts (model.ts: inputs, terms and evidence; prior.ts:
 * the starting weighting and the wording; fit.ts: the fit) so that none of them imports another
 * for a type.
 */
import type { StoreFeatures, StoreSignal } from '../ingest/index.js';

/** Prior mean and standard deviation of one weight. */
export interface PriorEntry {
  mean: number;
  sd: number;
}

/** A store as the model sees it: its latest ingested month and its recent signals. */
export interface StoreSnapshot extends StoreFeatures {
  store_id: string;
  /** Signals of the last SIGNAL_WINDOW months, newest first. */
  signals: RecentSignal[];
}

/** A signal of the store's recent months. */
export type RecentSignal = Omit<StoreSignal, 'store_id'>;

/** One input of the model. Index 0 is always the intercept. */
export interface Input {
  key: string;
  prior: PriorEntry;
  /** For size inputs: mean and sd of log1p(value) over the workspace's accounts. */
  scale?: { mean: number; sd: number };
}

/** The inputs of a workspace's model: fixed for one fit, derived from its accounts. */
export interface InputSpace {
  inputs: Input[];
  index: Map<string, number>;
  /** The latest ingested month: signal ages count from it. */
  latestMonth: string;
}

/** One term of a store's logit: input index, value, and the signals behind it (for evidence). */
export interface Term {
  i: number;
  x: number;
  signal?: RecentSignal;
}

/**
 * The terms of many stores in typed memory (compressed rows): store k's terms are entries
 * start[k] … start[k + 1] − 1 of `input` and `value`, in the order terms() gives them.
 */
export interface TermMatrix {
  start: Uint32Array;
  input: Uint32Array;
  value: Float64Array;
}

/** One evidence item: the intercept, or a feature or signal that moved the score. */
export interface EvidenceItem {
  kind: 'intercept' | 'feature' | 'signal';
  key: string;
  detail: string;
  contribution: number;
  month?: string;
}

/**
 * An evidence item before weighting: the input's value for the store. A row keeps these (they
 * change only with the data); the contribution is the current model's weight times `x`, so a
 * refit rewrites scores, never the evidence.
 */
export interface StoredEvidence {
  kind: EvidenceItem['kind'];
  key: string;
  detail: string;
  x: number;
  month?: string;
}

/** A fitted model: weights over the input space, and the posterior's precision factor. */
export interface FittedModel {
  space: InputSpace;
  weights: Float64Array;
  /** Lower-triangular Cholesky factor L of the posterior precision H = L Lᵀ (row-major d×d). */
  precisionFactor: Float64Array;
  labels: number;
  iterations: number;
  /** The prior sd the labels set for each group of prior.ts LEARNED_SD (fit.ts fitModel); absent: the starting sds. */
  priorSd?: PriorSds;
}

/** A learned prior sd per group of prior.ts LEARNED_SD (fit.ts fitModel); a group not named keeps its starting sd. */
export type PriorSds = Readonly<Partial<Record<string, number>>>;
