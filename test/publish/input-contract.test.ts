/**
 * The monthly input contract, enforced (docs/cli.md "Input contract"): a clean generated panel
 * is published, then the same panel with one defect at a time is published into the same output
 * folder. Each defect is refused with exit 2 and a message saying in words what is wrong and
 * where, the output folder byte for byte unchanged; `publish --check` finds the same, writing
 * nothing. What the contract accepts (BOM, CRLF, reordered and extra columns, blank lines)
 * publishes the clean panel's figures.
 *
 * Every defect is in the latest month (2026-09), except where a case says otherwise. A panel read
 * as the clean one is published over a copy of the clean publication and its runs, as the monthly
 * job publishes a month's file into the folders of the months before: 2026-09 is read, checked
 * and published from the edited file, 2026-08, unchanged, is not computed again. A panel whose
 * figures differ (a flag let it through) is published into a new folder: over the clean
 * publication it would be a correction, held to what that publication already showed.
 */
import { cp, readdir, readFile, rename, rm, symlink, truncate, writeFile } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { lit, openDuck } from '../../src/panel/duck.js';
import { checkFile } from '../../src/panel/read.js';
import { generate, publishPanel, readDocument, runCli } from '../helpers/cli.js';
import { expectRefused } from '../helpers/refusal.js';
import { copyTree, exists, snapshotTree, tempDirs } from '../helpers/tmp.js';
import { dialects, freshDb } from '../helpers/db.js';
import { ingestRuns } from '../../src/ingest/ingest.js';
import { SLUGS } from '../../src/stats/types.js';

const shared = tempDirs('storelens-contract-shared-');
const dirs = tempDirs('storelens-contract-');
const SPEC = { stores: 200, seed: '34', from: '2026-08', to: '2026-09' };
/**
 * The clean panels (csv, ndjson, parquet) and their publications; those a passing publish is made
 * over a copy of (csv, parquet: publishedCopy) with their runs folder beside them (`${published}.runs`).
 */
const clean: Record<string, { panel: string; published: string }> = {};

beforeAll(async () => {
  for (const format of ['csv', 'ndjson', 'parquet'] as const) {
    const panel = await shared.make();
    const published = path.join(await shared.make(), 'out');
    await generate(panel, { ...SPEC, format });
    await publishPanel(panel, published, format === 'ndjson' ? {} : { runs: `${published}.runs` });
    clean[format] = { panel, published };
  }
});

/** `publish --check` of the clean CSV panel, run once for the cases that read what it says of a panel without defects. */
let cleanCheck: ReturnType<typeof runCli> | undefined;
const checkedClean = () => (cleanCheck ??= runCli(['publish', '--check', '--input', clean.csv.panel]));
afterAll(() => shared.removeAll());
afterEach(() => dirs.removeAll());

/**
 * A copy of a clean publication and of its runs folder (`${out}.runs`), as publish left them
 * (links, hard links and mtimes kept), for a publish that must pass: returns the output folder.
 */
async function publishedCopy(format: 'csv' | 'parquet'): Promise<string> {
  const out = path.join(await dirs.make(), 'out');
  await copyTree(clean[format].published, out);
  await copyTree(`${clean[format].published}.runs`, `${out}.runs`);
  return out;
}

/** A copy of a clean panel. */
async function copyOf(format: 'csv' | 'ndjson' | 'parquet'): Promise<string> {
  const dir = await dirs.make();
  await cp(clean[format].panel, dir, { recursive: true });
  return dir;
}

/** A copy of the clean panel whose 2026-09 file is `edit` of its text. */
async function defective(edit: (text: string) => string | Buffer, format: 'csv' | 'ndjson' = 'csv'): Promise<string> {
  const dir = await copyOf(format);
  const file = path.join(dir, `2026-09.${format}`);
  await writeFile(file, edit(await readFile(file, 'utf8')));
  return dir;
}

/** The CSV's records; `at(records, row)` is the record on `row` as the docs count it (header = row 1). */
const records = (text: string): string[][] => parse(text) as string[][];
/** Each of `rows` as CSV text, ended by `eol`. */
const lines = (rows: string[][], eol = '\n'): string[] => rows.map((r) => stringify([r], { record_delimiter: eol }));
/** The CSV text of `rows` (header first). */
const csvOf = (rows: string[][]): string => lines(rows).join('');
const column = (rows: string[][], name: string): number => rows[0].indexOf(name);

/** Refused over the clean publication (and into an absent folder); the message has no control character. */
async function refused(dir: string, message: RegExp, format = 'csv'): Promise<void> {
  const stderr = await expectRefused(clean[format].published, dirs, ['--input', dir, '--all'], message);
  expect(stderr).not.toMatch(/[\u0000-\u0009\u000b-\u001f\ufffd]/);
}

