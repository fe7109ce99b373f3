/**
 * The default publish's goal (≤ 1.25× `--all --cards none`) is read from both orders of the two
 * publishes: a machine whose speed drifts over minutes favours whichever runs second, so one
 * pair alone can pass or fail the goal by its order.
 */
import { describe, expect, it } from 'vitest';
import { runsRatio } from '../../src/bench/index.js';
import type { PublishRun } from '../../src/bench/publish-child.js';

const run = (seconds: number, cpuSeconds = seconds * 1.5): PublishRun => ({ seconds, cpuSeconds, maxRssBytes: 0, phases: {}, cpuPhases: {}, memoryPhases: {}, months: [] });

describe('the runs folder against --all alone', () => {
  it('takes the ratio over both pairs, each pair shown', () => {
    // First pair slow for --all (the machine slower then), second the other way round.
    const line = runsRatio({ all: run(50), allWithRuns: run(60), again: { allWithRuns: run(70), all: run(40) } });
    expect(line).toContain('1.44× --all --cards none without the runs (goal ≤ 1.25×; both orders, sums of 60.00 s vs 50.00 s, then with the runs first 70.00 s vs 40.00 s');
    expect(line).toContain('CPU time 1.44×');
  });

  it('is the one pair when only one was run (the whole market)', () => {
    expect(runsRatio({ all: run(100), allWithRuns: run(120, 200), again: null })).toBe('1.20× --all --cards none without the runs (goal ≤ 1.25×; 120.00 s vs 100.00 s; CPU time 1.33×)');
  });
});

describe('the typed read beside an added month and a correction', () => {
  it('names the least a publish of those months costs against their raw read', async () => {
    const { typedFloor } = await import('../../src/bench/index.js');
    expect(typedFloor(0.6, 1.2, 0.2, 0.3)).toBe('; the same months checked and typed as the input contract says, before any statistic: 0.60 s, 3.0× the raw read (CPU 4.0×)');
  });
});
