/**
 * The learning benchmark's goal lines: each policy's figures after the last round beside the
 * issue's goals, met or not (what a reader of `npm run bench` checks the goals by).
 */
import { describe, expect, it } from 'vitest';
import { learningLines } from '../../src/bench/index.js';
import { ARMS, type Arm, type ArmResult, type LearningBenchResult } from '../../src/bench/learning.js';

const iv = (mean: number) => ({ mean, low: mean, high: mean });

function arm(listed: number, worst: number, wins: number, o: { rho?: number; reordered?: number } = {}): ArmResult {
  return {
    listed: { ...iv(listed), worst },
    listedOfAll: { ...iv(listed), worst },
    ep: { ...iv(listed), worst },
    ndcg: iv(listed),
    wins: iv(wins),
    rho: { mean: o.rho ?? 1, worst: o.rho ?? 1 },
    reordered: o.reordered ?? 0,
  };
}

function result(final: Record<Arm, ArmResult>): LearningBenchResult {
  const mean = Object.fromEntries(ARMS.map((a) => [a, { listed: [0, final[a].listed.mean], ep: [0, final[a].ep.mean] }])) as NonNullable<LearningBenchResult['mean']['generator truth']>;
  return { seeds: [1, 2], rounds: 1, rules: ['generator truth'], mean: { 'generator truth': mean }, final: { 'generator truth': final } };
}

const goalLines = (r: LearningBenchResult) => learningLines(r).filter((l) => l.startsWith('learning: goals, '));

describe('the learning benchmark prints each goal met or not', () => {
  it('says met for each policy whose figures reach every goal', () => {
    const lines = goalLines(
      result({ 'no learning': arm(0.2, 0.1, 30), 'explore first': arm(0.82, 0.64, 75), 'mostly top': arm(0.71, 0.57, 88), 'explore first, by score': arm(0.81, 0.6, 75), 'mostly top, by score': arm(0.7, 0.56, 87) }),
    );
    expect(lines).toEqual([
      "learning: goals, generator truth, explore first: in the list's order 0.82 (worst seed 0.64): met; wins 75.0 against 75.0 by score: met; ρ 1.00 at the lowest: met",
      "learning: goals, generator truth, mostly top: in the list's order 0.71 (worst seed 0.57): met; wins 88.0 against 87.0 by score: met; ρ 1.00 at the lowest: met",
    ]);
  });

  it('says NOT MET for a mean under 0.7, a seed under 0.5, fewer wins than by score, fewer wins for either policy or ρ under 0.9', () => {
    const lines = goalLines(
      result({
        'no learning': arm(0.2, 0.1, 30),
        'explore first': arm(0.75, 0.45, 74.2, { reordered: 1 }),
        'mostly top': arm(0.65, 0.57, 85.3, { rho: 0.85 }),
        'explore first, by score': arm(0.75, 0.45, 75.1),
        'mostly top, by score': arm(0.65, 0.55, 86.1),
      }),
    );
    expect(lines[0]).toBe("learning: goals, generator truth, explore first: in the list's order 0.75 (worst seed 0.45): NOT MET; wins 74.2 against 75.1 by score: NOT MET; ρ 1.00 at the lowest: met");
    expect(lines[1]).toBe("learning: goals, generator truth, mostly top: in the list's order 0.65 (worst seed 0.57): NOT MET; wins 85.3 against 86.1 by score: NOT MET; ρ 0.85 at the lowest: NOT MET");
  });

  it("gives the wins' difference with the list by score seed by seed, with its 95% interval", () => {
    const paired = (a: ArmResult, mean: number, low: number, high: number): ArmResult => ({ ...a, winsOverByScore: { mean, low, high } });
    const lines = goalLines(
      result({
        'no learning': arm(0.2, 0.1, 30),
        'explore first': paired(arm(0.82, 0.64, 75.9), 0.6, -1.04, 2.24),
        'mostly top': paired(arm(0.71, 0.57, 85.3), -0.8, -3.96, 2.36),
        'explore first, by score': arm(0.81, 0.6, 75.3),
        'mostly top, by score': arm(0.7, 0.56, 86.1),
      }),
    );
    expect(lines[0]).toContain('wins 75.9 against 75.3 by score (seed by seed +0.6 [−1.0, +2.2]): met;');
    expect(lines[1]).toContain('wins 85.3 against 86.1 by score (seed by seed −0.8 [−4.0, +2.4]): NOT MET;');
  });
});