describe('the header is checked against the contract before any work', () => {
  it('names a misspelt column and the column it should be', async () => {
    const dir = await defective((t) => t.replace('ads_pinterest', 'ads_pinterst'));
    await refused(dir, /2026-09\.csv: row 1, column "ads_pinterst": unknown column, close to ads_pinterest which is missing/);
  });

  it('names a required column left out', async () => {
    const dir = await defective((t) => {
      const rows = records(t);
      const at = column(rows, 'product_count');
      return csvOf(rows.map((r) => r.filter((_, i) => i !== at)));
    });
    await refused(dir, /2026-09\.csv: row 1, column product_count: the required column product_count is missing/);
  });

  it('says a file separated by semicolons or tabs is, once, not that every column is missing', async () => {
    // A spreadsheet set to another list separator: it was one finding per contract column, each
    // quoting the whole header, and a warning that the optional domain column was left out.
    for (const [sep, words] of [[';', 'semicolons'], ['\t', 'tabs']] as const) {
      const dir = await defective((t) => t.replaceAll(',', sep));
      const message = new RegExp(`2026-09\\.csv: row 1: the header "store_id.domain.*" is separated by ${words}, where a CSV file is separated by commas`);
      await refused(dir, message);
      const r = await runCli(['publish', '--check', '--input', dir]);
      expect(r.code).toBe(2);
      expect(r.stdout.trim().split('\n')).toEqual([expect.stringMatching(message)]);
      expect(r.stderr).not.toContain('warning');
    }
  });

  it('names a required column left out of NDJSON records', async () => {
    const dir = await defective((t) => t.replace(/"product_count":[^,]*,/g, ''), 'ndjson');
    await refused(dir, /2026-09\.ndjson: column product_count: the required column product_count is missing/, 'ndjson');
  });
});

describe('every file of the panel folder is a file that can be read', () => {
  it.each([
    ['a month', '2026-10.csv', 'a month of the panel is one YYYY-MM.csv'],
    ['the contact source', 'contacts.csv', 'the contact source is one contacts.csv'],
  ])('names %s that is a link to nothing (exit 2), not a bare ENOENT (exit 1)', async (_what, name, what) => {
    const dir = await copyOf('csv');
    await rm(path.join(dir, name), { force: true });
    await symlink(path.join(dir, 'gone.csv'), path.join(dir, name));
    const message = new RegExp(`${name.replace('.', '\\.')}: a link to ".*gone\\.csv", which does not exist \\(${what.replace('.', '\\.')}`);
    await refused(dir, message);
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
  });
});

describe('a month or contact file publish would not read is named, not left out', () => {
  // A vendor's 2026-09.csv.gz was skipped without a word: the release stopped at 2026-08, exit 0
  // (and a contacts.csv.gz emptied the workspace's contacts at the next ingest).
  it.each([
    ['2026-09.csv', '2026-09.csv.gz', /2026-09\.csv\.gz: compressed \(\.gz\): decompress it first \(gunzip 2026-09\.csv\.gz\)/],
    ['2026-09.csv', '2026-09.CSV', /2026-09\.CSV: named in capitals: rename it 2026-09\.csv/],
    ['2026-09.csv', '2026-09.xlsx', /2026-09\.xlsx: a spreadsheet: save it as CSV \(2026-09\.csv\)/],
    ['2026-09.csv', '2026-09.jsonl', /2026-09\.jsonl: rename it 2026-09\.ndjson if it holds one JSON object per line/],
    // A browser's download still under way, or what a stopped copy left.
    ['2026-09.csv', '2026-09.csv.crdownload', /2026-09\.csv\.crdownload: an unfinished download or copy \(\.crdownload\): publish once it is complete/],
    ['2026-09.csv', '2026-09.csv.part', /2026-09\.csv\.part: an unfinished download or copy \(\.part\)/],
    ['contacts.csv', 'contacts.csv.gz', /contacts\.csv\.gz: compressed \(\.gz\): decompress it first \(gunzip contacts\.csv\.gz\)/],
    ['contacts.csv', 'CONTACTS.CSV', /CONTACTS\.CSV: named in capitals: rename it contacts\.csv/],
  ])('refuses %s delivered as %s (exit 2), by publish and publish --check', async (from, to, message) => {
    const dir = await copyOf('csv');
    const bytes = await readFile(path.join(dir, from));
    await rm(path.join(dir, from));
    await writeFile(path.join(dir, to), to.endsWith('.gz') ? gzipSync(bytes) : bytes);
    await refused(dir, message);
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect([r.code, r.stderr]).toEqual([2, expect.stringMatching(message)]);
  });

  it('leaves out a copy beside the file it read (a backup, the compressed original)', async () => {
    const dir = await copyOf('csv');
    const bytes = await readFile(path.join(dir, '2026-09.csv'));
    await writeFile(path.join(dir, '2026-09.csv.bak'), 'not, read\n');
    await writeFile(path.join(dir, '2026-09.csv.gz'), gzipSync(bytes));
    await writeFile(path.join(dir, 'contacts.csv.gz'), gzipSync(await readFile(path.join(dir, 'contacts.csv'))));
    expect((await runCli(['publish', '--check', '--input', dir])).code).toBe(0);
  });
});

