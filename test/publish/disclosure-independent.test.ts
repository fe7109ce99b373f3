/**
 * An attacker written apart from the audit (test/helpers/independent-attacker.ts) reads what
 * publish wrote — every month's JSON and every CSV — and, per breakdown, bounds every hidden
 * store count, returning-store count and rare-feature numerator with one linear programme over
 * all months (on the generated panel: per month, with the months either side; twelve months of
 * larger panels: npm run sweep:disclosure). Compared with the truth counted from the panel files: no hidden store count is
 * bounded inside its protection interval (below 30, or within ±30% of the truth) and no other
 * hidden figure is pinned, zero included; with and without assuming stores keep their cell.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { generate, publishPanel } from '../helpers/cli.js';
import { attackPublished, type AttackAllOptions } from '../helpers/attack-published.js';
import { readRelease } from '../helpers/published-reader.js';
import { tempDirs } from '../helpers/tmp.js';
import { stores, writePanel } from '../stats/hand-panel.js';

const dirs = tempDirs('storelens-independent-');
afterAll(() => dirs.removeAll());

const [J, F, M] = ['2026-01', '2026-02', '2026-03'];

async function attackAll(input: string, out: string, options: AttackAllOptions = {}) {
  const found = await attackPublished(input, out, options);
  console.log(`${found.attacked} hidden figures attacked, ${found.violations.length} violations; tightest store count relative to truth: ${found.tightest}`);
  return found;
}

describe('an independent attack on what publish writes', () => {
  it('bounds no hidden figure of a hand-built panel with countries of 29, 30 and 31 stores inside its protection interval', async () => {
    const input = await dirs.make();
    const out = await dirs.make();
    const all = [J, F, M];
    await writePanel(input, [
      ...stores('us', 290, 'US', 'apparel', all),
      ...stores('us-left', 8, 'US', 'apparel', [J, F]),
      ...stores('us-new', 8, 'US', 'apparel', [F, M]),
      ...stores('us-mcp', 2, 'US', 'apparel', all, ['mcp_server']),
      ...stores('gb', 118, 'GB', 'home', all),
      ...stores('gb-new', 2, 'GB', 'home', [F, M]),
      ...stores('ca', 57, 'CA', 'beauty', all),
      ...stores('ca-mcp', 1, 'CA', 'beauty', all, ['mcp_server']),
      ...stores('se', 29, 'SE', 'beauty', all),
      ...stores('se-mcp', 1, 'SE', 'beauty', all, ['mcp_server']),
      ...stores('fi', 30, 'FI', 'beauty', all),
      ...stores('ie', 31, 'IE', 'beauty', all),
      ...stores('dk', 29, 'DK', 'toys', all),
      ...stores('dk-new', 2, 'DK', 'toys', [M]),
      ...stores('no', 29, 'NO', 'toys', all),
      ...stores('no-new', 2, 'NO', 'toys', [M]),
      ...stores('is', 3, 'IS', 'toys', all),
    ]);
    await publishPanel(input, out);
    const found = await attackAll(input, out);
    expect(found.disagreements).toEqual([]);
    expect(found.attacked).toBeGreaterThan(0);
    expect(found.violations).toEqual([]);
  }, 60_000);

  it('pins no hidden cohort of a cell that first appears in a later month (generated 400-store panel, seed 11)', async () => {
    // Country AE first appears in 2026-03, category 'Zürich Uhren' in 2026-02 and '+Plus Size'
    // in 2026-03: every month lists them (empty and suppressed where they hold no stores), so
    // no document's absence says their cohort is 0.
    const input = await dirs.make();
    const out = await dirs.make();
    await generate(input, { stores: 400, seed: '11', from: J, to: M });
    await publishPanel(input, out);
    const release = await readRelease(out);
    for (const month of [J, F]) {
      const ae = release.months.get(month)!.get('active_stores|country:AE');
      expect(ae, `country AE listed in ${month}`).toMatchObject({ suppressed: true, n: null, numerator: null, value: null });
    }
    // Store counts and returning stores (the cohorts at stake), each month with its neighbours;
    // every figure of twelve months: npm run sweep:disclosure.
    const found = await attackAll(input, out, { window: 1, only: (t) => t.figure === 'stores' || t.figure === 'returning' });
    expect(found.disagreements).toEqual([]);
    expect(found.attacked).toBeGreaterThan(0);
    expect(found.violations).toEqual([]);
  }, 120_000);
});
