/**
 * Month aggregates and the last month's store state kept between runs (publish/aggregate-cache.ts,
 * publish/state-cache.ts): an added month reads only its own panel file, and publishes what a
 * fresh publish of the whole panel does; a damaged cache entry is computed again, never trusted.
 *
 * One panel of four months is generated for the file, published whole once (what a fresh publish
 * writes) and its first three months published once; each test works on its own copies of them.
 */
import { cp, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { dropRows } from '../helpers/published.js';
import { copyTree, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-aggregate-cache-');
afterAll(() => dirs.removeAll());

const MONTHS = ['2026-07', '2026-08', '2026-09', '2026-10'];

/** the generated panel, its whole publication and what it holds, and its first three months published */
const shared = { full: '', wholeOut: '', wholeDocuments: new Map<string, string>(), grown: '', grownOut: '' };

beforeAll(async () => {
  shared.full = await dirs.make();
  await generate(shared.full, { stores: 400, seed: 'agg-cache', from: MONTHS[0], to: MONTHS[3] });
  shared.wholeOut = path.join(await dirs.make(), 'out');
  shared.wholeDocuments = await publishedDocuments(shared.full, shared.wholeOut);
  shared.grown = await dirs.make();
  for (const m of MONTHS.slice(0, 3)) await cp(path.join(shared.full, `${m}.csv`), path.join(shared.grown, `${m}.csv`));
  shared.grownOut = path.join(await dirs.make(), 'out');
  await publishPanel(shared.grown, shared.grownOut);
});

/** A test's own copy of a shared folder. */
async function own(dir: string): Promise<string> {
  const copy = path.join(await dirs.make(), path.basename(dir));
  await copyTree(dir, copy);
  return copy;
}

/** Every month document of a publication, by `slug/month`. */
async function documents(out: string): Promise<Map<string, string>> {
  const docs = new Map<string, string>();
  for (const slug of SLUGS) for (const m of MONTHS) docs.set(`${slug}/${m}`, await readFile(path.join(out, 'api/data', slug, `${m}.json`), 'utf8'));
  return docs;
}

/** The documents a fresh publish of `input` (into `fresh`, a new folder unless given) writes. */
async function publishedDocuments(input: string, fresh?: string): Promise<Map<string, string>> {
  fresh ??= path.join(await dirs.make(), 'out');
  await publishPanel(input, fresh);
  return documents(fresh);
}

/** The panel files a publish read, from its progress lines. */
async function filesRead(run: (onProgress: (line: string) => void) => Promise<unknown>): Promise<string[]> {
  const lines: string[] = [];
  await run((line) => lines.push(line));
  return lines.filter((l) => l.startsWith('reading ')).map((l) => l.slice('reading '.length));
}

describe('month aggregates kept between runs', () => {
  it('aggregates an added month from its own file only, and publishes what a fresh publish does', async () => {
    // The first three months published (in beforeAll), then the fourth added.
    const grown = await own(shared.grown);
    const out = await own(shared.grownOut);
    expect((await readdir(path.join(out, '.cache/aggregates'))).length).toBe(3);
    expect((await readdir(path.join(out, '.cache/state'))).length).toBe(1);

    await cp(path.join(shared.full, `${MONTHS[3]}.csv`), path.join(grown, `${MONTHS[3]}.csv`));
    // Without the caches it would also aggregate 2026-09 (the audit and the deltas need it),
    // reading 2026-08 too; without the kept state of 2026-09 it would read 2026-09's file.
    expect(await filesRead((onProgress) => publishPanel(grown, out, { months: MONTHS[3], onProgress }))).toEqual(['2026-10.csv']);
    // The state kept is now 2026-10's, for the month after it.
    expect((await readdir(path.join(out, '.cache/state'))).length).toBe(1);

    expect(await documents(out)).toEqual(shared.wholeDocuments);
  });

  it("reads the previous month's file when its kept state is damaged", async () => {
    const grown = await own(shared.grown);
    const out = await own(shared.grownOut);
    const state = path.join(out, '.cache/state');
    for (const name of await readdir(state)) await writeFile(path.join(state, name), 'not parquet');
    await cp(path.join(shared.full, `${MONTHS[3]}.csv`), path.join(grown, `${MONTHS[3]}.csv`));
    expect(await filesRead((onProgress) => publishPanel(grown, out, { months: MONTHS[3], onProgress }))).toEqual(['2026-09.csv', '2026-10.csv']);
    expect(await documents(out)).toEqual(shared.wholeDocuments);
  });

  it('aggregates a month again when its cached aggregates are damaged, and when the previous month was corrected', async () => {
    // The whole panel published (in beforeAll).
    const input = await own(shared.full);
    const out = await own(shared.wholeOut);
    const cache = path.join(out, '.cache/aggregates');
    for (const name of await readdir(cache)) await writeFile(path.join(cache, name), 'not gzip');
    await dropRows(path.join(input, `${MONTHS[3]}.csv`), 3);
    // 2026-09's entry is damaged: aggregated again, from its file and 2026-08's.
    expect(await filesRead((onProgress) => publishPanel(input, out, { months: MONTHS[3], onProgress }))).toEqual(['2026-08.csv', '2026-09.csv', '2026-10.csv']);

    // A correction of 2026-08: its aggregates and 2026-09's (matched against it) are computed
    // again; 2026-07's entry is still damaged. 2026-10's documents are rebuilt too (their deltas
    // reach back), but its aggregates, of 2026-09 and 2026-10 only, are reused.
    await dropRows(path.join(input, `${MONTHS[1]}.csv`), 2);
    expect(await filesRead((onProgress) => publishPanel(input, out, { months: MONTHS[1], onProgress }))).toEqual(['2026-07.csv', '2026-08.csv', '2026-09.csv']);
    expect(await documents(out)).toEqual(await publishedDocuments(input));
  });

  it("keeps a month's fingerprint with its aggregates, so a correction of a month first built from them still warns", async () => {
    const input = await own(shared.grown);
    const out = path.join(await dirs.make(), 'out');
    // 2026-08 is aggregated as 2026-09's previous month, then built from the kept aggregates
    // (only 2026-07, its own previous month, is aggregated then).
    await publishPanel(input, out, { months: MONTHS[2] });
    expect(await filesRead((onProgress) => publishPanel(input, out, { months: MONTHS[1], onProgress }))).toEqual(['2026-07.csv']);
    await dropRows(path.join(input, `${MONTHS[1]}.csv`), 3);
    const warnings: string[] = [];
    await publishPanel(input, out, { months: MONTHS[1], onWarning: (w) => warnings.push(w) });
    // (beside the warning that --cards none leaves the latest month's stats without cards)
    expect(warnings.filter((w) => w.startsWith('the correction'))).toEqual([expect.stringContaining('the correction of 2026-08 changes the records of about 3 store(s)')]);
  });
});
