/**
 * `publish --memory-limit`: DuckDB works within the limit and spills to the output folder's
 * .cache/spill, which a run empties when it starts (a killed run's leftovers) and removes when it
 * ends; the figures do not depend on the limit.
 */
import { mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openDuck } from '../../src/panel/duck.js';
import { SPILL_DIR } from '../../src/publish/pipeline.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-memory-limit-');
afterAll(() => dirs.removeAll());
const exists = (p: string) => stat(p).then(() => true, () => false);

describe('a DuckDB memory limit', () => {
  it('holds a table larger than the limit by spilling it to the spill folder', async () => {
    const spillDir = path.join(await dirs.make(), 'spill');
    // Twice the limit is what makes it spill: 64 MiB and 125 MB spill as 128 MiB and 250 MB did,
    // in a third of the time (spilling costs more than in proportion to the table).
    const duck = await openDuck({ limitBytes: 64 * 1024 ** 2, spillDir });
    try {
      const [setting] = await duck.all<{ limit: string; dir: string }>(`SELECT current_setting('memory_limit') AS limit, current_setting('temp_directory') AS dir`);
      expect(setting).toEqual({ limit: '64.0 MiB', dir: spillDir });
      // About 125 MB of distinct text: about twice the limit.
      await duck.run(`CREATE TEMP TABLE big AS SELECT md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s FROM range(1500000) t(i)`);
      const [{ n }] = await duck.all<{ n: string }>(`SELECT count(DISTINCT s) AS n FROM big`);
      expect(Number(n)).toBe(1_500_000);
      expect(await exists(spillDir)).toBe(true);
    } finally {
      duck.close();
    }
  });
});

describe('publish --memory-limit', () => {
  it('publishes the same figures as without, and leaves no spill folder, not even one a killed run left', async () => {
    const input = await dirs.make();
    await generate(input, { stores: 600, seed: 'memory', from: '2026-01', to: '2026-03' });
    const free = path.join(await dirs.make(), 'out');
    await publishPanel(input, free);

    const limited = path.join(await dirs.make(), 'out');
    await mkdir(path.join(limited, SPILL_DIR), { recursive: true });
    await writeFile(path.join(limited, SPILL_DIR, 'duckdb_temp_storage-0.tmp'), 'left by a killed run');
    await publishPanel(input, limited, { memoryLimit: 256 * 1024 ** 2 });
    expect(await exists(path.join(limited, SPILL_DIR))).toBe(false);
    for (const m of ['2026-01', '2026-02', '2026-03']) {
      const file = (out: string) => readFile(path.join(out, 'api/data/agentic-commerce', `${m}.json`), 'utf8');
      expect(await file(limited)).toBe(await file(free));
    }
  });
});
