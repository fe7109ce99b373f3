/**
 * The account model: a Bayesian logistic regression per workspace, additive in its inputs so
 * every score is explained exactly. This file holds its inputs (inputSpace: which inputs a
 * workspace's accounts have; terms: a store's non-zero inputs, one per signal so the evidence
 * names each; termMatrix: every account's terms in typed memory) and its scores and evidence.
 * The prior, the documented starting weighting, and the inputs' wording are accounts/prior.ts's;
 * a workspace's outcomes move the weights away from it in accounts/fit.ts (posterior mode, Laplace
 * approximation, each score's spread and interval). Beside each signal's type, its subject and
 * the store's category and plan with it are inputs (accounts/signal-inputs.ts).
 *
 * Pure: stores in, weights and scores out. The database edge is accounts/refresh.ts.
 */
import { AD_COLUMNS, AGENTIC_COLUMNS, monthIndex } from '../core/panel-contract.js';
import type {
  EvidenceItem,
  FittedModel,
  Input,
  InputSpace,
  RecentSignal,
  StoredEvidence,
  StoreSnapshot,
  Term,
  TermMatrix,
} from './model-types.js';
import { describeTerm, EARLIER, PRIOR, priorOf, SIGNAL_HALF_LIFE_MONTHS, SIGNAL_WINDOW, SIZE_COLUMN, type SizeKey } from './prior.js';
import { pairInputs, pairKeys, standingPairKeys } from './signal-inputs.js';

export type { EvidenceItem, FittedModel, Input, InputSpace, RecentSignal, StoredEvidence, StoreSnapshot, Term, TermMatrix } from './model-types.js';

/** A learning label: y in [0, 1] with a weight (labels.ts maps actions to them). */
export interface Label {
  store_id: string;
  y: number;
  weight: number;
}

/**
 * A size input is kept to SIZE_DECIMALS decimals of a standard deviation: a ten-thousandth of
 * one says nothing more about an account, and its evidence then stores `-4.6535`, not
 * `-4.653459235602431` (a third of a million accounts' evidence was those digits). The model
 * scores the value it stores, so the evidence still adds up exactly to the logit.
 */
export const SIZE_DECIMALS = 4;
const SIZE_UNITS = 10 ** SIZE_DECIMALS;

/** Apps get their own input when at least this share of the workspace's accounts has them (most frequent first, at most MAX_APPS). */
export const MIN_APP_SHARE = 0.01;
export const MAX_APPS = 40;

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

/** How much a signal of `month` still counts at the latest month (0 outside the window). */
export function signalDecay(month: string, latestMonth: string): number {
  const age = monthIndex(latestMonth) - monthIndex(month);
  if (age < 0 || age >= SIGNAL_WINDOW) return 0;
  return Math.pow(0.5, age / SIGNAL_HALF_LIFE_MONTHS);
}

/** The non-zero inputs of a store (the intercept first). One term per signal, so evidence names each. */
export function terms(space: InputSpace, s: StoreSnapshot): Term[] {
  const out: Term[] = [{ i: 0, x: 1 }];
  const g = groupsOf(space);
  const one = (key: string) => {
    const i = space.index.get(key);
    if (i !== undefined) out.push({ i, x: 1 });
  };
  const of = (group: ReadonlyMap<string, number>, value: string) => {
    const i = group.get(value);
    if (i !== undefined) out.push({ i, x: 1 });
  };
  if (s.country !== null) of(g.country, s.country);
  if (s.category !== null) of(g.category, s.category);
  if (s.plan !== null) of(g.plan, s.plan);
  for (const k of Object.keys(SIZE_COLUMN) as SizeKey[]) {
    const v = s[SIZE_COLUMN[k]];
    const i = space.index.get(`size:${k}`)!;
    const scale = space.inputs[i].scale!;
    if (v !== null) {
      const x = Math.round(((Math.log1p(Math.max(0, v)) - scale.mean) / scale.sd) * SIZE_UNITS) / SIZE_UNITS;
      if (x !== 0) out.push({ i, x });
    }
  }
  for (const a of distinct(s.apps)) of(g.app, a);
  for (const n of distinct(s.ads)) of(g.ads, n);
  for (const k of standingPairKeys(s)) one(k);
  for (const f of distinct(s.agentic)) of(g.agentic, f);
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
    // months old: learning benchmark in docs/measurements/learning.md.)
    if (x > 0) {
      for (const k of pairKeys(sig, s.category, s.plan)) {
        const j = space.index.get(k);
        if (j !== undefined) out.push({ i: j, x, signal: sig });
      }
    }
  }
  return out;
}

