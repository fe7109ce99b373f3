/**
 * The prior sd of subjects and pairs set by the outcomes (accounts/fit.ts fitModel, prior.ts
 * LEARNED_SD): wide where the labels show a conjunction, narrow where they show single inputs, a
 * subject's own sd wide where the labels follow it alone, the model fitted with the sds it reports,
 * and the starting weighting itself before any label.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/core/random.js';
import { fit, fitModel, posteriorCovariance } from '../../src/accounts/fit.js';
import { LEARNED_SD, priorOf } from '../../src/accounts/prior.js';
import type { InputSpace, Term } from '../../src/accounts/model.js';
import { CATEGORY_SIGNAL, SUBJECT } from '../../src/accounts/signal-inputs.js';
import { posteriorSd } from '../../src/accounts/insights.js';

/** fast-check's seed: the same stores and labels every run (a run fails on what the code does, not on the draw). */
const FC_SEED = 20261130;

const CATEGORIES = ['apparel', 'beauty', 'pets', 'toys', 'home & garden', 'electronics'];
const TYPES = ['traffic_up', 'app_installed', 'ad_channel_started'] as const;

/** The intercept, a category and a signal type per value, a subject per app, and a category+signal pair for every category and type. */
function space(): InputSpace {
  const keys = [
    'intercept',
    ...CATEGORIES.map((c) => `category:${c}`),
    ...TYPES.map((t) => `signal:${t}`),
    ...['recharge', 'klaviyo'].map((a) => `${SUBJECT}:app_installed:${a}`),
    ...CATEGORIES.flatMap((c) => TYPES.map((t) => `${CATEGORY_SIGNAL}:${t}:${c}`)),
  ];
  const inputs = keys.map((key) => ({ key, prior: priorOf(key) }));
  return { inputs, index: new Map(inputs.map((inp, i) => [inp.key, i])), latestMonth: '2026-10' };
}

interface Store {
  category: string;
  type: (typeof TYPES)[number];
  app: string;
}

const termsOf = (s: InputSpace, x: Store): Term[] =>
  ['intercept', `category:${x.category}`, `signal:${x.type}`, ...(x.type === 'app_installed' ? [`${SUBJECT}:app_installed:${x.app}`] : []), `${CATEGORY_SIGNAL}:${x.type}:${x.category}`]
    .filter((k) => s.index.has(k))
    .map((k) => ({ i: s.index.get(k)!, x: 1 }));

