/**
 * Bad input stops `storelens publish` with one message naming file, row and column, exit code 2,
 * and writes nothing: a previously published folder stays byte for byte (inodes, mtimes, links)
 * as it was, and an --out that did not exist still does not.
 */
import { cp, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BASE_URL, generate, publishPanel, runCli } from '../helpers/cli.js';
import { expectRefused } from '../helpers/refusal.js';
import { exists, snapshotTree, tempDirs } from '../helpers/tmp.js';
import { PANEL_COLUMNS } from '../../src/core/panel-contract.js';

const shared = tempDirs('storelens-bad-shared-');
const dirs = tempDirs('storelens-bad-');
let goodPanel: string;
let published: string;

beforeAll(async () => {
  goodPanel = await shared.make();
  published = await shared.make();
  await generate(goodPanel, { stores: 300, seed: '51', from: '2026-08', to: '2026-09' });
  await publishPanel(goodPanel, published);
});
afterAll(() => shared.removeAll());
afterEach(() => dirs.removeAll());

/** Every column of the input contract: the eight the rows below fill first, then the rest, left empty. */
const FILLED = ['store_id', 'domain', 'country', 'category', 'plan', 'created_month', 'product_count', 'ads_meta'];
const REST = PANEL_COLUMNS.map((c) => c.name).filter((c) => !FILLED.includes(c));
const HEADER = [...FILLED, ...REST].join(',');
/** A row of the eight first cells, the others empty. */
const full = (row: string) => row + ','.repeat(REST.length);
const GOOD_ROWS = ['s1,s1.example,US,apparel,basic,2025-01,10,true', 's2,s2.example,GB,beauty,grow,2025-02,20,false'];
/** NDJSON records of these store ids, every other column null. */
const ndjson = (...ids: string[]) => ids.map((id) => JSON.stringify(Object.fromEntries(PANEL_COLUMNS.map((c) => [c.name, c.name === 'store_id' ? id : null])))).join('\n') + '\n';

/** A panel folder holding the given files (name → content). */
async function panelOf(files: Record<string, string>): Promise<string> {
  const dir = await dirs.make();
  for (const [name, text] of Object.entries(files)) await writeFile(path.join(dir, name), text);
  return dir;
}
const csv = (...rows: string[]) => [HEADER, ...rows.map(full)].join('\r\n') + '\r\n';

/** A refused publish over a copy of the published folder and into an absent one (helpers/refusal.ts). */
const expectRejected = async (args: string[], message: RegExp): Promise<void> => void (await expectRefused(published, dirs, args, message));