/** The groups whose inputs terms() finds by the store's value rather than by key text. */
type ValueGroup = 'country' | 'category' | 'plan' | 'app' | 'ads' | 'agentic';
const valueGroups = new WeakMap<InputSpace, Record<ValueGroup, Map<string, number>>>();

/** A space's inputs of each ValueGroup by value (`country:US` ⇒ country, US): a million stores' terms then make no key text. */
function groupsOf(space: InputSpace): Record<ValueGroup, ReadonlyMap<string, number>> {
  let g = valueGroups.get(space);
  if (!g) {
    g = { country: new Map(), category: new Map(), plan: new Map(), app: new Map(), ads: new Map(), agentic: new Map() };
    space.inputs.forEach((inp, i) => {
      const at = inp.key.indexOf(':');
      const group = g![inp.key.slice(0, at) as ValueGroup] as Map<string, number> | undefined;
      if (at > 0 && group) group.set(inp.key.slice(at + 1), i);
    });
    valueGroups.set(space, g);
  }
  return g;
}

/** A list's values once each, in order (most lists are empty or hold one: no Set made for them). */
const distinct = (xs: readonly string[]): readonly string[] => (xs.length < 2 ? xs : [...new Set(xs)]);

/** The terms of every store, as a TermMatrix. */
export function termMatrix(space: InputSpace, stores: readonly StoreSnapshot[]): TermMatrix {
  const start = new Uint32Array(stores.length + 1);
  let input = new Uint32Array(Math.max(16, stores.length * 16));
  let value = new Float64Array(input.length);
  let at = 0;
  stores.forEach((s, k) => {
    const ts = terms(space, s);
    if (at + ts.length > input.length) {
      const size = Math.max(input.length * 2, at + ts.length);
      const i2 = new Uint32Array(size);
      i2.set(input);
      const v2 = new Float64Array(size);
      v2.set(value);
      input = i2;
      value = v2;
    }
    for (const t of ts) {
      input[at] = t.i;
      value[at++] = t.x;
    }
    start[k + 1] = at;
  });
  return { start, input: input.slice(0, at), value: value.slice(0, at) };
}

/** Store k's terms out of a TermMatrix (without their signals: enough to fit on). */
export function termsAt(m: TermMatrix, k: number): Term[] {
  const out: Term[] = [];
  for (let t = m.start[k]; t < m.start[k + 1]; t++) out.push({ i: m.input[t], x: m.value[t] });
  return out;
}

/** Every store's logit (logitOf over its terms, summed in the same order). */
export function logitsOf(weights: Float64Array, m: TermMatrix): Float64Array {
  const n = m.start.length - 1;
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    let z = 0;
    for (let t = m.start[k]; t < m.start[k + 1]; t++) z += weights[m.input[t]] * m.value[t];
    out[k] = z;
  }
  return out;
}

/** The stored evidence of a store, one item per term, in the order the logit sums them. */
export function storedEvidence(space: InputSpace, s: StoreSnapshot, ts: readonly Term[] = terms(space, s)): StoredEvidence[] {
  return ts.map((t) => describeTerm(space.inputs[t.i], t, s));
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

export const sigmoid = (z: number): number => (z >= 0 ? 1 / (1 + Math.exp(-z)) : Math.exp(z) / (1 + Math.exp(z)));

