/**
 * The inputs beside a signal's type (accounts/signal-inputs.ts): its subject (which network, app,
 * feature) and the store's category or plan with it. Outcomes can teach a conjunction ("an
 * apparel store that started advertising on TikTok") that the type alone cannot carry, the
 * evidence words it in plain language and still adds up to the logit, and a few labels do not
 * make such a weight run away.
 */
import { describe, expect, it } from 'vitest';
import { fit } from '../../src/accounts/fit.js';
import { explain, inputSpace, logitOf, sigmoid, storedEvidence, terms, weightsByKey, type StoreSnapshot } from '../../src/accounts/model.js';
import { priorOf } from '../../src/accounts/prior.js';
import { MIN_PAIR_SHARE, pairInputs } from '../../src/accounts/signal-inputs.js';
import type { SignalType } from '../../src/core/signals.js';

const LATEST = '2026-10';
const DETAIL: Partial<Record<SignalType, (subject: string) => string>> = {
  ad_channel_started: (s) => `Started advertising on ${{ tiktok: 'TikTok', meta: 'Meta' }[s] ?? s}`,
  app_installed: (s) => `Installed ${s}`,
};

/** 400 stores: apparel or toys (by pairs of ids), grow or plus; even ids started advertising on TikTok, odd ids installed klaviyo (half of each in the latest month, half the month before). */
function stores(): StoreSnapshot[] {
  return Array.from({ length: 400 }, (_, i): StoreSnapshot => {
    const signals: StoreSnapshot['signals'] = [];
    const sig = (type: SignalType, subject: string, month: string) => signals.push({ id: `g${i}-${type}-${subject}`, month, type, subject, strength: 1, detail: DETAIL[type]!(subject) });
    const month = i % 8 < 4 ? LATEST : '2026-09';
    if (i % 2 === 0) sig('ad_channel_started', 'tiktok', month);
    else sig('app_installed', 'klaviyo', month);
    return {
      store_id: `s${String(i).padStart(3, '0')}`,
      month: LATEST,
      domain: `s${i}.example`,
      country: 'US',
      category: Math.floor(i / 2) % 2 === 0 ? 'apparel' : 'toys',
      plan: i % 5 === 0 ? 'plus' : 'grow',
      created_month: '2025-01',
      product_count: 100,
      monthly_visits: 1000 + i,
      est_monthly_revenue_usd: 5000,
      apps: ['klaviyo'],
      ads: [],
      agentic: [],
      signals,
    };
  });
}

