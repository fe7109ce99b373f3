/**
 * The acceptance sweep of issue 8: the independent attacker (test/helpers/independent-attacker.ts,
 * nothing of src/stats) against generated panels of 400, 1,000 and 3,000 stores over twelve
 * months, each month attacked with the programme of the months either side of it. Prints how
 * many hidden figures were attacked and the violations found (expected: none).
 *
 * Minutes of solving, so it runs only when asked: `npm run sweep:disclosure`
 * (DISCLOSURE_SWEEP=1; DISCLOSURE_SWEEP_STORES=400,1000 picks the panels).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { attackPublished } from '../helpers/attack-published.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-sweep-');
afterAll(() => dirs.removeAll());

const PANELS = [
  { stores: 400, seed: '11' },
  { stores: 1000, seed: '3' },
  { stores: 3000, seed: '7' },
];
const sizes = (process.env.DISCLOSURE_SWEEP_STORES ?? '').split(',').filter(Boolean).map(Number);

describe.runIf(process.env.DISCLOSURE_SWEEP)('the independent attack over twelve published months', () => {
  it.each(PANELS.filter((p) => sizes.length === 0 || sizes.includes(p.stores)))('finds nothing on a generated $stores-store panel (seed $seed)', async ({ stores, seed }) => {
    const input = await dirs.make();
    const out = await dirs.make();
    const t0 = performance.now();
    await generate(input, { stores, seed, from: '2025-11', to: '2026-10' });
    await publishPanel(input, out);
    const t1 = performance.now();
    const found = await attackPublished(input, out, { window: 1 });
    const seconds = (x: number) => `${Math.round(x / 100) / 10} s`;
    console.log(
      `${stores} stores × 12 months: ${found.attacked} hidden figures attacked, ${found.violations.length} violations ` +
        `(publish ${seconds(t1 - t0)}, attack ${seconds(performance.now() - t1)}); tightest store count: ${found.tightest}` +
        found.violations.map((v) => `\n  ${v}`).join(''),
    );
    expect(found.disagreements).toEqual([]);
    expect(found.attacked).toBeGreaterThan(0);
    expect(found.violations).toEqual([]);
  }, 3_600_000);
});