function stores(seed: number, n: number, apps: readonly string[] = ['recharge', 'klaviyo']): Store[] {
  const r = seededRandom(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  return Array.from({ length: n }, () => ({ category: pick(CATEGORIES), type: pick(TYPES), app: pick(apps) }));
}

/** Labels by a rule over the stores: y = 1 where it holds. */
const labels = (s: InputSpace, xs: readonly Store[], rule: (x: Store) => boolean) => xs.map((x) => ({ terms: termsOf(s, x), y: rule(x) ? 1 : 0, weight: 1 }));

/** Two conjunctions, as agencies describe their best clients: beauty stores that installed an app, toy stores whose traffic grew. */
const conjunction = (x: Store) => (x.category === 'beauty' && x.type === 'app_installed') || (x.category === 'toys' && x.type === 'traffic_up');
/** Single inputs: any beauty store, any store that started an ad channel. */
const single = (x: Store) => x.category === 'beauty' || x.type === 'ad_channel_started';

const start = priorOf(`${CATEGORY_SIGNAL}:traffic_up:beauty`).sd;

describe('the prior sd of subjects and pairs, set by the outcomes', () => {
  it('is the starting weighting before any label', () => {
    const s = space();
    const m = fitModel(s, []);
    expect(m.priorSd).toBeUndefined();
    expect([...m.weights]).toEqual([...fit(s, []).weights]);
  });

  it('widens for pairs when the labels follow a conjunction, more than when they follow single inputs, and stays within its bounds', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
        const s = space();
        const xs = stores(seed, 200);
        const wide = fitModel(s, labels(s, xs, conjunction)).priorSd![CATEGORY_SIGNAL]!;
        const narrow = fitModel(s, labels(s, xs, single)).priorSd![CATEGORY_SIGNAL]!;
        expect(wide).toBeGreaterThan(start);
        expect(wide).toBeGreaterThan(narrow);
        for (const sd of [wide, narrow]) {
          expect(sd).toBeGreaterThanOrEqual(LEARNED_SD.min);
          expect(sd).toBeLessThanOrEqual(LEARNED_SD.max);
        }
      }),
      { numRuns: 10, seed: FC_SEED },
    );
  });

  it("widens a subject's own sd, not its group's other subjects', when the labels follow that subject alone", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), (seed) => {
        const s = space();
        // Stores that installed ReCharge win most of the time, every other store seldom.
        const r = seededRandom(seed + 1);
        // Half the installs are of apps too rare for an input of their own: the type's weight is theirs.
        const m = fitModel(s, labels(s, stores(seed, 200, ['recharge', 'klaviyo', 'rare-1', 'rare-2']), (x) => r() < (x.type === 'app_installed' && x.app === 'recharge' ? 0.8 : 0.15)));
        const recharge = m.priorSd![`${SUBJECT}:app_installed:recharge`]!;
        const klaviyo = m.priorSd![`${SUBJECT}:app_installed:klaviyo`]!;
        expect(recharge).toBeGreaterThan(m.priorSd![SUBJECT]!);
        expect(recharge).toBeGreaterThan(klaviyo);
        for (const sd of [recharge, klaviyo]) {
          expect(sd).toBeGreaterThanOrEqual(LEARNED_SD.min);
          expect(sd).toBeLessThanOrEqual(LEARNED_SD.max);
        }
      }),
      // Seed 769779 (found by an unseeded run) leaves the subject's and its group's sd both at
      // LEARNED_SD.max, where neither can be wider than the other: a fixed draw of seeds keeps CI
      // from meeting such a seed by chance (seeds 1–300 all pass).
      { numRuns: 10, seed: FC_SEED },
    );
  });

  it("lets an app a store has carry what the outcomes of its stores show, not only its recent installs (the two inputs' priors share a spread)", () => {
    // A workspace's in-market accounts are mostly recent installers, but every store that has
    // ReCharge wins more: those that installed it months ago too.
    const keys = ['intercept', 'signal:app_installed', 'app:recharge', 'app:klaviyo', `${SUBJECT}:app_installed:recharge`, `${SUBJECT}:app_installed:klaviyo`];
    const inputs = keys.map((key) => ({ key, prior: priorOf(key) }));
    const s: InputSpace = { inputs, index: new Map(inputs.map((inp, i) => [inp.key, i])), latestMonth: '2026-10' };
    const at = (...ks: string[]) => ks.map((k) => ({ i: s.index.get(k)!, x: 1 }));
    const store = { recent: at('intercept', 'signal:app_installed', 'app:recharge', `${SUBJECT}:app_installed:recharge`), months: at('intercept', 'app:recharge'), other: at('intercept', 'signal:app_installed', 'app:klaviyo', `${SUBJECT}:app_installed:klaviyo`), none: at('intercept') };
    const scoreOf = (m: ReturnType<typeof fitModel>, terms: Term[]) => 1 / (1 + Math.exp(-terms.reduce((z, t) => z + m.weights[t.i] * t.x, 0)));
    // Seeds 1–20, fixed (over seeds 1–300 the smallest margins were 0.18 for the score and 0.20 for the weights).
    for (let seed = 1; seed <= 20; seed++) {
      const r = seededRandom(seed);
      const ls = [...Array(80).fill(store.recent), ...Array(20).fill(store.months), ...Array(60).fill(store.other), ...Array(40).fill(store.none)].map((terms: Term[]) => ({
        terms,
        y: r() < (terms === store.recent || terms === store.months ? 0.7 : 0.15) ? 1 : 0,
        weight: 1,
      }));
      const m = fitModel(s, ls);
      expect(m.priorSd!['app:recharge']).toBeGreaterThan(priorOf('app:recharge').sd);
      expect(m.priorSd!['app:recharge']).toBeLessThanOrEqual(LEARNED_SD.max);
      // The app carries more of the effect than the recent install, and a store that has had
      // ReCharge for months scores well above one without it (held apart: 0.11 above, at the median).
      expect(m.weights[s.index.get('app:recharge')!]).toBeGreaterThan(m.weights[s.index.get(`${SUBJECT}:app_installed:recharge`)!]);
      expect(scoreOf(m, store.months) - scoreOf(m, store.none)).toBeGreaterThan(0.12);
    }
  });

  it('is the prior the model was fitted with: its space carries it, and the weights are the mode of the fit at those priors', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1e6 }), fc.boolean(), (seed, conj) => {
        const s = space();
        const ls = labels(s, stores(seed, 150), conj ? conjunction : single);
        const m = fitModel(s, ls);
        for (const inp of m.space.inputs) {
          const group = inp.key.slice(0, inp.key.indexOf(':'));
          const learnt = (LEARNED_SD.groups as readonly string[]).includes(group);
          const own = (LEARNED_SD.own as readonly string[]).includes(group);
          expect(inp.prior.sd).toBe(own ? m.priorSd![inp.key] : learnt ? m.priorSd![group] : priorOf(inp.key).sd);
          expect(inp.prior.sd).toBe(priorOf(inp.key, m.priorSd).sd);
        }
        const again = fit(m.space, ls);
        for (let j = 0; j < m.weights.length; j++) expect(m.weights[j]).toBeCloseTo(again.weights[j], 6);
        // Model insights read each weight's spread with the same priors.
        const cov = posteriorCovariance(m);
        const d = m.weights.length;
        const byKey = Object.fromEntries(m.space.inputs.map((inp, j) => [inp.key, m.weights[j]]));
        const named = ls.map((l) => ({ inputs: l.terms.map((t) => ({ key: s.inputs[t.i].key, x: t.x })), y: l.y, weight: l.weight }));
        const sd = posteriorSd(byKey, named, m.priorSd);
        m.space.inputs.forEach((inp, j) => expect(sd.get(inp.key)).toBeCloseTo(Math.sqrt(cov[j * d + j]), 6));
      }),
      { numRuns: 6, seed: FC_SEED },
    );
  });
});
