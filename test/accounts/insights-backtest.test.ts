import { describe, expect, it } from 'vitest';
import { backtest, MIN_SAMPLE, posteriorSd, type BacktestOutcome } from '../../src/accounts/insights.js';
import { EARLIER, labelOf, PRIOR, priorOf } from '../../src/accounts/prior.js';

const o = (store_id: string, action: BacktestOutcome['action'], ranked_score: number | null, ranked_model_version: number | null = 1): BacktestOutcome => ({
  store_id,
  action,
  ranked_score,
  ranked_model_version,
});

describe('the backtest', () => {
  it("scores a store with its score when its first outcome was recorded, and judges it by its latest", () => {
    const b = backtest([o('a', 'discovery', 0.2, 1), o('a', 'won', 0.9, 2)]);
    expect(b).toMatchObject({ outcomes_scored: 1, wins: 1, win_rate: 1, small_sample: true });
    expect(b.calibration.find((c) => c.count > 0)).toMatchObject({ decile: 10, predicted: 0.2, observed: 1 });
  });

  it('leaves out stores still in progress, and counts won or lost stores the ranking did not list as unscored', () => {
    const b = backtest([o('a', 'won', 0.5), o('b', 'proposal', 0.4), o('c', 'lost', null, null)]);
    expect(b).toMatchObject({ outcomes_scored: 1, unscored: 1 });
  });

  it('measures lift in the top k by score at the time against the overall win rate', () => {
    // 100 stores: the best-scored 10 all won, 10 more of the rest won.
    const outcomes = Array.from({ length: 100 }, (_, i) => o(`s${String(i).padStart(3, '0')}`, i < 10 || i % 9 === 0 ? 'won' : 'lost', 1 - i / 100));
    const b = backtest(outcomes);
    const wins = outcomes.filter((x) => x.action === 'won').length;
    expect(b.wins).toBe(wins);
    expect(b.lift_at_10).toMatchObject({ k: 10, n: 10, wins: 10, win_rate: 1, small_sample: true });
    expect(b.lift_at_10.lift).toBeCloseTo(1 / (wins / 100), 12);
    const top50 = outcomes.slice(0, 50).filter((x) => x.action === 'won').length;
    expect(b.lift_at_50).toMatchObject({ n: 50, wins: top50, small_sample: false });
    expect(b.lift_at_50.lift).toBeCloseTo(top50 / 50 / (wins / 100), 12);
    expect(b.small_sample).toBe(false);
    expect(b.note).toBeNull();
  });

  it('splits the scored outcomes into ten deciles whose counts add up, each flagged below the sample floor', () => {
    const outcomes = Array.from({ length: 37 }, (_, i) => o(`s${i}`, i % 3 ? 'lost' : 'won', i / 37));
    const b = backtest(outcomes);
    expect(b.calibration.map((c) => c.decile)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(b.calibration.reduce((s, c) => s + c.count, 0)).toBe(37);
    expect(b.calibration.reduce((s, c) => s + c.wins, 0)).toBe(b.wins);
    expect(b.calibration.every((c) => c.small_sample === c.count < MIN_SAMPLE)).toBe(true);
    // Deciles run from the lowest scores to the highest.
    for (let k = 1; k < 10; k++) expect(b.calibration[k].score_min!).toBeGreaterThan(b.calibration[k - 1].score_max!);
  });

  it('follows the backtest over the model versions, as it stood when each was current', () => {
    const b = backtest([o('a', 'won', 0.9, 3), o('b', 'lost', 0.1, 3), o('c', 'won', 0.5, 4), o('d', 'lost', 0.6, 5)]);
    expect(b.history.map((h) => [h.model_version, h.outcomes_scored, h.wins])).toEqual([
      [3, 2, 1],
      [4, 3, 2],
      [5, 4, 2],
    ]);
  });
});

describe('the weights', () => {
  const weights = { intercept: -2, 'country:US': 0, 'signal:traffic_up': 0.7, 'signal:traffic_up:earlier': 0.35 };

  it('are exactly as uncertain as their prior without labels', () => {
    const sd = posteriorSd(weights, []);
    for (const k of Object.keys(weights)) expect(sd.get(k)).toBeCloseTo(priorOf(k).sd, 12);
    expect(priorOf('signal:traffic_up:earlier')).toEqual({ mean: PRIOR.signal.traffic_up.mean * EARLIER, sd: PRIOR.signal.traffic_up.sd * EARLIER });
  });

  it('narrow for the inputs labelled stores have, and only for those', () => {
    const labelled = Array.from({ length: 40 }, (_, i) => ({ inputs: [{ key: 'intercept', x: 1 }, { key: 'country:US', x: 1 }], y: i % 2, weight: 1 }));
    const sd = posteriorSd(weights, labelled);
    expect(sd.get('country:US')!).toBeLessThan(PRIOR.country.sd);
    expect(sd.get('signal:traffic_up')).toBeCloseTo(PRIOR.signal.traffic_up.sd, 12);
  });

  it('read in plain words', () => {
    expect(labelOf('country:US')).toBe('Based in US');
    expect(labelOf('ads:tiktok')).toBe('Advertises on TikTok');
    expect(labelOf('agentic:mcp_server')).toBe('Has an MCP server');
    expect(labelOf('signal:app_installed:earlier')).toBe('Signal: App installed (an earlier month)');
  });
});
