/**
 * A panel published whole (`--all`) and the same panel published in pieces (a month added at a
 * time, as the monthly job does, over the month aggregates kept between runs) publish the same
 * figures, month by month, and write the same runs folder (every store's features and signals).
 * A property over generated panels (fast-check chooses the seed, the size and the months), at a
 * size where many cells sit near the floor.
 */
import { createHash } from 'node:crypto';
import { cp, mkdir, readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { nextMonth } from '../../src/core/panel-contract.js';
import { lit, openDuck } from '../../src/panel/duck.js';
import { readRunsIndex } from '../../src/panel/runs.js';
import { SLUGS, type Stat } from '../../src/stats/types.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-whole-or-pieces-');
afterAll(() => dirs.removeAll());

/** Every stat of every month document, by `slug/month/id` (the figures, without the run's time). */
async function figures(out: string, months: readonly string[]): Promise<Map<string, Stat>> {
  const all = new Map<string, Stat>();
  for (const slug of SLUGS) {
    for (const m of months) {
      const doc = JSON.parse(await readFile(path.join(out, 'api/data', slug, `${m}.json`), 'utf8')) as { stats: Stat[] };
      for (const s of doc.stats) all.set(`${slug}/${m}/${s.id}`, s);
    }
  }
  return all;
}

/** The runs folder's content: per month its run id, its stores file's name and sha256, and its signals' rows as sorted JSON lines. */
async function runsContent(runs: string): Promise<Record<string, { run: string; stores: string[]; signals: string[] }>> {
  const index = await readRunsIndex(runs);
  const duck = await openDuck();
  try {
    const rows = async (file: string) =>
      (await duck.all(`SELECT to_json(t)::VARCHAR AS j FROM read_parquet(${lit(file)}) t`)).map((r) => r.j as string).sort();
    const out: Record<string, { run: string; stores: string[]; signals: string[] }> = {};
    for (const [m, id] of Object.entries(index.months)) {
      const dir = path.join(runs, m, id);
      const storesFile = (await readdir(dir)).find((n) => n.startsWith('stores.'))!;
      const stores = [storesFile, createHash('sha256').update(await readFile(path.join(dir, storesFile))).digest('hex')];
      out[m] = { run: id, stores, signals: await rows(path.join(dir, 'signals.parquet')) };
    }
    return out;
  } finally {
    duck.close();
  }
}

describe('a panel published whole or a month at a time', () => {
  it('publishes every figure and writes every store and signal the same way', { timeout: 240_000 }, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          seed: fc.string({ minLength: 1, maxLength: 6 }),
          stores: fc.integer({ min: 250, max: 900 }),
          from: fc.constantFrom('2025-11', '2026-01', '2026-06'),
          months: fc.integer({ min: 3, max: 4 }),
        }),
        async ({ seed, stores, from, months: count }) => {
          const months: string[] = [from];
          while (months.length < count) months.push(nextMonth(months[months.length - 1]));
          const full = await dirs.make();
          await generate(full, { stores, seed, from: months[0], to: months[months.length - 1] });

          const whole = await dirs.make();
          await publishPanel(full, path.join(whole, 'out'), { runs: path.join(whole, 'runs') });

          const pieces = await dirs.make();
          const grown = path.join(pieces, 'panel');
          await mkdir(grown);
          await cp(path.join(full, 'contacts.csv'), path.join(grown, 'contacts.csv'));
          for (const m of months) {
            await cp(path.join(full, `${m}.csv`), path.join(grown, `${m}.csv`));
            await publishPanel(grown, path.join(pieces, 'out'), { runs: path.join(pieces, 'runs'), months: m });
          }

          const [a, b] = [await figures(path.join(whole, 'out'), months), await figures(path.join(pieces, 'out'), months)];
          expect(a.size).toBeGreaterThan(0);
          expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
          for (const [key, stat] of a) expect(b.get(key), key).toEqual(stat);
          const runs = await runsContent(path.join(whole, 'runs'));
          expect(Object.keys(runs)).toEqual(months);
          expect(await runsContent(path.join(pieces, 'runs'))).toEqual(runs);
        },
      ),
      { numRuns: 3 },
    );
  });
});