describe('publish rejects a bad panel folder', () => {
  it('names a missing input folder', async () => {
    const missing = path.join(await dirs.make(), 'no-such-panel');
    await expectRejected(['--input', missing, '--all'], /no-such-panel: no such folder/);
  });

  it('names an input that is a file, not a folder', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS) });
    await expectRejected(['--input', path.join(dir, '2026-01.csv'), '--all'], /--input \S*2026-01\.csv: is a file, not a folder/);
  });

  it('names a folder with no panel files', async () => {
    const dir = await panelOf({ 'README.txt': 'not a panel', 'notes.md': '#' });
    await expectRejected(['--input', dir, '--all'], /: no panel files \(expected YYYY-MM\.csv/);
  });

  it.each(['2026-13.csv', '2026-1.csv', '2026-00.parquet', '202601.ndjson'])('names a file whose name is not a month: %s', async (name) => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS), [name]: csv(...GOOD_ROWS) });
    await expectRejected(['--input', dir, '--all'], new RegExp(`${name.replace('.', '\\.')}: file name is not a month`));
  });

  it('names two files for one month', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS), '2026-01.ndjson': '{"store_id":"s1"}\n' });
    await expectRejected(['--input', dir, '--all'], /2026-01\.ndjson: month 2026-01 is also in 2026-01\.csv; keep one file per month/);
  });

  it('names a folder named like a month file', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS) });
    await mkdir(path.join(dir, '2026-02.csv'));
    await expectRejected(['--input', dir, '--all'], /2026-02\.csv: not a file \(a month of the panel is one YYYY-MM\.csv, \.parquet or \.ndjson file\)/);
  });

  it('names a file without a store_id column', async () => {
    const dir = await panelOf({ '2026-01.csv': 'id,country\r\ns1,US\r\n' });
    await expectRejected(['--input', dir, '--all'], /2026-01\.csv: row 1, column store_id: the required column store_id is missing/);
  });

  it('names the row of the second occurrence of a duplicate store_id', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS, 's3,,,,,,,', 's2,again.example,US,toys,plus,2025-03,5,true') });
    await expectRejected(['--input', dir, '--all'], /2026-01\.csv: row 5, column store_id: duplicate store_id "s2" \(first at row 3\)/);
  });

  it('counts NDJSON rows from 1 when naming a duplicate store_id', async () => {
    const dir = await panelOf({ '2026-01.ndjson': ndjson('a', 'b', 'a') });
    await expectRejected(['--input', dir, '--all'], /2026-01\.ndjson: row 3, column store_id: duplicate store_id "a" \(first at row 1\)/);
  });

  it('names an empty store_id', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS, ',x.example,US,toys,plus,2025-03,5,true') });
    await expectRejected(['--input', dir, '--all'], /2026-01\.csv: row 4, column store_id: must not be empty or only spaces/);
  });

  it.each([
    ['product_count', 's3,x,US,toys,plus,2025-03,abc,true', /row 4, column product_count: expected an integer, got "abc"/],
    ['ads_meta', 's3,x,US,toys,plus,2025-03,5,yes', /row 4, column ads_meta: expected true or false, got "yes"/],
    ['country', 's3,x,USA,toys,plus,2025-03,5,true', /row 4, column country: expected a two-letter ISO 3166-1 country code, got "USA"/],
    ['created_month', 's3,x,US,toys,plus,2026/01,5,true', /row 4, column created_month: expected a month YYYY-MM, got "2026\/01"/],
    ['created_month', 's3,x,US,toys,plus,2026-13,5,true', /row 4, column created_month: expected a month YYYY-MM, got "2026-13"/],
    ['product_count', 's3,x,US,toys,plus,2025-03,1.5,true', /row 4, column product_count: expected an integer, got "1\.5"/],
  ])('names an unparseable %s value: %s', async (_column, row, message) => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS), '2026-02.csv': csv(...GOOD_ROWS, row) });
    await expectRejected(['--input', dir, '--all'], new RegExp(`2026-02\\.csv: ${message.source}`));
  });

  it('names the row of a CSV record with an extra cell', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(GOOD_ROWS[0], GOOD_ROWS[1], 's3,,,,,,,').replace(`${full(GOOD_ROWS[1])}\r\n`, `${full(GOOD_ROWS[1])},extra\r\n`) });
    await expectRejected(['--input', dir, '--all'], /2026-01\.csv: row 3: 20 fields where the header has 19 \(a value holding a comma is quoted whole: "Lee, Ann"\)$/m);
  });

  it('names the row of a CSV record with an unterminated quote', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(GOOD_ROWS[0], `"${GOOD_ROWS[1]}`, 's3,,,,,,,') });
    await expectRejected(['--input', dir, '--all'], /2026-01\.csv: row 3: a quoted value is never closed \(unterminated quote\)/);
  });

  it('names an unparseable value in the month before the one asked for (its deltas need it)', async () => {
    const dir = await panelOf({ '2026-01.csv': csv(...GOOD_ROWS, 's9,x,US,toys,plus,2025-03,many,true'), '2026-02.csv': csv(...GOOD_ROWS) });
    await expectRejected(['--input', dir, '--month', '2026-02'], /2026-01\.csv: row 4, column product_count: expected an integer, got "many"/);
  });
});

