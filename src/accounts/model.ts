/**
 * The account model: a Bayesian logistic regression per workspace, additive in its inputs so
 * every score is explained exactly. The prior is the documented starting weighting (PRIOR
 * below); a workspace's outcomes move the weights away from it. Fitting finds the posterior
 * mode (Newton's method on the penalised log-likelihood); the Hessian there gives the Laplace
 * approximation of the posterior, from which the explore rows' upper bound and each score's
 * interval come (posteriorCovariance, logitSd, scoreInterval). Beside each signal's type, its
 * subject and the store's category and plan with it are inputs (accounts/signal-inputs.ts).
 *
 * Pure: stores in, weights and scores out. The database edge is accounts/refresh.ts.
 */
import type { StoreFeatures, StoreSignal } from '../ingest/store-history.js';
import { FEATURE_LABELS, NETWORK_NAMES, type SignalType } from '../core/signals.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, monthIndex } from '../core/panel-contract.js';
import { cholesky, solveCholesky } from './linalg.js';
import { CATEGORY_ADS, CATEGORY_SIGNAL, pairDetail, pairInputs, pairKeys, pairLabel, PLAN_SIGNAL, standingPairKeys, SUBJECT } from './signal-inputs.js';

/** A store as the model sees it: its latest ingested month and its recent signals. */
export interface StoreSnapshot extends StoreFeatures {
  store_id: string;
  /** Signals of the last SIGNAL_WINDOW months, newest first. */
  signals: RecentSignal[];
}

/** A signal of the store's recent months. */
export type RecentSignal = Omit<StoreSignal, 'store_id'>;

/** A learning label: y in [0, 1] with a weight (labels.ts maps actions to them). */
export interface Label {
  store_id: string;
  y: number;
  weight: number;
}

/** Signals older than this many months (before the latest ingested month) do not count. */
export const SIGNAL_WINDOW = 6;
/**
 * A signal of the latest month and an earlier one are separate inputs, so the model learns how
 * much a signal's age matters; at the prior an earlier signal counts EARLIER × as much a month
 * older (the same as halving every month).
 */
export const EARLIER = 0.5;
/** A signal's weight halves every month. */
export const SIGNAL_HALF_LIFE_MONTHS = 1;
/** Apps get their own input when at least this share of the workspace's accounts has them (most frequent first, at most MAX_APPS). */
export const MIN_APP_SHARE = 0.01;
export const MAX_APPS = 40;

/** Prior mean and standard deviation of one weight. */
interface PriorEntry {
  mean: number;
  sd: number;
}

/**
 * The starting weighting: what the model believes before a workspace reports any outcome.
 * Fresh activity (new channels, apps, agentic features, growth, upgrades) raises a score;
 * retreat lowers it; a store that closed is almost never worth contacting.
 */
export const PRIOR = {
  intercept: { mean: -2, sd: 2 },
  category: { mean: 0, sd: 0.75 },
  /**
   * Country and app are one input per level (some 30 countries, up to MAX_APPS apps): the prior
   * holds that few of them matter, so each starts tight; a strong one still shows after tens of
   * labels. (Learning benchmark, 10 seeds, E-P@50 after 200 outcomes with exploration: 0.76 with
   * sd 0.75 / 0.5, 0.79 with 0.375 / 0.25; exploit-only 0.70 → 0.73. Then earlier signals as
   * inputs of their own (EARLIER): 0.79 → 0.83 [0.81, 0.86], exploit-only 0.72.)
   */
  country: { mean: 0, sd: 0.375 },
  plan: { mean: 0, sd: 0.75 },
  size: { visits: { mean: 0.3, sd: 0.5 }, revenue: { mean: 0.3, sd: 0.5 }, products: { mean: 0.1, sd: 0.5 } },
  app: { mean: 0.05, sd: 0.25 },
  ads: { mean: 0.15, sd: 0.5 },
  agentic: { mean: 0.15, sd: 0.5 },
  signal: {
    store_opened: { mean: 0.3, sd: 0.75 },
    store_closed: { mean: -3, sd: 0.75 },
    ad_channel_started: { mean: 0.8, sd: 0.75 },
    ad_channel_stopped: { mean: -0.4, sd: 0.75 },
    app_installed: { mean: 0.4, sd: 0.75 },
    app_removed: { mean: -0.2, sd: 0.75 },
    agentic_feature_adopted: { mean: 0.6, sd: 0.75 },
    agentic_feature_dropped: { mean: -0.3, sd: 0.75 },
    traffic_up: { mean: 0.7, sd: 0.75 },
    traffic_down: { mean: -0.5, sd: 0.75 },
    catalogue_growth: { mean: 0.5, sd: 0.75 },
    revenue_jump: { mean: 0.7, sd: 0.75 },
    plan_upgraded: { mean: 0.8, sd: 0.75 },
    plan_downgraded: { mean: -0.6, sd: 0.75 },
  } satisfies Record<SignalType, PriorEntry>,
  /**
   * A signal's subject (which network, app, feature or plan; accounts/signal-inputs.ts): how much
   * more or less it weighs than its type, around 0.
   */
  subject: { mean: 0, sd: 0.5 },
  /**
   * A category or plan with a signal type: what the pair adds to the two apart, around 0 and
   * tight (there are a hundred or more of them), so a few labels of a pair move its weight
   * little and 200 labels do not fit their noise.
   */
  interaction: { mean: 0, sd: 0.4 },
} as const;

