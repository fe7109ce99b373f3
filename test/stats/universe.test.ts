/**
 * Every breakdown value seen in any month is listed in every month (stats/universe.ts): an empty
 * cell is a suppressed row like any small one, and the audit holds it to the protection rule
 * (its interval must reach 30 stores), so a month where it alone is hidden suppresses more.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { aggregateMonths, registerMacros } from '../../src/panel/aggregate.js';
import { openDuck } from '../../src/panel/duck.js';
import { listPanel, loadPanel } from '../../src/panel/read.js';
import type { MonthAgg } from '../../src/stats/aggregate.js';
import { audit, publishedOf } from '../../src/stats/audit.js';
import { buildMonth } from '../../src/stats/build.js';
import { protectMonth } from '../../src/stats/disclosure.js';
import { loadIntervalSolver, type IntervalSolver } from '../../src/stats/lp.js';
import { unionOf, valuesOf, withUniverse } from '../../src/stats/universe.js';
import { tempDirs } from '../helpers/tmp.js';
import { stores, writePanel } from './hand-panel.js';

const dirs = tempDirs('storelens-universe-');
let solver: IntervalSolver;
beforeAll(async () => {
  solver = await loadIntervalSolver();
});
afterAll(() => dirs.removeAll());

const [J, F] = ['2026-01', '2026-02'];
const BASE = 'https://stats.example.com';

async function aggregate(dir: string): Promise<MonthAgg[]> {
  const duck = await openDuck();
  try {
    const files = await listPanel(dir);
    await loadPanel(duck, files, () => {});
    await registerMacros(duck);
    return [...(await aggregateMonths(duck, files.map((f) => f.month))).values()].sort((a, b) => (a.month < b.month ? -1 : 1));
  } finally {
    duck.close();
  }
}

describe('the cells every month lists', () => {
  it('lists a value of any month in every month as an empty, suppressed cell, and builds it as a row without figures', async () => {
    const dir = await dirs.make();
    await writePanel(dir, [...stores('us', 90, 'US', 'apparel', [J, F]), ...stores('gb', 60, 'GB', 'home', [J, F]), ...stores('ae', 2, 'AE', 'toys', [F])]);
    const [jan, feb] = await aggregate(dir);
    const universe = unionOf([valuesOf(jan), valuesOf(feb)]);
    expect(universe).toMatchObject({ country: ['AE', 'GB', 'US'], category: ['apparel', 'home', 'toys'] });
    const listed = withUniverse(jan, universe);
    expect(listed.groups.get('country')!.map((c) => [c.value, c.stores])).toEqual([['AE', 0], ['GB', 60], ['US', 90]]);
    const ae = publishedOf(buildMonth(listed, undefined, BASE)).get('active_stores:country:AE')!;
    expect(ae).toMatchObject({ suppressed: true, value: null, n: null, numerator: null, null_rate: null });
  });

  it('suppresses more when an empty cell would be the only hidden one, so its interval reaches 30 stores', async () => {
    const dir = await dirs.make();
    await writePanel(dir, [
      ...stores('us', 90, 'US', 'apparel', [J, F]),
      ...stores('gb', 60, 'GB', 'home', [J, F]),
      ...stores('de', 40, 'DE', 'beauty', [J, F]),
      ...stores('ae', 2, 'AE', 'toys', [F]),
    ]);
    const [jan, feb] = await aggregate(dir);
    const listed = withUniverse(jan, unionOf([valuesOf(jan), valuesOf(feb)]));
    // Built by the suppression rules alone, every other category is published: toys is pinned at 0.
    const plain = buildMonth(listed, undefined, BASE);
    const findings = audit([{ agg: listed, built: plain }], solver, { exact: true });
    expect(findings.find((f) => f.dim === 'category' && f.value === 'toys' && f.figure === 'stores')).toMatchObject({ interval: [0, 0], truth: 0 });
    // Under the protection rule, the smallest category is hidden with it.
    const { built } = protectMonth(listed, undefined, BASE, solver);
    const stats = publishedOf(built);
    expect(stats.get('active_stores:category:beauty')!.suppressed).toBe(true);
    expect(stats.get('active_stores:category:apparel')).toMatchObject({ suppressed: false, n: 90 });
    expect(audit([{ agg: listed, built }], solver, { exact: true })).toEqual([]);
  });
});