describe('a month whose store ids were rewritten', () => {
  it('is refused naming the ids it shares with the month before, unless --allow-new-ids, by publish and --check', async () => {
    // Every store read as closed and opened again: a new-store rate of 100%, no trend, and a
    // closing and an opening signal for each store in every workspace that follows it.
    const dir = await defective((t) => {
      const rows = records(t);
      const id = column(rows, 'store_id');
      return csvOf(rows.map((r, i) => (i === 0 || i % 10 === 0 ? r : r.map((v, k) => (k === id ? `x-${v}` : v)))));
    });
    const message = /2026-09\.csv: month 2026-09 shares \d+ of its \d+ store ids with the \d+ of 2026-08 \(\d+\.\d%\): were the ids rewritten \(leading zeros dropped by a spreadsheet, a new id scheme\)\?.*--allow-new-ids/;
    await refused(dir, message);
    const checked = await runCli(['publish', '--check', '--input', dir]);
    expect([checked.code, checked.stdout]).toEqual([2, expect.stringMatching(message)]);
    expect((await runCli(['publish', '--check', '--input', dir, '--allow-new-ids'])).code).toBe(0);
    const out = path.join(await dirs.make(), 'out');
    const r = await runCli(['publish', '--input', dir, '--all', '--allow-new-ids', '--out', out, '--runs', `${out}.runs`, '--cards', 'none']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a month file that is another month\'s delivered again', () => {
  it('is warned of by publish and --check (every other check passes such a file)', async () => {
    // August's file sent again as September's published August's figures as September's without a word.
    for (const format of ['csv', 'ndjson', 'parquet'] as const) {
      const dir = await copyOf(format);
      await cp(path.join(dir, `2026-08.${format}`), path.join(dir, `2026-09.${format}`));
      const message = new RegExp(`warning: .*2026-09\\.${format}: the same bytes as 2026-08\\.${format} \\(sha256 [0-9a-f]{12}…\\): 2026-08's file delivered again as 2026-09\\? every figure of 2026-09 is 2026-08's`);
      const out = path.join(await dirs.make(), 'out');
      const published = await runCli(['publish', '--input', dir, '--all', '--out', out, '--runs', `${out}.runs`, '--cards', 'none']);
      expect([published.code, published.stderr]).toEqual([0, expect.stringMatching(message)]);
      const checked = await runCli(['publish', '--check', '--input', dir]);
      expect([checked.code, checked.stderr]).toEqual([0, expect.stringMatching(message)]);
    }
    // Months that differ are not warned of.
    const r = await checkedClean();
    expect([r.code, r.stderr]).toEqual([0, expect.not.stringContaining('the same bytes')]);
  });
});

describe('every month holds stores', () => {
  it('names an empty file as empty, once, not as every column missing', async () => {
    // It was "the required column store_id is missing (columns: json)" for NDJSON, and with
    // --check one finding per contract column (and a warning that domain is absent).
    for (const format of ['csv', 'ndjson'] as const) {
      const dir = await defective(() => '\n\n', format);
      const message = new RegExp(`2026-09\\.${format}: row 1: the file is empty \\(${format === 'csv' ? 'no header row naming the columns, and no records' : 'no records'}\\)`);
      await refused(dir, message, format);
      const r = await runCli(['publish', '--check', '--input', dir]);
      expect(r.code).toBe(2);
      expect(r.stdout.trim().split('\n')).toEqual([expect.stringMatching(message)]);
      expect(r.stderr).not.toContain('warning');
    }
  });

  it('names a month with a header and no records', async () => {
    const dir = await defective((t) => csvOf(records(t).slice(0, 1)));
    await refused(dir, /2026-09\.csv: month 2026-09 holds no stores/);
  });

  it('names a month of fewer than half the stores of the month before, unless --allow-shrink', async () => {
    const dir = await defective((t) => csvOf(records(t).slice(0, 40)));
    await refused(dir, /2026-09\.csv: month 2026-09 holds 39 stores, fewer than 50% of the \d+ of 2026-08 .*--allow-shrink/);
    const out = path.join(await dirs.make(), 'out');
    const r = await runCli(['publish', '--input', dir, '--all', '--allow-shrink', '--out', out, '--runs', `${out}.runs`, '--cards', 'none']);
    expect(r.code, r.stderr).toBe(0);
  });
});

describe('a record that cannot be read is refused in words', () => {
  const editRow5 = (f: (r: string[]) => string[]) => (t: string) => {
    const rows = records(t);
    rows[4] = f(rows[4]);
    return csvOf(rows);
  };

  it('says the field counts of a record with too few fields', async () => {
    const dir = await defective(editRow5((r) => r.slice(0, 17)));
    await refused(dir, /2026-09\.csv: row 5: 17 fields where the header has 19$/m);
  });

  it('says the field counts of a record with too many fields', async () => {
    const dir = await defective(editRow5((r) => [...r, 'x']));
    await refused(dir, /2026-09\.csv: row 5: 20 fields where the header has 19 \(a value holding a comma is quoted whole: "Lee, Ann"\)$/m);
  });

  it('names a bad value at its row when the file has a column of its own named rowid (CSV and NDJSON)', async () => {
    // The file's own columns are ignored; one named rowid once hid the record number every check reads, and publish crashed.
    const dir = await defective((t) => {
      const rows = records(t).map((r, i) => [...r, i === 0 ? 'rowid' : '7']);
      rows[4][column(rows, 'ads_meta')] = 'maybe';
      return csvOf(rows);
    });
    await refused(dir, /2026-09\.csv: row 5, column ads_meta: expected true or false, got "maybe"/);
    const nd = await defective((t) => {
      const lines = t.split('\n');
      lines[4] = lines[4]!.replace(/"ads_meta":[^,}]*/, '"ads_meta":"maybe"');
      return lines.map((l) => l.replace(/^\{/, '{"rowid":7,')).join('\n');
    }, 'ndjson');
    await refused(nd, /2026-09\.ndjson: row 5, column ads_meta: expected true or false, got "maybe"/, 'ndjson');
  });

  it('names a store created after the month its file is named for: a later month\'s file under an earlier name', async () => {
    // September's delivery saved as 2026-08.csv once published as August's figures, exit 0.
    for (const format of ['csv', 'ndjson', 'parquet'] as const) {
      const dir = await copyOf(format);
      await rename(path.join(dir, `2026-09.${format}`), path.join(dir, `2026-08.${format}`));
      await refused(dir, new RegExp(`2026-08\\.${format}: row \\d+, column created_month: the store was created in 2026-09, after 2026-08, the month the file is named for`), format);
    }
  });

  it('names a store id longer than the API takes (500, counted as JavaScript counts), not an account no request can name', async () => {
    const astral = '\u{1F600}'.repeat(250); // 250 characters, 500 UTF-16 code units: the most the API takes
    const ok = await defective(editRowOf('store_id', astral));
    expect((await runCli(['publish', '--check', '--input', ok])).code).toBe(0);
    const dir = await defective(editRowOf('store_id', `${astral}x`));
    await refused(dir, /2026-09\.csv: row 5, column store_id: longer than 500 characters, the longest store id the API takes/);
  });

  it('names an NDJSON store id written as a number with a fraction or an exponent, which the contact source reads otherwise', async () => {
    // 1e3 read as the store "1000.0", where a contact of store 1e3 reads "1000": the two never met.
    for (const [id, read] of [['1e3', '1000.0'], ['12.5', '12.5']]) {
      const nd = await defective((t) => {
        const lines = t.split('\n');
        lines[4] = lines[4]!.replace(/"store_id":"[^"]*"/, `"store_id":${id}`);
        return lines.join('\n');
      }, 'ndjson');
      await refused(nd, new RegExp(`2026-09\\.ndjson: row 5, column store_id: a number with a fraction or an exponent \\(read as ${read.replace('.', '\\.')}\\) is no store id: write the id as a JSON string or an integer`), 'ndjson');
    }
  });

  it('says a Latin-1 record is not UTF-8', async () => {
    const dir = await defective((t) => {
      const rows = records(t);
      rows[4][column(rows, 'category')] = 'caf\u00e9';
      return Buffer.concat([Buffer.from(csvOf(rows.slice(0, 4))), Buffer.from(csvOf(rows.slice(4, 5)), 'latin1'), Buffer.from(csvOf(rows.slice(5)))]);
    });
    await refused(dir, /2026-09\.csv: row 5: not UTF-8 encoded/);
  });

  it('names a store id a spreadsheet saved in scientific notation (its digits lost), before the duplicates it makes', async () => {
    // 123456789012 and 123457000001 both became 1.23457E+11: "duplicate store_id", its cause unsaid.
    const dir = await defective((t) => {
      const rows = records(t);
      rows[4][column(rows, 'store_id')] = '1.23457E+11';
      rows[6][column(rows, 'store_id')] = '1.23457E+11';
      return csvOf(rows);
    });
    await refused(dir, /2026-09\.csv: row 5, column store_id: "1\.23457E\+11" is a number in scientific notation, as a spreadsheet saves a long id it read as a number: its digits are lost; export the store ids as text/);
  });

  it('says a created_month given as a date, and the month to write', async () => {
    const dir = await defective(editRowOf('created_month', '2025-11-14'));
    await refused(dir, /2026-09\.csv: row 5, column created_month: expected a month YYYY-MM, got "2025-11-14" \(a date: write its month, 2025-11\)/);
  });

  it('says a record that repeats the header row, as two exports joined into one file have', async () => {
    const dir = await defective((t) => {
      const text = lines(records(t));
      return [...text.slice(0, 4), text[0], ...text.slice(4)].join('');
    });
    await refused(dir, /2026-09\.csv: row 5, column \w+: expected .*, got "\w+" \(the row repeats the header: two files joined into one\?\)/);
  });

  it('says a .csv is gzip-compressed, without printing its bytes', async () => {
    const dir = await defective((t) => gzipSync(t));
    await refused(dir, /2026-09\.csv: gzip-compressed .*decompress it/);
  });

  it('says an NDJSON file starts with a byte order mark, not that its first record is not JSON', async () => {
    const dir = await defective((t) => '\ufeff' + t, 'ndjson');
    await refused(dir, /2026-09\.ndjson: row 1: the file starts with a byte order mark \(BOM\), which NDJSON does not take: save it as UTF-8 without BOM/, 'ndjson');
  });

  it('counts a cut-off NDJSON record from 1, as the docs do', async () => {
    const dir = await defective((t) => {
      const lines = t.split('\n');
      return [...lines.slice(0, 4), '', lines[4].slice(0, 40)].join('\n');
    }, 'ndjson');
    await refused(dir, /2026-09\.ndjson: row 5: record 5 is cut off/, 'ndjson');
  });

  it('says a truncated Parquet file is not readable Parquet', async () => {
    const dir = await copyOf('parquet');
    await truncate(path.join(dir, '2026-09.parquet'), 300);
    await refused(dir, /2026-09\.parquet: not a readable Parquet file/, 'parquet');
  });
});

describe('a count, an amount or visits below zero is a bad value', () => {
  it.each(['product_count', 'monthly_visits', 'est_monthly_revenue_usd'])('names a negative %s: file, row and column', async (name) => {
    const dir = await defective(editRowOf(name, '-5'));
    await refused(dir, new RegExp(`2026-09\\.csv: row 5, column ${name}: expected (an integer|a number) of 0 or more .*got "-5"`));
  });

  it('names a negative count in a typed Parquet column', async () => {
    const dir = await copyOf('parquet');
    const file = path.join(dir, '2026-09.parquet');
    const duck = await openDuck();
    try {
      // The seventh record (file_row_number 6) gets -2 visits; the column stays BIGINT.
      const source = `read_parquet(${lit(`${file}.clean`)}, file_row_number = true)`;
      await rename(file, `${file}.clean`);
      await duck.run(`COPY (SELECT * EXCLUDE (file_row_number) REPLACE (CASE WHEN file_row_number = 6 THEN -2 ELSE monthly_visits END AS monthly_visits) FROM ${source} ORDER BY file_row_number) TO ${lit(file)} (FORMAT parquet)`);
      await rm(`${file}.clean`);
    } finally {
      duck.close();
    }
    await refused(dir, /2026-09\.parquet: row 7, column monthly_visits: expected an integer of 0 or more .*got "-2"/, 'parquet');
  });
});

describe('a column holds one value a cell, as text where the contract says text', () => {
  /** The Parquet month 2026-09 rewritten by `select` (over its records, in their order). */
  async function rewrittenParquet(select: string): Promise<string> {
    const dir = await copyOf('parquet');
    const file = path.join(dir, '2026-09.parquet');
    const duck = await openDuck();
    try {
      await rename(file, `${file}.clean`);
      const source = `read_parquet(${lit(`${file}.clean`)}, file_row_number = true)`;
      await duck.run(`COPY (SELECT ${select} FROM ${source} ORDER BY file_row_number) TO ${lit(file)} (FORMAT parquet)`);
      await rm(`${file}.clean`);
    } finally {
      duck.close();
    }
    return dir;
  }

  it('says why an integer column written as floating point (pandas, a missing value) reads 5.0', async () => {
    // "expected an integer, got \"5.0\"" alone reads as if the vendor had typed a fraction.
    const dir = await rewrittenParquet(`* EXCLUDE (file_row_number) REPLACE (CAST(CASE WHEN file_row_number = 3 THEN NULL ELSE product_count END AS DOUBLE) AS product_count)`);
    await refused(dir, /2026-09\.parquet: row 1, column product_count: expected an integer, got "\d+\.0" \(the file stores product_count as DOUBLE, a type with a fraction: write it as an integer type; pandas writes an integer column holding a missing value as float64/, 'parquet');
  });

  it('refuses a Parquet list column, not one app named "[a, b]"', async () => {
    const dir = await rewrittenParquet(`* EXCLUDE (file_row_number) REPLACE (string_split(apps, ';') AS apps)`);
    await refused(dir, /2026-09\.parquet: column apps: stored as VARCHAR\[\], not one value a cell: expected app ids separated by ';'/, 'parquet');
  });

  it('reads a Parquet file with a column of its own named file_row_number as the clean one, and names a bad value at its row', async () => {
    // The file's own columns are ignored; this one was refused as "not a readable Parquet file: Binder Error …".
    const own = await rewrittenParquet(`* EXCLUDE (file_row_number), 42 AS file_row_number`);
    const out = await publishedCopy('parquet');
    expect(await publishPanel(own, out, { runs: `${out}.runs` })).toMatchObject({ changed: true, months: ['2026-09'], runs: ['2026-09'] });
    const [mine, theirs] = await Promise.all([readDocument(out, 'platform-stores', '2026-09'), readDocument(clean.parquet.published, 'platform-stores', '2026-09')]);
    expect(mine.stats).toEqual(theirs.stats);
    // Its runs (the run's stores file is the panel's) ingest whole: once staged, it is staged again to load.
    const duck = await openDuck();
    const [{ n }] = await duck.all<{ n: string }>(`SELECT count(*) AS n FROM read_parquet(${lit(path.join(own, '*.parquet'))})`).finally(() => duck.close());
    for (const d of dialects.filter((x) => !x.skip)) {
      const t = await freshDb(d.name);
      try {
        const r = await ingestRuns(t.db, `${out}.runs`, { now: () => new Date('2026-11-02T09:30:00.000Z') });
        expect(r, d.label).toMatchObject({ months: ['2026-08', '2026-09'], stores: Number(n) });
        expect(Number((await t.db.kysely.selectFrom('store_months').select((e) => e.fn.countAll().as('n')).executeTakeFirstOrThrow()).n)).toBe(Number(n));
      } finally {
        await t.cleanup();
      }
    }
    const bad = await rewrittenParquet(`* EXCLUDE (file_row_number) REPLACE (CASE WHEN file_row_number = 6 THEN 'yes' ELSE CAST(ads_meta AS VARCHAR) END AS ads_meta), 42 AS file_row_number`);
    await refused(bad, /2026-09\.parquet: row 7, column ads_meta: expected true or false, got "yes"/, 'parquet');
  });

  it('refuses text stored as bytes (BLOB), not its escaped bytes', async () => {
    const dir = await rewrittenParquet(`* EXCLUDE (file_row_number) REPLACE (encode(category) AS category)`);
    await refused(dir, /2026-09\.parquet: column category: stored as BLOB, .*as UTF-8 text, not bytes/, 'parquet');
  });

  it('names an amount of more than 16 digits in a DECIMAL(18,0) column (file, row, column), not a crash', async () => {
    const dir = await rewrittenParquet(
      `* EXCLUDE (file_row_number) REPLACE (CAST(CASE WHEN file_row_number = 6 THEN 12345678901234567 ELSE round(est_monthly_revenue_usd) END AS DECIMAL(18,0)) AS est_monthly_revenue_usd)`,
    );
    await refused(dir, /2026-09\.parquet: row 7, column est_monthly_revenue_usd: expected a number \(at most 16 digits before the point\), got "12345678901234567"/, 'parquet');
  });

  it('names an NDJSON value that is an object or a list: file, row and column', async () => {
    const dir = await defective((t) => {
      const lines = t.split('\n');
      lines[4] = lines[4]!.replace(/"category":"[^"]*"/, '"category":{"name":"Cafe"}');
      return lines.join('\n');
    }, 'ndjson');
    await refused(dir, /2026-09\.ndjson: row 5, column category: expected text, got "\{\\"name\\":\\"Cafe\\"\}"/, 'ndjson');
  });
});

describe('an NDJSON value is read as the file writes it, wherever its record stands', () => {
  /** The NDJSON month 2026-09 with record `row`'s `key` set to `json` (raw JSON text). */
  const withValue = (key: string, json: string, row = 5) => (t: string) => {
    const lines = t.split('\n');
    lines[row - 1] = lines[row - 1]!.replace(new RegExp(`"${key}":("[^"]*"|[^,}]*)`), `"${key}":${json}`);
    return lines.join('\n');
  };

  it('names a fraction among integers at its own row, not row 1 as a float "5.0"', async () => {
    const dir = await defective(withValue('product_count', '12.7'), 'ndjson');
    await refused(dir, /2026-09\.ndjson: row 5, column product_count: expected an integer, got "12\.7"/, 'ndjson');
  });

  it('names a late record\'s value that a sample of the first records would have typed away', async () => {
    // More records than DuckDB samples to guess a column's type (20,480): the last one's 12.7 and "yes".
    const dir = await defective((t) => {
      const lines = t.split('\n').filter(Boolean);
      const many = Array.from({ length: 21_000 }, (_, i) => lines[i % lines.length]!.replace(/"store_id":"[^"]*"/, `"store_id":"bulk-${i}"`));
      many.push(withValue('ads_meta', '"yes"', 1)(withValue('product_count', '12.7', 1)(lines[0]!)).replace(/"store_id":"[^"]*"/, '"store_id":"late"'));
      return many.join('\n') + '\n';
    }, 'ndjson');
    await refused(dir, /2026-09\.ndjson: row 21001, column product_count: expected an integer, got "12\.7"/, 'ndjson');
  });

  it('reads each numeric store id as written: one written "1000.0" does not make the others 101.0', async () => {
    // (A store id written as the number 1000.0 is refused: see "names an NDJSON store id written as a number with a fraction".)
    const dir = await defective((t) => {
      const lines = t.split('\n').filter(Boolean).slice(0, 3);
      return lines.map((l, i) => l.replace(/"store_id":"[^"]*"/, `"store_id":${['101', '102', '"1000.0"'][i]}`)).join('\n') + '\n';
    }, 'ndjson');
    const duck = await openDuck();
    try {
      const { select } = await checkFile(duck, { month: '2026-09', file: path.join(dir, '2026-09.ndjson'), name: '2026-09.ndjson', format: 'ndjson' }, 'staged');
      expect((await duck.all<{ store_id: string }>(`SELECT store_id FROM (${select}) ORDER BY store_id`)).map((r) => r.store_id)).toEqual(['1000.0', '101', '102']);
    } finally {
      duck.close();
    }
  });
});

describe('a store id of only spaces', () => {
  it('is an empty store id, named at its row', async () => {
    const dir = await defective(editRowOf('store_id', '   '));
    await refused(dir, /2026-09\.csv: row 5, column store_id: must not be empty or only spaces/);
  });
});

describe('a value far too large to count', () => {
  it('stops the publish (exit 2, the month and the figure named), nothing published, not a crash', async () => {
    const dir = await defective(editRowOf('monthly_visits', '9000000000000000000'));
    await refused(dir, /month 2026-09: the figures of [a-z_]+ add up past what publish counts exactly \(\d+\): a value in 2026-09's file is far too large; nothing was published/);
  });

  it('leaves a runs folder as it was, the runs of the months read before it taken back', async () => {
    // Refused while aggregating, publish once left the runs it had written for every month
    // (complete folders, no index naming them) in the runs folder.
    const out = await publishedCopy('csv');
    const runs = `${out}.runs`;
    const before = await snapshotTree(runs);
    // A correction of both months: each run id changes, so each month's run would be written anew.
    const dir = await copyOf('csv');
    const aug = path.join(dir, '2026-08.csv');
    const rows = records(await readFile(aug, 'utf8'));
    rows[1][column(rows, 'product_count')] = String(Number(rows[1][column(rows, 'product_count')] || 0) + 1);
    await writeFile(aug, csvOf(rows));
    const sep = path.join(dir, '2026-09.csv');
    await writeFile(sep, editRowOf('monthly_visits', '9000000000000000000')(await readFile(sep, 'utf8')));
    const r = await runCli(['publish', '--input', dir, '--all', '--out', out, '--runs', runs, '--cards', 'none']);
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(/add up past what publish counts exactly/);
    expect(await snapshotTree(runs)).toEqual(before);
  });

  it('is found by publish --check too (exit 2, file, month and column named), as publish would refuse it', async () => {
    // Two visit counts of 5e15: each fits, their month's total (1e16) passes 2^53.
    const dir = await defective((t) => editRowOf('monthly_visits', '5000000000000000')(editRowOf('monthly_visits', '5000000000000000', 6)(t)));
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/2026-09\.csv: month 2026-09: the values of monthly_visits add up past what publish counts exactly \(\d+\): a value in the file is far too large; publish would refuse the month\n$/);
    await refused(dir, /month 2026-09: the figures of mean_monthly_visits add up past what publish counts exactly/);
  });
});

describe('a text holding U+0000 is a bad value', () => {
  // Typing would cut the text there (and no database column holds it): the statistics would count
  // another category than the file says, silently.
  it.each(['category', 'apps', 'store_id'])('names %s holding U+0000: file, row and column', async (name) => {
    const dir = await defective(editRowOf(name, 'Caf\u0000é'));
    await refused(dir, new RegExp(`2026-09\\.csv: row 5, column ${name}: contains the character U\\+0000`));
  });
});

/** Sets `name` of the record on `row` (5 unless told) to `value`. */
function editRowOf(name: string, value: string, row = 5): (t: string) => string {
  return (t) => {
    const rows = records(t);
    rows[row - 1][column(rows, name)] = value;
    return csvOf(rows);
  };
}

describe('publish --check', () => {
  it('finds nothing in a clean panel and writes nothing', async () => {
    const tmp = await dirs.make();
    const out = path.join(tmp, 'out');
    const r = await runCli(['publish', '--check', '--input', clean.csv.panel, '--out', out, '--runs', `${out}.runs`]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/2 month file\(s\) \(2026-08 to 2026-09\) and contacts\.csv: \d+ store-months, every check passed; nothing was written/);
    expect(await readdir(tmp)).toEqual([]);
  });

  it('lists every file\'s findings, exit 2, and writes nothing', async () => {
    // Two bad rows in 2026-09 (rows 5 and 6), a misspelt column in 2026-08.
    const dir = await defective((t) => editRowOf('monthly_visits', '-1')(editRowOf('monthly_visits', '-1', 6)(t)));
    const aug = path.join(dir, '2026-08.csv');
    await writeFile(aug, (await readFile(aug, 'utf8')).replace('ads_pinterest', 'ads_pinterst'));
    const tmp = await dirs.make();
    const out = path.join(tmp, 'out');
    const r = await runCli(['publish', '--check', '--input', dir, '--all', '--out', out, '--runs', `${out}.runs`, '--json']);
    expect(r.code).toBe(2);
    const found = JSON.parse(r.stdout) as { ok: boolean; findings: string[] };
    expect(found.ok).toBe(false);
    expect(found.findings).toHaveLength(2);
    expect(found.findings[0]).toMatch(/2026-08\.csv: row 1, column "ads_pinterst": unknown column, close to ads_pinterest/);
    expect(found.findings[1]).toMatch(/2026-09\.csv: row 5, column monthly_visits: expected an integer of 0 or more .* \(and 1 more row\(s\) of this file with a bad value\)$/);
    expect(r.stderr).toMatch(/2 finding\(s\) in 2 month file\(s\) \(2026-08 to 2026-09\) and contacts\.csv; nothing was written/);
    expect(await readdir(tmp)).toEqual([]);
    expect(await exists(path.join(process.cwd(), 'output'))).toBe(false);
  });

  it('checks the contact source beside the panel as publish does', async () => {
    const dir = await defective((t) => t);
    await writeFile(path.join(dir, 'contacts.csv'), 'store_id,name,email,role,source\ns1,Ann,ann@example.com,,\ns2,Bob,not-an-email,,\n');
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect(r.code).toBe(2);
    expect(r.stdout).toMatch(/contacts\.csv: row 3, column email: expected an email address, got "not-an-email"\n$/);
    // The count names the contact source beside the month files it was found among.
    expect(r.stderr).toMatch(/1 finding\(s\) in \d+ month file\(s\) \(\d{4}-\d\d to \d{4}-\d\d\) and contacts\.csv; nothing was written/);
    await writeFile(path.join(dir, 'contacts.csv'), 'store_id,name,email,role,source\ns1,Ann,ann@example.com,,\n');
    expect((await runCli(['publish', '--check', '--input', dir])).code).toBe(0);
  });
});

describe('a country code that stands for another (UK for GB)', () => {
  it('is warned of by publish --check and by publish, naming the month and the code to write, as the pages would list it beside GB under the same name', async () => {
    const dir = await defective((t) => editRowOf('country', 'UK', 2)(editRowOf('country', 'UK', 3)(t)));
    const check = await runCli(['publish', '--check', '--input', dir]);
    expect(check.code, check.stderr).toBe(0);
    const warning = /warning: country UK \(2026-09\) is an old or informal code for GB: .* write GB in the panel files\n/;
    expect(check.stderr).toMatch(warning);
    const out = path.join(await dirs.make(), 'out');
    const run = await runCli(['publish', '--input', dir, '--all', '--out', out, '--runs', `${out}.runs`, '--cards', 'none']);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toMatch(warning);
    // A code the runtime does not know (user-assigned, as the tests' own XX) is no alias.
    expect((await checkedClean()).stderr).not.toMatch(/informal code/);
  });
});

describe('what the contract accepts publishes the clean figures', () => {
  it('reads a file whose every line break is CRLF, those inside values too, as the clean panel', async () => {
    const dir = await defective((t) => t.replace(/\r?\n/g, '\r\n'));
    const out = await publishedCopy('csv');
    // Documents rebuilt from the edited file, not the clean publication's left in place.
    expect(await publishPanel(dir, out)).toMatchObject({ changed: true, months: ['2026-09'] });
    for (const slug of SLUGS.filter((s) => s !== 'methodology')) {
      const [mine, theirs] = await Promise.all([readDocument(out, slug, '2026-09'), readDocument(clean.csv.published, slug, '2026-09')]);
      expect(mine.stats, slug).toEqual(theirs.stats);
    }
  });

  it('reads a BOM, reordered and extra columns and a blank line as the clean panel', async () => {
    const dir = await defective((t) => {
      const rows = records(t).map((r) => [...r.slice(1), r[0], 'vendor note']);
      rows[0][rows[0].length - 1] = 'vendor_note';
      const text = lines(rows);
      return '\ufeff' + [...text.slice(0, 3), '\n', ...text.slice(3)].join('');
    });
    const out = await publishedCopy('csv');
    // Documents rebuilt from the edited file, not the clean publication's left in place.
    expect(await publishPanel(dir, out)).toMatchObject({ changed: true, months: ['2026-09'] });
    for (const slug of SLUGS.filter((s) => s !== 'methodology')) {
      const [mine, theirs] = await Promise.all([readDocument(out, slug, '2026-09'), readDocument(clean.csv.published, slug, '2026-09')]);
      expect(mine.stats, slug).toEqual(theirs.stats);
    }
  });

  it('reads columns without a name (a trailing comma on every line, twice) as the file\'s own, ignored', async () => {
    const dir = await defective((t) => lines(records(t).map((r) => [...r, '', ''])).join(''));
    const out = await publishedCopy('csv');
    // Documents rebuilt from the edited file, not the clean publication's left in place.
    expect(await publishPanel(dir, out)).toMatchObject({ changed: true, months: ['2026-09'] });
    const [mine, theirs] = await Promise.all([readDocument(out, 'platform-stores', '2026-09'), readDocument(clean.csv.published, 'platform-stores', '2026-09')]);
    expect(mine.stats).toEqual(theirs.stats);
  });
});