type SizeKey = keyof typeof PRIOR.size;
const SIZE_COLUMN: Record<SizeKey, 'monthly_visits' | 'est_monthly_revenue_usd' | 'product_count'> = {
  visits: 'monthly_visits',
  revenue: 'est_monthly_revenue_usd',
  products: 'product_count',
};

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

export function inputSpace(stores: readonly StoreSnapshot[], latestMonth: string): InputSpace {
  const inputs: Input[] = [{ key: 'intercept', prior: PRIOR.intercept }];
  const add = (key: string) => inputs.push({ key, prior: priorOf(key) });
  const values = (f: (s: StoreSnapshot) => string | null) => [...new Set(stores.map(f).filter((v): v is string => v !== null))].sort();
  for (const c of values((s) => s.country)) add(`country:${c}`);
  for (const c of values((s) => s.category)) add(`category:${c}`);
  for (const p of values((s) => s.plan)) add(`plan:${p}`);
  for (const k of Object.keys(SIZE_COLUMN) as SizeKey[]) {
    const logs = stores.map((s) => s[SIZE_COLUMN[k]]).filter((v): v is number => v !== null).map((v) => Math.log1p(Math.max(0, v)));
    const mean = logs.reduce((a, b) => a + b, 0) / Math.max(1, logs.length);
    const sd = Math.sqrt(logs.reduce((a, b) => a + (b - mean) ** 2, 0) / Math.max(1, logs.length)) || 1;
    inputs.push({ key: `size:${k}`, prior: PRIOR.size[k], scale: { mean, sd } });
  }
  const appCounts = new Map<string, number>();
  for (const s of stores) for (const a of new Set(s.apps)) appCounts.set(a, (appCounts.get(a) ?? 0) + 1);
  const apps = [...appCounts]
    .filter(([, n]) => n >= MIN_APP_SHARE * stores.length)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, MAX_APPS)
    .map(([a]) => a)
    .sort();
  for (const a of apps) add(`app:${a}`);
  for (const n of AD_COLUMNS.map((c) => c.replace('ads_', '')).sort()) add(`ads:${n}`);
  for (const f of [...AGENTIC_COLUMNS].sort()) add(`agentic:${f}`);
  for (const t of Object.keys(PRIOR.signal)) {
    add(`signal:${t}`);
    add(`signal:${t}:earlier`);
  }
  for (const k of pairInputs(stores, (sig) => signalDecay(sig.month, latestMonth) > 0)) add(k);
  return { inputs, index: new Map(inputs.map((inp, i) => [inp.key, i])), latestMonth };
}

/** One term of a store's logit: input index, value, and the signals behind it (for evidence). */
export interface Term {
  i: number;
  x: number;
  signal?: RecentSignal;
}

/** How much a signal of `month` still counts at the latest month (0 outside the window). */
export function signalDecay(month: string, latestMonth: string): number {
  const age = monthIndex(latestMonth) - monthIndex(month);
  if (age < 0 || age >= SIGNAL_WINDOW) return 0;
  return Math.pow(0.5, age / SIGNAL_HALF_LIFE_MONTHS);
}

