/**
 * The learning benchmark's claim on one fixed seed: an agency that records outcomes drawn from
 * the panel's hidden truth (and works the explore rows the ranking reserves) ends with a
 * ranking of the accounts it has not yet worked that is better than the prior it started from.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { selectInMarket } from '../helpers/in-market-rows.js';
import { generateTruthPanel, precision, simulateLearning } from '../../src/bench/learning.js';
import { nextRound } from '../../src/bench/learning-policies.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-learning-');
afterAll(() => dirs.removeAll());

describe('learning from outcomes', () => {
  it('ranks the unworked accounts closer to the hidden truth after 200 outcomes than the never-refit prior, by score and in the list\'s order', async () => {
    const dir = await dirs.make();
    const tp = await generateTruthPanel(dir, { stores: 2500, from: '2026-08', to: '2026-10', seed: 'learning-test' });
    const r = await simulateLearning(tp, { seed: 1, rounds: 8, dbPath: path.join(dir, 'api.db'), rules: ['generator truth'], arms: ['no learning', 'explore first'] });
    const prior = r['generator truth']!['no learning']!;
    const learned = r['generator truth']!['explore first']!;
    // Before any outcome both arms rank with the prior.
    expect(learned.ep[0]).toBeCloseTo(prior.ep[0], 9);
    expect(learned.ep[8]).toBeGreaterThan(prior.ep[8] + 0.15);
    expect(learned.ndcg[8]).toBeGreaterThan(prior.ndcg[8]);
    // … and so does the list as GET /accounts answers it, which follows the score outside its explore rows.
    expect(learned.listed[8]).toBeGreaterThan(prior.listed[8] + 0.15);
    expect(learned.rho).toBe(1);
  }, 300_000);
});

describe('the exploit-only arm and the round rule', () => {
  const rows = Array.from({ length: 100 }, (_, i) => ({ store_id: `s${String(i).padStart(3, '0')}`, score: 1 - i / 100, eligible: true, labelled: false }));

  it('reserves no explore rows with exploreShare 0, and the same exploit rows as with exploration', () => {
    const off = selectInMarket(rows, 0);
    const on = selectInMarket(rows);
    expect(off.explore.size).toBe(0);
    expect(on.explore.size).toBeGreaterThan(0);
    expect([...off.inMarket].sort()).toEqual([...on.inMarket].filter((id) => !on.explore.has(id)).sort());
  });

  it('works every unlabelled explore row first, then the best-scored exploit rows, then the rest of the ranking', () => {
    const list = rows.map((r, i) => ({ store_id: r.store_id, score: r.score, in_market: i < 10 || i === 50 || i === 60 ? 1 : 0, explore: i === 50 || i === 60 ? 1 : 0 }));
    expect(nextRound('explore first', list, new Set(['s060', 's000']), 5)).toEqual(['s050', 's001', 's002', 's003', 's004']);
    expect(nextRound('explore first', list, new Set(list.slice(0, 10).map((r) => r.store_id)), 4)).toEqual(['s050', 's060', 's010', 's011']);
  });

  it('works five explore rows a round mostly the top, then the list from its top', () => {
    const explore = new Set([50, 60, 70, 80, 90, 95]);
    const list = rows.map((r, i) => ({ store_id: r.store_id, score: r.score, in_market: i < 10 || explore.has(i) ? 1 : 0, explore: explore.has(i) ? 1 : 0 }));
    expect(nextRound('mostly top', list, new Set(['s050']), 8)).toEqual(['s060', 's070', 's080', 's090', 's095', 's000', 's001', 's002']);
  });
});

describe('P@50 in the list\'s order', () => {
  // Ten accounts, p falling with the id; a0 and a1 have no recent signal, so the list cannot hold them.
  const truth = new Map(Array.from({ length: 10 }, (_, i) => [`a${i}`, 1 - i / 10]));
  const list = ['a2', 'a3', 'a4', 'a5', 'a6', 'a7', 'a8', 'a9', 'a0', 'a1'].map((id) => ({ store_id: id, score: truth.get(id)!, in_market: 1, explore: 0 }));
  const held = new Set(list.map((r) => r.store_id).filter((id) => id !== 'a0' && id !== 'a1'));

  it('counts the next rows against the best the list could hold, and against every account beside it', () => {
    expect(precision(list, truth, new Set(), 3, held).ep).toBeCloseTo(1, 12);
    expect(precision(list, truth, new Set(), 3).ep).toBeCloseTo((0.8 + 0.7 + 0.6) / (1 + 0.9 + 0.8), 12);
  });

  it('leaves the worked accounts out of both the next rows and the best ones', () => {
    expect(precision(list, truth, new Set(['a2']), 2, held).ep).toBeCloseTo(1, 12);
    // Read below a list that ran short, an account the list cannot hold counts among the best too.
    expect(precision([...list].reverse(), truth, new Set(['a2']), 2, held).ep).toBeCloseTo(1, 12);
    expect(precision(['a9', 'a0', 'a3'].map((id) => list.find((r) => r.store_id === id)!), truth, new Set(), 2, held).ep).toBeCloseTo((0.1 + 1) / (1 + 0.7), 12);
  });

  it('reads 1, not 0 / 0, once every account with a gain has been worked (no order could do better)', () => {
    const rule = new Map(list.map((r) => [r.store_id, r.store_id === 'a4' || r.store_id === 'a7' ? 1 : 0]));
    const worked = new Set(['a4', 'a7']);
    for (const order of [list, [...list].reverse()]) {
      expect(precision(order, rule, worked, 3, held)).toEqual({ ep: 1, ndcg: 1 });
      expect(precision(order, rule, worked, 3)).toEqual({ ep: 1, ndcg: 1 });
    }
    // One left unworked: the order counts again.
    expect(precision([...list].reverse(), rule, new Set(['a4']), 3, held).ep).toBe(0);
  });
});