describe("a signal's subject and its pairs with category and plan", () => {
  it('are inputs when enough accounts show them, each with a prior around 0', () => {
    const s = stores();
    const keys = pairInputs(s, () => true);
    expect(keys).toContain('subject:ad_channel_started:tiktok');
    expect(keys).toContain('category+signal:ad_channel_started:apparel');
    expect(keys).toContain('plan+signal:app_installed:plus');
    expect(keys).toContain('subject:app_installed:klaviyo');
    const space = inputSpace(s, LATEST);
    for (const k of keys) {
      expect(space.index.has(k)).toBe(true);
      expect(priorOf(k).mean).toBe(0);
      expect(priorOf(k).sd).toBeLessThanOrEqual(0.5);
    }
    // A pair fewer than MIN_PAIR_SHARE of the accounts show gets no input.
    const rare = s.map((x, i) => (i === 1 ? { ...x, signals: [{ id: 'r', month: LATEST, type: 'app_installed' as const, subject: 'rare-app', strength: 1, detail: 'Installed rare-app' }] } : x));
    expect(1 / rare.length).toBeLessThan(MIN_PAIR_SHARE);
    expect(pairInputs(rare, () => true)).not.toContain('subject:app_installed:rare-app');
  });

  it('word a conjunction in plain language in the evidence, which still adds up exactly to the logit', () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const model = fit(space, s.slice(0, 120).map((x, k) => ({ terms: terms(space, x), y: k % 3 === 0 ? 1 : 0, weight: 1 })));
    const store = s[0]; // apparel, plus, started advertising on TikTok in the latest month
    const ts = terms(space, store);
    const evidence = explain(storedEvidence(space, store, ts), weightsByKey(model));
    const details = new Map(evidence.map((e) => [e.key, e.detail]));
    expect(details.get('category+signal:ad_channel_started:apparel')).toBe('An apparel store that started advertising on TikTok (2026-10)');
    expect(details.get('plan+signal:ad_channel_started:plus')).toBe('A store on the plus plan that started advertising on TikTok (2026-10)');
    expect(details.get('subject:ad_channel_started:tiktok')).toBe('Started advertising on TikTok (2026-10): which network it was');
    const sum = evidence.reduce((a, e) => a + e.contribution, 0);
    expect(sum).toBeCloseTo(logitOf(model.weights, ts), 12);
  });

  it("count a signal as its type's own input does: its age is the type's to carry", () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const pair = space.index.get('category+signal:ad_channel_started:apparel')!;
    const x = (store: StoreSnapshot, i: number) => terms(space, store).filter((t) => t.i === i).reduce((a, t) => a + t.x, 0);
    const latest = space.index.get('signal:ad_channel_started')!;
    const earlier = space.index.get('signal:ad_channel_started:earlier')!;
    const older = { ...s[4], signals: s[4].signals.map((g) => ({ ...g, month: '2026-07' })) };
    expect([x(s[0], pair), x(s[0], latest)]).toEqual([1, 1]); // the latest month
    expect([x(s[4], pair), x(s[4], earlier)]).toEqual([1, 1]); // the month before: EARLIER × 2
    expect([x(older, pair), x(older, earlier)]).toEqual([0.25, 0.25]); // three months before
    expect(x(s[2], pair)).toBe(0); // toys
  });

  it('word a category with an ad network the store advertises on, a standing conjunction with no signal', () => {
    const s = stores().map((x, i) => ({ ...x, ads: i % 3 === 0 ? ['google'] : [] }));
    const space = inputSpace(s, LATEST);
    expect(space.index.has('category+ads:google:apparel')).toBe(true);
    expect(priorOf('category+ads:google:apparel')).toEqual(priorOf('category+signal:app_installed:apparel'));
    const model = fit(space, s.slice(0, 120).map((x) => ({ terms: terms(space, x), y: x.ads.length > 0 && x.category === 'apparel' ? 1 : 0, weight: 1 })));
    const ev = explain(storedEvidence(space, s[0]), weightsByKey(model));
    const item = ev.find((e) => e.key === 'category+ads:google:apparel')!;
    expect(item.detail).toBe('An apparel store that advertises on Google');
    expect(item.contribution).toBeGreaterThan(0);
    expect(ev.reduce((a, e) => a + e.contribution, 0)).toBeCloseTo(logitOf(model.weights, terms(space, s[0])), 12);
  });

  it('let outcomes learn conjunctions the types alone cannot: apparel stores that started on TikTok and toy stores that installed an app win, the other pairings lose', () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const has = (x: StoreSnapshot, type: SignalType) => x.signals.some((g) => g.type === type);
    const wins = (x: StoreSnapshot) => (x.category === 'apparel' && has(x, 'ad_channel_started')) || (x.category === 'toys' && has(x, 'app_installed'));
    // 200 labels: the first 200 stores; the rest are scored, not labelled.
    const separates = (sp: typeof space) => {
      const model = fit(sp, s.slice(0, 200).map((x) => ({ terms: terms(sp, x), y: wins(x) ? 1 : 0, weight: 1 })));
      const score = (x: StoreSnapshot) => sigmoid(logitOf(model.weights, terms(sp, x)));
      const rest = s.slice(200);
      return { w: weightsByKey(model), separated: Math.min(...rest.filter(wins).map(score)) > Math.max(...rest.filter((x) => !wins(x)).map(score)) };
    };
    const learned = separates(space);
    expect(learned.w['category+signal:ad_channel_started:apparel']).toBeGreaterThan(0.2);
    expect(learned.w['category+signal:app_installed:toys']).toBeGreaterThan(0.2);
    // Shrunk: far from the unbounded weight 50 wins in 50 would give without a prior.
    expect(learned.w['category+signal:ad_channel_started:apparel']).toBeLessThan(3);
    // Every unlabelled winner outranks every unlabelled other store…
    expect(learned.separated).toBe(true);
    // … which the same model without the pairs cannot do (the two rules cross: additive, one argues against the other).
    const inputs = space.inputs.filter((inp) => !inp.key.includes('+signal:') && !inp.key.startsWith('subject:') && !inp.key.startsWith('kind:'));
    expect(separates({ ...space, inputs, index: new Map(inputs.map((inp, i) => [inp.key, i])) }).separated).toBe(false);
  });

  it("carry what one app's outcomes taught to the other apps of its kind: a store that installed a rarely seen subscriptions app outranks one that installed an app of no known kind", () => {
    // Every store installed one app in the latest month: ReCharge (a subscriptions app) one in four,
    // Appstle (also subscriptions) only s001, s005 and s009 and app-001 (no known kind) only s003,
    // s007 and s245, too few for a subject of their own, Klaviyo (email) the rest. The subscriptions
    // apps win, the others lose.
    const rare: Record<number, string> = { 1: 'appstle', 5: 'appstle', 9: 'appstle', 3: 'app-001', 7: 'app-001', 245: 'app-001' };
    const app = (i: number) => rare[i] ?? (i % 4 === 0 ? 'recharge' : 'klaviyo');
    const s = stores().map((x, i) => ({ ...x, signals: [{ id: `a${i}`, month: LATEST, type: 'app_installed' as const, subject: app(i), strength: 1, detail: `Installed ${app(i)}` }] }));
    const space = inputSpace(s, LATEST);
    expect(space.index.has('subject:app_installed:appstle')).toBe(false);
    expect(space.index.has('subject:app_installed:app-001')).toBe(false);
    expect(space.index.has('kind:app_installed:subscriptions')).toBe(true);
    expect(priorOf('kind:app_installed:subscriptions')).toEqual({ mean: 0, sd: 0.5 });
    // Learnt from stores s010–s209; s005 (Appstle) and s245 (app-001) are apparel stores on the plus plan, never labelled.
    const fitted = (sp: typeof space) => fit(sp, s.slice(10, 210).map((x) => ({ terms: terms(sp, x), y: x.signals[0].subject === 'klaviyo' ? 0 : 1, weight: 1 })));
    const gap = (sp: typeof space) => {
      const m = fitted(sp);
      return sigmoid(logitOf(m.weights, terms(sp, s[5]))) - sigmoid(logitOf(m.weights, terms(sp, s[245])));
    };
    // Without the kind the model has nothing that ties Appstle to ReCharge: the two stores differ by their size alone.
    const inputs = space.inputs.filter((inp) => !inp.key.startsWith('kind:'));
    const apart = gap({ ...space, inputs, index: new Map(inputs.map((inp, i) => [inp.key, i])) });
    expect(Math.abs(apart)).toBeLessThan(0.1);
    expect(gap(space)).toBeGreaterThan(apart + 0.2);
    const model = fitted(space);
    const ev = explain(storedEvidence(space, s[5]), weightsByKey(model));
    const kind = ev.find((e) => e.key === 'kind:app_installed:subscriptions')!;
    expect(kind.detail).toBe('Installed appstle (2026-10): a subscriptions app');
    expect(kind.contribution).toBeGreaterThan(0);
    expect(ev.reduce((a, e) => a + e.contribution, 0)).toBeCloseTo(logitOf(model.weights, terms(space, s[5])), 12);
  });
});
