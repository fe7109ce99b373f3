/**
 * The acceptance sweep of issue 8: the independent attacker (test/helpers/independent-attacker.ts,
 * nothing of src/stats) against generated panels of 400, 1,000 and 3,000 stores and a hand-built
 * panel with countries of 29, 30 and 31 stores, over twelve months, each month attacked with the
 * programme of the months either side of it. Prints how many hidden figures were attacked and
 * the violations found (expected: none).
 *
 * Minutes of solving, so it runs only when asked: `npm run sweep:disclosure`
 * (DISCLOSURE_SWEEP=1; DISCLOSURE_SWEEP_STORES=400,1000 picks generated panels only).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { attackPublished } from '../helpers/attack-published.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { stores, writePanel, type HandStore } from '../stats/hand-panel.js';

const dirs = tempDirs('storelens-sweep-');
afterAll(() => dirs.removeAll());

const PANELS = [
  { stores: 400, seed: '11' },
  { stores: 1000, seed: '3' },
  { stores: 3000, seed: '7' },
];
const sizes = (process.env.DISCLOSURE_SWEEP_STORES ?? '').split(',').filter(Boolean).map(Number);

const MONTHS = ['2025-11', '2025-12', '2026-01', '2026-02', '2026-03', '2026-04', '2026-05', '2026-06', '2026-07', '2026-08', '2026-09', '2026-10'];

/** Countries of 29, 30 and 31 stores over twelve months, with stores joining and leaving. */
function handBuilt(): HandStore[] {
  const from = (i: number) => MONTHS.slice(i);
  const until = (i: number) => MONTHS.slice(0, i);
  return [
    ...stores('us', 290, 'US', 'apparel', MONTHS),
    ...stores('us-left', 8, 'US', 'apparel', until(5)),
    ...stores('us-new', 8, 'US', 'apparel', from(3)),
    ...stores('us-mcp', 2, 'US', 'apparel', MONTHS, ['mcp_server']),
    ...stores('gb', 118, 'GB', 'home', MONTHS),
    ...stores('gb-new', 2, 'GB', 'home', from(6)),
    ...stores('ca', 57, 'CA', 'beauty', MONTHS),
    ...stores('ca-mcp', 1, 'CA', 'beauty', from(2), ['mcp_server']),
    ...stores('se', 29, 'SE', 'beauty', MONTHS),
    ...stores('se-mcp', 1, 'SE', 'beauty', MONTHS, ['mcp_server']),
    ...stores('fi', 30, 'FI', 'beauty', MONTHS),
    ...stores('ie', 31, 'IE', 'beauty', until(9)),
    ...stores('dk', 29, 'DK', 'toys', MONTHS),
    ...stores('dk-new', 2, 'DK', 'toys', from(8)),
    ...stores('no', 29, 'NO', 'toys', MONTHS),
    ...stores('no-new', 1, 'NO', 'toys', from(10)),
    ...stores('is', 3, 'IS', 'toys', MONTHS),
    ...stores('ae', 2, 'AE', 'garden', from(7)),
  ];
}

async function sweep(name: string, write: (dir: string) => Promise<unknown>): Promise<void> {
  const input = await dirs.make();
  const out = await dirs.make();
  const t0 = performance.now();
  await write(input);
  await publishPanel(input, out);
  const t1 = performance.now();
  const found = await attackPublished(input, out, { window: 1 });
  const seconds = (x: number) => `${Math.round(x / 100) / 10} s`;
  console.log(
    `${name} × 12 months: ${found.attacked} hidden figures attacked, ${found.violations.length} violations ` +
      `(publish ${seconds(t1 - t0)}, attack ${seconds(performance.now() - t1)}); tightest store count: ${found.tightest}` +
      found.violations.map((v) => `\n  ${v}`).join(''),
  );
  expect(found.disagreements).toEqual([]);
  expect(found.attacked).toBeGreaterThan(0);
  expect(found.violations).toEqual([]);
}

describe.runIf(process.env.DISCLOSURE_SWEEP)('the independent attack over twelve published months', () => {
  it.runIf(sizes.length === 0)('finds nothing on a hand-built panel with countries of 29, 30 and 31 stores', () => sweep('hand-built 29/30/31', (dir) => writePanel(dir, handBuilt())), 3_600_000);


  it.each(PANELS.filter((p) => sizes.length === 0 || sizes.includes(p.stores)))('finds nothing on a generated $stores-store panel (seed $seed)', ({ stores: size, seed }) =>
    sweep(`${size} stores`, (dir) => generate(dir, { stores: size, seed, from: MONTHS[0], to: MONTHS[MONTHS.length - 1] })), 3_600_000);
});
