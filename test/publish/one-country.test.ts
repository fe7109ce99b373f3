/**
 * A panel of one country (a national data provider's) and few stores: its only country cell is
 * the whole panel, so a cohort hidden in that cell is the total's, and protect must hide the
 * total's cohort with it. It used to stop at the last check, "refusing to publish:
 * agentic_checked_share cohort by country (…): the published figures leave 59 for 1 hidden
 * cell(s)", exit 1, with nothing the data team could do; it now publishes, and what it publishes
 * passes the same check (no figure below the floor, no hidden cohort left to subtraction).
 */
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { generate, publishPanel, readDocument } from '../helpers/cli.js';
import { narrowPanel } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';

const [AUG, SEP] = ['2026-08', '2026-09'];
const dirs = tempDirs('storelens-one-country-');
afterAll(() => dirs.removeAll());

describe('a panel of one country', () => {
  it('publishes, hiding the total\'s cohort where the country\'s is hidden', async () => {
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    const out = path.join(root, 'out');
    await generate(input, { stores: 90, seed: 'cards-none', from: AUG, to: SEP });
    await narrowPanel(input, ['US']);
    const summary = await publishPanel(input, out);
    expect(summary.releases).toEqual([AUG, SEP]);
    for (const slug of SLUGS) {
      const stats = new Map((await readDocument(out, slug, SEP)).stats.map((s) => [s.id, s]));
      for (const s of stats.values()) {
        if (!s.dimension.startsWith('country:')) continue;
        // the one country is the whole panel: where its cohort is hidden, so is the total's
        const total = stats.get(`${s.metric_key}:all`)!;
        if (s.delta?.suppressed) expect(total.delta?.cohort_n ?? null, s.id).toBeNull();
        if (!s.suppressed) expect(s.n!, s.id).toBeGreaterThanOrEqual(30);
      }
    }
  }, 120_000);
});
