import os from 'node:os';
import { describe, expect, it } from 'vitest';
import { machineLine, readMachine } from '../../src/bench/machine.js';

describe('the machine line every benchmark run prints', () => {
  it('reads this machine: its cores, its load, and the fixed work timed in CPU and wall time', () => {
    const m = readMachine();
    expect(m.cores).toBe(os.availableParallelism());
    expect(m.load.every((x) => Number.isFinite(x) && x >= 0)).toBe(true);
    // Real work was done and timed.
    expect(m.cpuMs).toBeGreaterThan(1);
    expect(m.wallMs).toBeGreaterThan(0);
    if (m.steal !== undefined) expect(m.steal).toBeGreaterThanOrEqual(0);
    expect(m.memoryMs).toBeGreaterThan(0);
  });

  it('prints the reading it is given', () => {
    const line = machineLine('after', { cores: 2, load: [1.5, 0.25], cpuMs: 512.4, wallMs: 1030.6, steal: 0.031 });
    expect(line).toBe(
      'machine after the benchmarks: 2 cores, load average 1.50 (1 min) 0.25 (5 min); the fixed work took 512 ms of CPU in 1031 ms, 3% of the CPU taken by the host',
    );
    expect(machineLine('before', { cores: 2, load: [0, 0], cpuMs: 1, wallMs: 1 })).not.toContain('host');
    expect(machineLine('before', { cores: 2, load: [0, 0], cpuMs: 1, wallMs: 1, memoryMs: 401.2 })).toMatch(/; a random walk of 2,097,152 reads over 32 MiB took 401 ms$/);
  });
});
