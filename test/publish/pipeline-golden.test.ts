/**
 * Golden JSON and CSV for the committed panel (fixtures/panel: 2026-08..2026-10, 2,000 stores,
 * seed 7), published with a fixed clock and base URL. Reviewed by eye once; a change shows up
 * as a `.changed` file beside the golden.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { BASE_URL, FIXED_NOW, publishPanel } from '../helpers/cli.js';
import { expectGolden } from '../helpers/golden.js';
import { tempDirs } from '../helpers/tmp.js';

const FIXTURE = path.resolve('fixtures/panel');
const dirs = tempDirs('storelens-golden-');
let out: string;

beforeAll(async () => {
  out = await dirs.make();
  const summary = await publishPanel(FIXTURE, out);
  expect(summary.months).toEqual(['2026-08', '2026-09', '2026-10']);
});
afterAll(() => dirs.removeAll());

const read = (rel: string) => readFile(path.join(out, rel), 'utf8');

describe('publishing the fixture panel', () => {
  it.each(SLUGS)('writes the golden latest document of %s', async (slug) => {
    const text = await read(`api/data/${slug}.json`);
    expectGolden(`fixtures/panel/api/data/${slug}.json`, text);
  });

  it.each(SLUGS)('writes the golden CSV series of %s', async (slug) => {
    const text = await read(`api/data/${slug}.csv`);
    expectGolden(`fixtures/panel/api/data/${slug}.csv`, text);
  });

  it('writes the golden monthly document of platform-stores for 2026-09', async () => {
    expectGolden('fixtures/panel/api/data/platform-stores/2026-09.json', await read('api/data/platform-stores/2026-09.json'));
  });

  it('serves the latest month as the latest document, stamped with the run clock and base URL', async () => {
    for (const slug of SLUGS) {
      const latest = await read(`api/data/${slug}.json`);
      expect(latest).toBe(await read(`api/data/${slug}/2026-10.json`));
      const doc = JSON.parse(latest);
      expect(Object.keys(doc)).toEqual(['schema_version', 'slug', 'month', 'completed_at', 'license', 'stats']);
      expect(doc).toMatchObject({ schema_version: 1, slug, month: '2026-10', completed_at: FIXED_NOW.toISOString() });
      for (const s of doc.stats) expect(s.canonical_url).toBe(`${BASE_URL}/data/${slug}#${s.anchor}`);
    }
  });
});
