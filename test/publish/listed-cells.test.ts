/**
 * Every breakdown value seen in any published month is listed in every month (issue 8: a cell
 * missing from the month before told a reader its cohort was 0). A value new in a later month
 * adds its row to every published month: a correction of each, announced in the feed; the same
 * input again changes nothing.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { StatsDocument } from '../../src/stats/types.js';
import { attackReleasesPublished, releaseFolders } from '../helpers/attack-published.js';
import { publishPanel, readDocument } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { stores, writePanel } from '../stats/hand-panel.js';

const dirs = tempDirs('storelens-listed-');
afterAll(() => dirs.removeAll());

const [J, F, M] = ['2026-01', '2026-02', '2026-03'];
const rowOf = (doc: StatsDocument, id: string) => doc.stats.find((s) => s.id === id);

describe('the cells every month lists', () => {
  it('lists a country first seen in a later month in every month, suppressed, and republishes the earlier months as corrections', async () => {
    const first = await dirs.make();
    const later = await dirs.make();
    const out = await dirs.make();
    const all = [J, F, M];
    const base = [...stores('us', 90, 'US', 'apparel', all), ...stores('gb', 60, 'GB', 'home', all), ...stores('se', 20, 'SE', 'beauty', all), ...stores('fi', 20, 'FI', 'garden', all)];
    await writePanel(first, base.map((s) => ({ ...s, months: s.months.filter((m) => m !== M) })));
    await writePanel(later, [...base, ...stores('ae', 2, 'AE', 'toys', [M])]);

    await publishPanel(first, out);
    const firstJ = await readDocument(out, 'platform-stores', J);
    expect(rowOf(firstJ, 'active_stores:country:AE')).toBeUndefined();

    const summary = await publishPanel(later, out, { months: M });
    expect(summary.releases).toEqual([M]);
    expect(summary.corrections).toEqual([J, F]);
    for (const month of [J, F, M]) {
      const doc = await readDocument(out, 'platform-stores', month);
      expect(rowOf(doc, 'active_stores:country:AE'), month).toMatchObject({ suppressed: true, n: null, value: null, numerator: null, null_rate: null });
      expect(rowOf(doc, 'active_stores:category:toys'), month).toMatchObject({ suppressed: true, n: null });
    }
    // The rows January had keep their figures (the empty cells' intervals already reach 30):
    // the correction only adds rows.
    const newJ = await readDocument(out, 'platform-stores', J);
    const figures = (doc: StatsDocument) => doc.stats.map((s) => JSON.stringify([s.id, s.value, s.numerator, s.n, s.null_rate, s.suppressed, s.delta]));
    expect(figures(newJ).filter((f) => !/:AE"|:toys"/.test(f))).toEqual(figures(firstJ));
    expect(rowOf(newJ, 'active_stores:country:US')).toMatchObject({ suppressed: false, n: 90 });
    const feed = await readFile(path.join(out, 'data', 'rss.xml'), 'utf8');
    expect(feed).toContain(`correction:${J}:`);
    expect(feed).toContain(`correction:${F}:`);

    const again = await publishPanel(later, out, { months: M });
    expect(again.changed).toBe(false);
    const everyMonth = await publishPanel(later, out);
    expect(everyMonth.changed).toBe(false);
  }, 120_000);

  it('adds a month bringing a country new to the publication after months that published every country (refused before: the empty cell was pinned)', async () => {
    // January and February publish every country and category (each holds 40 stores or more);
    // March brings AE (12 new stores). Listed in the earlier months, AE is known to be empty
    // there (every other cell is published, as the earlier release showed): its store count is
    // what it could hold at most, and so are its new and returning stores, n and numerators,
    // which are zero because it is. publish refused with exit 1 ("cannot protect new stores by
    // country for AE in 2026-01: … bound it to [0, 0]"), so the monthly run could not go on.
    const first = await dirs.make();
    const later = await dirs.make();
    const out = await dirs.make();
    const all = [J, F, M];
    const base = [...stores('us', 90, 'US', 'apparel', all), ...stores('gb', 60, 'GB', 'home', all), ...stores('de', 45, 'DE', 'beauty', all), ...stores('fr', 40, 'FR', 'garden', all)];
    await writePanel(first, base.map((s) => ({ ...s, months: s.months.filter((m) => m !== M) })));
    await writePanel(later, [...base, ...stores('ae', 12, 'AE', 'toys', [M])]);

    await publishPanel(first, out);
    const firstJ = await readDocument(out, 'platform-stores', J);
    expect(firstJ.stats.filter((s) => s.dimension.startsWith('country:')).every((s) => !s.suppressed || s.metric_key === 'new_stores')).toBe(true);

    const summary = await publishPanel(later, out, { months: M });
    expect(summary.releases).toEqual([M]);
    expect(summary.corrections).toEqual([J, F]);
    const march = await readDocument(out, 'platform-stores', M);
    expect(rowOf(march, 'active_stores:country:AE')).toMatchObject({ suppressed: true, n: null });
    expect(rowOf(march, 'active_stores:country:US')).toMatchObject({ suppressed: false, n: 90 });
    for (const month of [J, F]) expect(rowOf(await readDocument(out, 'platform-stores', month), 'new_stores:country:AE'), month).toMatchObject({ suppressed: true, n: null });

    // Both releases attacked together: no hidden store count of March inside its protection
    // interval. (AE's January and February are [0, 0]: the first release, which had no AE row,
    // said so before AE existed, and nothing a later release hides changes that.)
    const [r1, r2] = await releaseFolders(out);
    const report = await attackReleasesPublished([{ panel: first, folder: r1 }, { panel: later, folder: r2 }], { only: (t) => t.figure === 'stores' && t.month === M });
    expect(report.attacked).toBeGreaterThan(0);
    expect(report.violations).toEqual([]);
  }, 240_000);
});
