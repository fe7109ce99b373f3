/**
 * The learning benchmark's claim on one fixed seed: an agency that records outcomes drawn from
 * the panel's hidden truth (and works the explore rows the ranking reserves) ends with a
 * ranking of the accounts it has not yet worked that is better than the prior it started from.
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateTruthPanel, simulateLearning } from '../../src/bench/learning.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-learning-');
afterAll(() => dirs.removeAll());

describe('learning from outcomes', () => {
  it('ranks the unworked accounts closer to the hidden truth after 200 outcomes than the never-refit prior', async () => {
    const dir = await dirs.make();
    const tp = await generateTruthPanel(dir, { stores: 2500, from: '2026-08', to: '2026-10', seed: 'learning-test' });
    const r = await simulateLearning(tp, { seed: 1, rounds: 8, dbPath: path.join(dir, 'api.db'), arms: ['no learning', 'with exploration'] });
    const prior = r['no learning']!;
    const learned = r['with exploration']!;
    // Before any outcome both arms rank with the prior.
    expect(learned.ep[0]).toBeCloseTo(prior.ep[0], 9);
    expect(learned.ep[8]).toBeGreaterThan(prior.ep[8] + 0.15);
    expect(learned.ndcg[8]).toBeGreaterThan(prior.ndcg[8]);
  }, 60_000);
});