/** The non-zero inputs of a store (the intercept first). One term per signal, so evidence names each. */
export function terms(space: InputSpace, s: StoreSnapshot): Term[] {
  const out: Term[] = [{ i: 0, x: 1 }];
  const one = (key: string) => {
    const i = space.index.get(key);
    if (i !== undefined) out.push({ i, x: 1 });
  };
  if (s.country !== null) one(`country:${s.country}`);
  if (s.category !== null) one(`category:${s.category}`);
  if (s.plan !== null) one(`plan:${s.plan}`);
  for (const k of Object.keys(SIZE_COLUMN) as SizeKey[]) {
    const v = s[SIZE_COLUMN[k]];
    const i = space.index.get(`size:${k}`)!;
    const scale = space.inputs[i].scale!;
    if (v !== null) {
      const x = (Math.log1p(Math.max(0, v)) - scale.mean) / scale.sd;
      if (x !== 0) out.push({ i, x });
    }
  }
  for (const a of new Set(s.apps)) one(`app:${a}`);
  for (const n of new Set(s.ads)) one(`ads:${n}`);
  for (const k of standingPairKeys(s)) one(k);
  for (const f of new Set(s.agentic)) one(`agentic:${f}`);
  for (const sig of s.signals) {
    const decay = signalDecay(sig.month, space.latestMonth);
    const latest = sig.month === space.latestMonth;
    const x = sig.strength * (latest ? 1 : decay / EARLIER);
    const i = space.index.get(latest ? `signal:${sig.type}` : `signal:${sig.type}:earlier`);
    if (x > 0 && i !== undefined) out.push({ i, x, signal: sig });
    // Its subject, and the store's category and plan with it, count it as its type's input does:
    // the type's latest and earlier inputs carry its age, a pair what the subject, category or plan
    // adds to it. (Halving a pair every month as well buried what an agency sells on, "a beauty
    // store that installed an app", under the category's own weight when the app was two or three
    // months old: learning benchmark in docs/accounts.md.)
    if (x > 0) {
      for (const k of pairKeys(sig, s.category, s.plan)) {
        const j = space.index.get(k);
        if (j !== undefined) out.push({ i: j, x, signal: sig });
      }
    }
  }
  return out;
}

/** A fitted model: weights over the input space, and the posterior's precision factor. */
export interface FittedModel {
  space: InputSpace;
  weights: Float64Array;
  /** Lower-triangular Cholesky factor L of the posterior precision H = L Lᵀ (row-major d×d). */
  precisionFactor: Float64Array;
  labels: number;
  iterations: number;
}

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

/** The stored evidence of a store, one item per term, in the order the logit sums them. */
export function storedEvidence(space: InputSpace, s: StoreSnapshot, ts: readonly Term[] = terms(space, s)): StoredEvidence[] {
  return ts.map((t) => describe(space.inputs[t.i], t, s));
}

/** Σ weight × value over the terms: the logit, summed in the order the evidence lists them. */
export function logitOf(weights: Float64Array, ts: readonly Term[]): number {
  let z = 0;
  for (const t of ts) z += weights[t.i] * t.x;
  return z;
}

/**
 * Weighted evidence: the intercept first, then every input that moved the score, largest
 * effect first. The contributions add up to the logit the row was scored with.
 */
