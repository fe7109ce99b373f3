/**
 * The monthly cadence: each run publishes one month and the series persists between runs;
 * deltas use the prior month; republishing identical input is a no-op that says so and leaves
 * every file (bytes, inode, mtime) and the `current` link as they were.
 */
import { cp, readFile, readlink, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { BASE_URL, generate, publishPanel, readCsv, readDocument, runCli, type CliResult } from '../helpers/cli.js';
import { exists, snapshotTree, tempDirs } from '../helpers/tmp.js';

const shared = tempDirs('storelens-series-shared-');
const dirs = tempDirs('storelens-series-');
let input: string;
/** published with --month 2026-09, then --month 2026-10 */
let base: string;
/** the same panel published with --all */
let allOut: string;
const runs: { september?: CliResult; october?: CliResult; septemberBytes?: string } = {};

const publishMonth = (month: string, out: string, panel = input) =>
  runCli(['publish', '--input', panel, '--month', month, '--out', out, '--runs', `${out}.runs`, '--base-url', BASE_URL, '--cards', 'none', '--json']);
const withoutCompletedAt = (text: string) => text.replace(/\n  "completed_at": "[^"]*",\n/, '\n');
/** A test's own copy of the month-by-month publication. */
async function copyOfBase(): Promise<string> {
  const out = path.join(await dirs.make(), 'out');
  await cp(base, out, { recursive: true, verbatimSymlinks: true });
  return out;
}

beforeAll(async () => {
  input = await shared.make();
  base = path.join(await shared.make(), 'out');
  allOut = await shared.make();
  await generate(input, { stores: 400, seed: '41', from: '2026-08', to: '2026-10' });
  runs.september = await publishMonth('2026-09', base);
  runs.septemberBytes = await readFile(path.join(base, 'api/data/platform-stores/2026-09.json'), 'utf8');
  runs.october = await publishMonth('2026-10', base);
  await publishPanel(input, allOut);
});
afterAll(() => shared.removeAll());
afterEach(() => dirs.removeAll());

describe('publishing month by month', () => {
  it('keeps 2026-09 when 2026-10 is published, with 2026-10 as latest and its deltas against 2026-09', async () => {
    const out = base;
    const [first, second] = [runs.september!, runs.october!];
    expect(first.code, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toMatchObject({ changed: true, releases: ['2026-09'], latest_month: '2026-09' });
    expect(second.code, second.stderr).toBe(0);
    expect(JSON.parse(second.stdout)).toMatchObject({ changed: true, months: ['2026-10'], releases: ['2026-10'], corrections: [], latest_month: '2026-10' });

    for (const slug of SLUGS) {
      expect((await readDocument(out, slug, '2026-09')).month).toBe('2026-09');
      expect((await readDocument(out, slug)).month).toBe('2026-10');
      const rows = parse(await readCsv(out, slug), { columns: true, record_delimiter: '\r\n' }) as Array<Record<string, string>>;
      expect([...new Set(rows.map((r) => r.month))].sort()).toEqual(['2026-09', '2026-10']);
      for (const s of (await readDocument(out, slug, '2026-10')).stats) expect(s.delta?.prior_month, s.id).toBe('2026-09');
    }
    expect(await readFile(path.join(out, 'api/data/platform-stores/2026-09.json'), 'utf8')).toBe(runs.septemberBytes);
    expect(await exists(path.join(out, 'api/data/platform-stores/2026-08.json'))).toBe(false);
  });

  it('publishes month by month exactly the documents a single --all run publishes', async () => {
    for (const slug of SLUGS) {
      for (const m of ['2026-09', '2026-10']) {
        const rel = `api/data/${slug}/${m}.json`;
        const [a, b] = await Promise.all([allOut, base].map((o) => readFile(path.join(o, rel), 'utf8')));
        expect(withoutCompletedAt(b), rel).toBe(withoutCompletedAt(a));
      }
    }
  });

  it('says "no changes" and touches nothing when the same input is published again', async () => {
    const out = await copyOfBase();
    const before = await snapshotTree(out);
    const link = await readlink(path.join(out, '.releases', 'current'));

    const again = await publishMonth('2026-10', out);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ changed: false, release: null, months: [], files_written: [] });
    const plain = await runCli(['publish', '--input', input, '--month', '2026-09', '--out', out, '--runs', `${out}.runs`, '--base-url', BASE_URL, '--cards', 'none']);
    expect(plain.code).toBe(0);
    expect(plain.stderr).toContain('no changes');

    expect(await snapshotTree(out)).toEqual(before);
    expect(await readlink(path.join(out, '.releases', 'current'))).toBe(link);
  });

  it('rebuilds the next month too when a past month is corrected, and keeps the latest month', async () => {
    const out = await copyOfBase();
    const panel = await dirs.make();
    await cp(input, panel, { recursive: true });
    const octoberBefore = await readDocument(out, 'platform-stores', '2026-10');
    const file = path.join(panel, '2026-09.csv');
    const lines = (await readFile(file, 'utf8')).split('\n');
    await writeFile(file, [lines[0], ...lines.slice(41)].join('\n')); // drop 40 September stores

    const fix = await publishMonth('2026-09', out, panel);
    expect(fix.code, fix.stderr).toBe(0);
    expect(JSON.parse(fix.stdout)).toMatchObject({ changed: true, months: ['2026-09', '2026-10'], releases: [], corrections: ['2026-09', '2026-10'], latest_month: '2026-10' });
    expect((await readDocument(out, 'platform-stores')).month).toBe('2026-10');
    const octoberAfter = await readDocument(out, 'platform-stores', '2026-10');
    const active = (d: typeof octoberBefore) => d.stats.find((s) => s.id === 'active_stores:all')!;
    expect(active(octoberAfter).value).toBe(active(octoberBefore).value);
    expect(active(octoberAfter).delta!.value).toBe(active(octoberBefore).delta!.value! + 40);
  });

  it('publishes no delta for a month whose calendar-previous month is missing from the panel', async () => {
    const panel = await dirs.make();
    await cp(input, panel, { recursive: true });
    await rm(path.join(panel, '2026-09.csv'));
    const out = path.join(await dirs.make(), 'out');
    const r = await publishMonth('2026-10', out, panel);
    expect(r.code, r.stderr).toBe(0);
    for (const slug of SLUGS) {
      const stats = (await readDocument(out, slug)).stats;
      expect(stats.filter((s) => s.delta !== null).map((s) => s.id)).toEqual([]);
    }
    const trends = (await readDocument(out, 'platform-trends')).stats;
    expect(trends.filter((s) => !s.suppressed).map((s) => s.id)).toEqual([]);
  });
});
