/**
 * Differencing releases (issue 8, attack 5): re-publishing a month with one store removed
 * changes the total figures by exactly that store's values, so whoever kept the earlier release
 * learns them. publish cannot prevent that, but says so: a correction that changes fewer than 30
 * stores' records in a month prints a warning on stderr (the data team decides; CI logs keep it).
 */
import { cp, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Stat, StatsDocument } from '../../src/stats/types.js';
import { BASE_URL, generate, runCli } from '../helpers/cli.js';
import { dropRows } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-correction-warning-');
let input: string;
let out: string;
const publishMonth = (panel: string, month: string, dir = out) =>
  runCli(['publish', '--input', panel, '--month', month, '--out', dir, '--runs', `${dir}.runs`, '--base-url', BASE_URL, '--cards', 'none']);
const total = async (dir: string, id: string): Promise<Stat> => {
  const doc = JSON.parse(await readFile(path.join(dir, 'api/data/platform-stores/2026-09.json'), 'utf8')) as StatsDocument;
  return doc.stats.find((s) => s.id === id)!;
};

beforeAll(async () => {
  const root = await dirs.make();
  input = path.join(root, 'panel');
  out = path.join(root, 'out');
  await generate(input, { stores: 600, seed: '5', from: '2026-08', to: '2026-09' });
  for (const m of ['2026-08', '2026-09']) expect((await publishMonth(input, m)).code).toBe(0);
});
afterAll(() => dirs.removeAll());

describe('correcting a month', () => {
  it('warns when fewer than 30 stores change, as the two releases then differ by those stores only', async () => {
    const before = await total(out, 'active_stores:all');
    const corrected = path.join(await dirs.make(), 'panel');
    await cp(input, corrected, { recursive: true });
    await dropRows(path.join(corrected, '2026-09.csv'), 1);
    const run = await publishMonth(corrected, '2026-09');
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('warning: the correction of 2026-09 changes the records of about 1 store(s), fewer than 30');
    // What the warning is about: the two releases' totals differ by exactly that store.
    expect((await total(out, 'active_stores:all')).n).toBe(before.n! - 1);
  });

  it('does not warn when the correction changes 30 stores or more, nor when a month is first published', async () => {
    const copy = path.join(await dirs.make(), 'out');
    await cp(out, copy, { recursive: true, verbatimSymlinks: true });
    const corrected = path.join(await dirs.make(), 'panel');
    await cp(input, corrected, { recursive: true });
    await dropRows(path.join(corrected, '2026-09.csv'), 40);
    const run = await publishMonth(corrected, '2026-09', copy);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toMatch(/^warning: the correction/m);
    const fresh = path.join(await dirs.make(), 'out');
    expect((await publishMonth(input, '2026-08', fresh)).stderr).not.toMatch(/^warning: the correction/m);
  });
});