export function explain(stored: readonly StoredEvidence[], weights: Readonly<Record<string, number>>): EvidenceItem[] {
  const items = stored.map(({ x, ...rest }) => ({ ...rest, contribution: (weights[rest.key] ?? 0) * x }));
  const [intercept, ...rest] = items;
  const moved = rest.filter((e) => e.contribution !== 0);
  moved.sort((a, b) => Math.abs(b.contribution) - Math.abs(a.contribution) || (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return intercept ? [intercept, ...moved] : moved;
}

export interface Scored {
  logit: number;
  score: number;
  evidence: EvidenceItem[];
}

/** A store's score with its evidence (what a row shows): the contributions add up to the logit. */
export function score(m: FittedModel, s: StoreSnapshot): Scored {
  const ts = terms(m.space, s);
  const logit = logitOf(m.weights, ts);
  return { logit, score: sigmoid(logit), evidence: explain(storedEvidence(m.space, s, ts), weightsByKey(m)) };
}

export function weightsByKey(m: FittedModel): Record<string, number> {
  return Object.fromEntries(m.space.inputs.map((inp, j) => [inp.key, m.weights[j]]));
}

/** The prior of an input, by its key: the starting weighting inputSpace gives it. */
export function priorOf(key: string): { mean: number; sd: number } {
  const [group, name] = splitKey(key);
  switch (group) {
    case 'intercept':
      return PRIOR.intercept;
    case 'country':
    case 'category':
    case 'plan':
    case 'app':
    case 'ads':
    case 'agentic':
      return PRIOR[group];
    case 'size':
      return PRIOR.size[name as keyof typeof PRIOR.size];
    case SUBJECT:
      return PRIOR.subject;
    case CATEGORY_SIGNAL:
    case PLAN_SIGNAL:
    case CATEGORY_ADS:
      return PRIOR.interaction;
    default: {
      const earlier = name.endsWith(':earlier');
      const p = PRIOR.signal[(earlier ? name.slice(0, -':earlier'.length) : name) as keyof typeof PRIOR.signal];
      return earlier ? { mean: p.mean * EARLIER, sd: p.sd * EARLIER } : p;
    }
  }
}

/** An input in plain words. */
export function labelOf(key: string): string {
  const [group, name] = splitKey(key);
  switch (group) {
    case 'intercept':
      return 'Starting point for every account';
    case 'country':
      return `Based in ${name}`;
    case 'category':
      return `Sells ${name}`;
    case 'plan':
      return `On the ${name} plan`;
    case 'size':
      return { visits: 'Monthly visits', revenue: 'Estimated monthly revenue', products: 'Product count' }[name] + ' (per standard deviation of its log above the typical account)';
    case 'app':
      return `Uses the ${name} app`;
    case 'ads':
      return `Advertises on ${NETWORK_NAMES[name] ?? name}`;
    case 'agentic':
      return `Has ${FEATURE_LABELS[name as keyof typeof FEATURE_LABELS] ?? name}`;
    case SUBJECT:
    case CATEGORY_SIGNAL:
    case PLAN_SIGNAL:
    case CATEGORY_ADS:
      return pairLabel(group, name);
    default: {
      const earlier = name.endsWith(':earlier');
      const type = earlier ? name.slice(0, -':earlier'.length) : name;
      const words = type.replace(/_/g, ' ');
      return `Signal: ${words[0].toUpperCase()}${words.slice(1)} (${earlier ? 'an earlier month' : 'the latest month'})`;
    }
  }
}

const AGENTIC_NAMES: Record<string, string> = {
  llms_txt: 'publishes llms.txt',
  product_schema: 'has product schema markup',
  agent_checkout: 'offers agent checkout',
  mcp_server: 'runs an MCP server',
  ai_crawlers_allowed: 'allows AI crawlers',
};

function describe(input: Input, t: Term, s: StoreSnapshot): StoredEvidence {
  const [group, name] = splitKey(input.key);
  const item = (detail: string): StoredEvidence => ({ kind: 'feature', key: input.key, detail, x: t.x });
  switch (group) {
    case 'intercept':
      return { kind: 'intercept', key: 'intercept', detail: 'Starting point for every account of this workspace', x: t.x };
    case 'country':
      return item(labelOf(input.key));
    case 'category':
      return item(labelOf(input.key));
    case 'plan':
      return item(labelOf(input.key));
    case 'size': {
      const v = s[SIZE_COLUMN[name as SizeKey]]!;
      const what = { visits: `${fmt(v)} monthly visits`, revenue: `about $${fmt(v)} estimated monthly revenue`, products: `${fmt(v)} products` }[name as SizeKey];
      return item(`${what} (${t.x >= 0 ? 'above' : 'below'} the typical account)`);
    }
    case 'app':
      return item(labelOf(input.key));
    case 'ads':
    case CATEGORY_ADS:
      return item(labelOf(input.key));
    case 'agentic':
      return item(`The store ${AGENTIC_NAMES[name] ?? name}`);
    default: {
      const sig = t.signal!;
      const age = monthIndex(s.month) - monthIndex(sig.month);
      const when = `${sig.month}${age > 0 ? `, ${age} month${age > 1 ? 's' : ''} before its latest data` : ''}`;
      const detail = group === SUBJECT || group === CATEGORY_SIGNAL || group === PLAN_SIGNAL ? pairDetail(group, name, sig, when) : `${sig.detail} (${when})`;
      return { kind: 'signal', key: input.key, detail, x: t.x, month: sig.month };
    }
  }
}

const splitKey = (key: string): [string, string] => {
  const at = key.indexOf(':');
  return at < 0 ? [key, ''] : [key.slice(0, at), key.slice(at + 1)];
};

const fmt = (v: number) => String(Math.round(v)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

function mergeTerms(ts: readonly Term[]): Array<[number, number]> {
  const m = new Map<number, number>();
  for (const t of ts) m.set(t.i, (m.get(t.i) ?? 0) + t.x);
  return [...m];
}