describe('publish rejects a panel that lost a published month', () => {
  it('names the month whose file has gone, and changes nothing', async () => {
    const tmp = await dirs.make();
    const out = path.join(tmp, 'published');
    await cp(published, out, { recursive: true, verbatimSymlinks: true });
    const panel = path.join(tmp, 'panel');
    await cp(goodPanel, panel, { recursive: true });
    await rm(path.join(panel, '2026-08.csv'));
    const before = await snapshotTree(out);
    for (const months of [['--all'], ['--month', '2026-09']]) {
      const r = await runCli(['publish', '--input', panel, ...months, '--out', out, '--runs', `${out}.runs`, '--cards', 'none']);
      expect(r.code, r.stderr).toBe(2);
      expect(r.stderr).toMatch(/2026-08 is published in .* but no longer in the panel; put the file back, or publish the panel as it is now into a new output folder/);
      expect(r.stdout).toBe('');
    }
    expect(await snapshotTree(out)).toEqual(before);
    expect(await exists(`${out}.runs`)).toBe(false);
  });
});

describe('publish rejects bad usage', () => {
  it('names a --month that is not in the panel', async () => {
    await expectRejected(['--input', goodPanel, '--month', '2026-07'], /--month 2026-07 is not in the panel .* \(it has 2026-08 to 2026-09\)/);
  });

  it.each(['2026-13', '2026-1', 'October'])('explains a malformed --month %s', async (month) => {
    await expectRejected(['--input', goodPanel, '--month', month], new RegExp(`'--month <YYYY-MM>' argument '${month}' is invalid. "${month}" is not a month \\(YYYY-MM\\)`));
  });

  it('asks for exactly one of --month and --all', async () => {
    await expectRejected(['--input', goodPanel], /publish needs exactly one of --month YYYY-MM or --all/);
    await expectRejected(['--input', goodPanel, '--all', '--month', '2026-08'], /publish needs exactly one of --month YYYY-MM or --all/);
  });

  it.each(['ftp://stats.example.com', 'stats.example.com', 'https://stats.example.com/?utm=1', 'https://stats.example.com/#top', 'https://stats.example.com/"><script>alert(1)</script>'])(
    'refuses the base URL %s',
    async (url) => {
      await expectRejected(['--input', goodPanel, '--all', '--base-url', url], /--base-url .* is not an http\(s\) URL without query or fragment/);
    },
  );

  it('publishes a panel that leaves out the optional domain column, saying so on stderr (unknown cells: a whole dimension unknown)', async () => {
    const columns = PANEL_COLUMNS.map((c) => c.name).filter((c) => c !== 'domain');
    const rows = Array.from({ length: 100 }, (_, i) => columns.map((c) => (c === 'store_id' ? `s${i}` : c === 'plan' ? (i % 3 ? 'basic' : 'grow') : '')).join(','));
    const dir = await panelOf({ '2026-01.csv': [columns.join(','), ...rows].join('\r\n') + '\r\n' });
    const out = path.join(await dirs.make(), 'out');
    const r = await runCli(['publish', '--input', dir, '--all', '--out', out, '--runs', `${out}.runs`, '--cards', 'none', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(/^warning: no domain column \(optional: unknown for those stores\) in 2026-01\.csv$/m);
    const doc = JSON.parse(await readFile(path.join(out, 'api/data/platform-stores.json'), 'utf8'));
    const active = doc.stats.filter((s: { metric_key: string }) => s.metric_key === 'active_stores');
    expect(active.map((s: { dimension: string; n: number | null }) => `${s.dimension}=${s.n}`)).toEqual(['all=100', 'plan:basic=66', 'plan:grow=34']);
  });

  it('accepts the same panel and base URL afterwards (the copies above were a real publication)', async () => {
    const out = path.join(await dirs.make(), 'published');
    await cp(published, out, { recursive: true, verbatimSymlinks: true });
    const r = await runCli(['publish', '--input', goodPanel, '--all', '--out', out, '--runs', `${out}.runs`, '--base-url', BASE_URL, '--cards', 'none', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: false });
  });
});
