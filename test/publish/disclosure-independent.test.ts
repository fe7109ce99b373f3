/**
 * An attacker written apart from the audit (test/helpers/independent-attacker.ts) reads what
 * publish wrote — every month's JSON and every CSV — and, per breakdown, bounds every hidden
 * store count, returning-store count and rare-feature numerator with one linear programme over
 * all months. Compared with the truth counted from the panel files: no hidden store count is
 * bounded inside its protection interval (below 30, or within ±30% of the truth) and no other
 * hidden figure is pinned, zero included; with and without assuming stores keep their cell.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { publishPanel } from '../helpers/cli.js';
import { attackRelease, judge, type Dim, type Target } from '../helpers/independent-attacker.js';
import { truthOf } from '../helpers/panel-truth.js';
import { readRelease } from '../helpers/published-reader.js';
import { tempDirs } from '../helpers/tmp.js';
import { readPanel } from '../panel/panel-rows.js';
import { stores, writePanel } from '../stats/hand-panel.js';

const dirs = tempDirs('storelens-independent-');
afterAll(() => dirs.removeAll());

const [J, F, M] = ['2026-01', '2026-02', '2026-03'];
/** Store counts, returning stores, and the numerators and n of the rare features (where zeros hide). */
const FIGURES = (t: Target) => t.figure === 'stores' || t.figure === 'returning' || /mcp_server|agent_ready|agent_checkout|plan_upgrade/.test(t.figure);

async function attackAll(input: string, out: string, only = FIGURES): Promise<{ attacked: number; violations: string[]; disagreements: string[] }> {
  const release = await readRelease(out);
  const panel = readPanel(input);
  const violations: string[] = [];
  let attacked = 0;
  let tightest = '';
  let tightestWidth = Infinity;
  for (const dim of ['country', 'category', 'plan'] as Dim[]) {
    const truth = truthOf(panel, dim);
    for (const stable of dim === 'plan' ? [false] : [true, false]) {
      const bounds = await attackRelease(release, dim, { stable, only });
      attacked += bounds.length;
      for (const b of bounds) {
        const t = truth(b);
        const shownStores = release.months.get(b.month)?.get(`active_stores|${dim}:${b.cell}`);
        const verdict = judge(b, t, shownStores && !shownStores.suppressed ? shownStores.n : null);
        if (verdict) violations.push(`${dim}${stable ? ' (stable cells)' : ''} ${verdict.kind}: ${verdict.text}`);
        if (b.figure === 'stores' && t) {
          const width = (b.hi - b.lo) / t;
          if (width < tightestWidth) [tightestWidth, tightest] = [width, `${dim} ${b.month} ${b.cell}: true ${t}, [${+b.lo.toFixed(2)}, ${+b.hi.toFixed(2)}]`];
        }
      }
    }
  }
  console.log(`${attacked} hidden figures attacked, ${violations.length} violations; tightest store count relative to truth: ${tightest}`);
  return { attacked, violations, disagreements: release.disagreements };
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

  // On a generated panel (400 stores, seed 11, 2026-01..03; store counts and cohorts of country
  // and category, 250 figures, 41 s) an attacker assuming stores keep their cell finds only this:
  // a cell that first appears in a month (country AE 2026-03, category 'Zürich Uhren' 2026-02,
  // '+Plus Size' 2026-03) has no returning stores — it is absent from the month before's
  // documents, so its hidden cohort is 0. Publishing every cell ever seen in every month would
  // close it. (The '+Plus Size' 2026-01 store count bounded to [1, 18] is no longer found since
  // trend figures are audited as cohort bounds.) Too slow for the suite.
  it.todo('pins no hidden cohort of a cell that first appears that month (generated 400-store panel, seed 11)');
});
