/**
 * The scale-out line says what limited two processes: the goal (two api processes ≥ 1.3× one on
 * reads) holds only where the database is not the limit, and on a machine whose cores the
 * processes and the load generators fill, the cores are; the line says which, from the CPU
 * shares measured while the reads ran.
 */
import { describe, expect, it } from 'vitest';
import { scaleoutLines } from '../../src/bench/api-lines.js';
import type { OpFigures } from '../../src/bench/load.js';
import type { CpuUse, ScaleoutBenchResult } from '../../src/bench/scaleout.js';

const op = (rps: number): OpFigures => ({ rps, p99: 10, requests: rps * 5, non2xx: 0, errors: 0, seconds: 5, budgetEnded: false });
const run = (two: CpuUse | undefined): ScaleoutBenchResult => ({
  database: 'PostgreSQL',
  connections: 32,
  seconds: 5,
  one: { reads: op(13_000), writes: op(2_400), readsCpu: { busy: 0.97, servers: 0.48, database: 0.05 } },
  two: { reads: op(9_600), writes: op(1_800), readsCpu: two },
});

describe('scale-out line', () => {
  it('names the cores as the limit when they were busy while two processes read', () => {
    const [line] = scaleoutLines([run({ busy: 0.98, servers: 0.55, database: 0.06 })], 2);
    expect(line).toContain('ratio 0.74×');
    expect(line).toContain('not measurable here: the 2 cores are the limit, not the database');
    expect(line).toContain('one process 97% busy (storelens 48%, PostgreSQL 5%, load generators and the rest 44%)');
    expect(line).toContain('two 98% busy (storelens 55%, PostgreSQL 6%, load generators and the rest 37%)');
  });

  it('does not excuse a ratio when cores were left idle, nor when the CPU was not measured', () => {
    expect(scaleoutLines([run({ busy: 0.6, servers: 0.3, database: 0.1 })], 8)[0]).toContain('the cores not all busy');
    expect(scaleoutLines([run(undefined)], 2)[0]).toContain('the CPU not measured');
  });
});
