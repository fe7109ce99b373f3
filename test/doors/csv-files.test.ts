/**
 * A messy CSV file through every door that reads one: a month of the panel (`publish` reads it
 * with DuckDB) and the contact source beside it (csv-parse). The same fault is refused at each in
 * the same words (panel/read-errors.ts), naming the file and the row, with exit 2, in the one line
 * a person reads: never in a reader's own words, and alike from `publish --check`.
 */
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { generate, runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const shared = tempDirs('storelens-csv-doors-shared-');
const dirs = tempDirs('storelens-csv-doors-');
let clean: string;
beforeAll(async () => {
  clean = await shared.make();
  await generate(clean, { stores: 60, seed: '7', from: '2026-08', to: '2026-09' });
});
afterAll(() => shared.removeAll());
afterEach(() => dirs.removeAll());

/** The doors that read a CSV file of the panel folder. */
const DOORS = ['2026-09.csv', 'contacts.csv'] as const;

/** A copy of the clean panel whose file `name` is `edit` of its records (header first). */
async function messy(name: string, edit: (rows: string[][]) => string): Promise<string> {
  const dir = await dirs.make();
  await cp(clean, dir, { recursive: true });
  await writeFile(path.join(dir, name), edit(parse(await readFile(path.join(dir, name), 'utf8')) as string[][]));
  return dir;
}

/** Records as CSV lines, without their line ends. */
const csvLines = (rows: string[][], options: Parameters<typeof stringify>[1] = {}): string[] => stringify(rows, options).split('\n').slice(0, -1);
/** Rows with the record of row 2 holding a value "Lee; Ann" in its second column (a spreadsheet quotes it, separated by `;`). */
const withSemicolon = (rows: string[][]): string[][] => rows.map((r, i) => (i === 1 ? r.map((c, k) => (k === 1 ? 'Lee; Ann' : c)) : r));
/** The header as a person would see it separated by `;`, cut as the message cuts it. */
const semicolons = (rows: string[][]): string => {
  const line = rows[0]!.join(';');
  return JSON.stringify(line.length > 60 ? `${line.slice(0, 60)}…` : line);
};

/** [what, the file's edit, what the refusal says after `<file>: ` (given the clean file's records)] */
const FAULTS: [what: string, edit: (rows: string[][]) => string, said: (rows: string[][]) => string][] = [
  [
    // Excel set to a European locale quotes a value holding its separator: "a quote inside a value that is not quoted whole".
    'separated by semicolons, a value quoted',
    (rows) => stringify(withSemicolon(rows), { delimiter: ';' }),
    (rows) => `row 1: the header ${semicolons(rows)} is separated by semicolons, where a CSV file is separated by commas; save it as comma-separated CSV`,
  ],
  [
    // LibreOffice's "quote all text cells": the header itself did not parse ("Invalid Closing Quote: got ";" at line 1 …").
    'separated by semicolons, every value quoted',
    (rows) => stringify(rows, { delimiter: ';', quoted: true }),
    (rows) => `row 1: the header ${semicolons(rows)} is separated by semicolons, where a CSV file is separated by commas; save it as comma-separated CSV`,
  ],
  [
    // Empty lines before the header are skipped, but the separator was looked for in the first
    // line, empty: "row 2: a quote inside a value that is not quoted whole …".
    'empty lines, then a header separated by semicolons, a value quoted',
    (rows) => `\n\n${stringify(withSemicolon(rows), { delimiter: ';' })}`,
    (rows) => `row 1: the header ${semicolons(rows)} is separated by semicolons, where a CSV file is separated by commas; save it as comma-separated CSV`,
  ],
  [
    // "2 fields where the header has 1 (a value holding a comma is quoted whole …)" at the contact source.
    'separated by semicolons, a value holding a comma',
    (rows) => stringify(rows.map((r, i) => (i === 1 ? r.map((c, k) => (k === 1 ? 'Lee, Ann' : c)) : r)), { delimiter: ';', quote: false }),
    (rows) => `row 1: the header ${semicolons(rows)} is separated by semicolons, where a CSV file is separated by commas; save it as comma-separated CSV`,
  ],
  [
    // Its column names written otherwise (Store_ID): "the first line names none of the columns … is the header row left out?".
    'separated by semicolons, its column names capitalised',
    (rows) => stringify(rows.map((r, i) => (i === 0 ? r.map((c) => c.replace(/(^|_)[a-z]/g, (m) => m.toUpperCase())) : r)), { delimiter: ';' }),
    (rows) => `row 1: the header ${semicolons([rows[0]!.map((c) => c.replace(/(^|_)[a-z]/g, (m) => m.toUpperCase()))])} is separated by semicolons, where a CSV file is separated by commas; save it as comma-separated CSV`,
  ],
  [
    // DuckDB's "1 fields where the header has 19 (Expected Number of Columns: 19 Found: 1)".
    'a line of spaces among the records',
    (rows) => [...csvLines(rows.slice(0, 2)), '   ', ...csvLines(rows.slice(2))].join('\n') + '\n',
    () => 'row 3: the line holds only spaces or tabs (blank, but not empty: an empty line is skipped, this one is read as a record of one value): delete the line',
  ],
  [
    'a line of a tab and spaces among the records',
    (rows) => [...csvLines(rows.slice(0, 3)), ' \t ', ...csvLines(rows.slice(3))].join('\r\n') + '\r\n',
    () => 'row 4: the line holds only spaces or tabs (blank, but not empty: an empty line is skipped, this one is read as a record of one value): delete the line',
  ],
  [
    // A no-break space is a space to the text rule: the line read as "1 fields where the header has 19".
    'a line of no-break spaces among the records',
    (rows) => [...csvLines(rows.slice(0, 2)), '\u00a0\u00a0', ...csvLines(rows.slice(2))].join('\n') + '\n',
    () => 'row 3: the line holds only spaces or tabs (blank, but not empty: an empty line is skipped, this one is read as a record of one value): delete the line',
  ],
  [
    // Read as the header: the panel's "the first line names none of the columns … and begins "column1"",
    // the contact source's "row 2: 5 fields where the header has 1".
    'a line of spaces before the header',
    (rows) => `  \n${stringify(rows)}`,
    () => 'row 1: the line holds only spaces or tabs (blank, but not empty: an empty line is skipped, this one is read as a record of one value): delete the line',
  ],
  [
    // The panel's was DuckDB's "(Expected Number of Columns: 19 Found: 20)".
    'a record holding a comma in a value not quoted',
    (rows) => [...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0] + ',Lee', ...csvLines(rows.slice(3))].join('\n') + '\n',
    (rows) => `row 3: ${rows[0]!.length + 1} fields where the header has ${rows[0]!.length} (a value holding a comma is quoted whole: "Lee, Ann")`,
  ],
  [
    // The panel's row was DuckDB's record count, the empty line counted (row 4), where every other
    // message, at the panel and the contact source, counts rows without the empty lines.
    'an empty line, then a record holding a comma in a value not quoted',
    (rows) => [...csvLines(rows.slice(0, 2)), '', csvLines([rows[2]!])[0] + ',Lee', ...csvLines(rows.slice(3))].join('\n') + '\n',
    (rows) => `row 3: ${rows[0]!.length + 1} fields where the header has ${rows[0]!.length} (a value holding a comma is quoted whole: "Lee, Ann")`,
  ],
  [
    // The panel took the first empty line for its header: "the first line names none of the columns … and begins "column1"".
    'empty lines before the header, then a record holding a comma in a value not quoted',
    (rows) => ['', '', ...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0] + ',Lee', ...csvLines(rows.slice(3))].join('\r\n') + '\r\n',
    (rows) => `row 3: ${rows[0]!.length + 1} fields where the header has ${rows[0]!.length} (a value holding a comma is quoted whole: "Lee, Ann")`,
  ],
  [
    'two empty lines and a value holding a line break, then a line of spaces',
    (rows) => [...csvLines(rows.slice(0, 2)), '', ...csvLines([rows[2]!.map((c, k) => (k === 2 ? 'Ann\nLee' : c))]), '', '   ', ...csvLines(rows.slice(3))].join('\r\n') + '\r\n',
    () => 'row 4: the line holds only spaces or tabs (blank, but not empty: an empty line is skipped, this one is read as a record of one value): delete the line',
  ],
  [
    // The contact source's reader ended the record at the CR: "row 3: 1 fields where the header has 5";
    // the panel's was DuckDB's "cannot be read as CSV: The CSV Parser state machine reached an invalid state".
    'a carriage return alone in a value not quoted, the lines ending LF',
    (rows) => [...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0]!.replace(/^([^,]*),/, '$1\rx,'), ...csvLines(rows.slice(3))].join('\n') + '\n',
    () => "row 3: a carriage return alone (CR) stands in the line, where the file's lines end with LF: a reader takes it for a line end and cuts the record in two; remove it, or quote the value that holds it whole",
  ],
  [
    // The panel's was DuckDB's "row 3: 1 fields where the header has 19".
    'a carriage return alone in a value not quoted, the lines ending CRLF',
    (rows) => [...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0]!.replace(/^([^,]*),/, '$1\rx,'), ...csvLines(rows.slice(3))].join('\r\n') + '\r\n',
    () => "row 3: a carriage return alone (CR) stands in the line, where the file's lines end with CRLF: a reader takes it for a line end and cuts the record in two; remove it, or quote the value that holds it whole",
  ],
  [
    // The contact source's was "row 3: 1 fields where the header has 5".
    'lines ending with a carriage return alone, and a line feed in a value not quoted',
    (rows) => [...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0]!.replace(/^([^,]*),/, '$1\nx,'), ...csvLines(rows.slice(3))].join('\r') + '\r',
    () => 'its lines end with a carriage return alone (CR, as old Mac spreadsheets save CSV), and a line feed (LF) stands in a value that is not quoted: save it as CSV with LF or CRLF line ends, a value holding a line break quoted whole',
  ],
  [
    // The panel's was "a quoted value is never closed (unterminated quote)", of a quote that closed.
    'text after a quoted value\'s closing quote',
    (rows) => [...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0]!.replace(/^([^,]*),([^,]*),/, '$1,"$2"x,'), ...csvLines(rows.slice(3))].join('\n') + '\n',
    () => 'row 3: a quote inside a value that is not quoted whole (quote the value and double each quote in it: "Ann ""Jo"" Lee")',
  ],
  [
    'a quote inside a quoted value, not doubled',
    (rows) => [...csvLines(rows.slice(0, 2)), csvLines([rows[2]!])[0]!.replace(/^([^,]*),([^,]*),/, '$1,"Ann "Jo" Lee",'), ...csvLines(rows.slice(3))].join('\n') + '\n',
    () => 'row 3: a quote inside a value that is not quoted whole (quote the value and double each quote in it: "Ann ""Jo"" Lee")',
  ],
  [
    // The panel read no header at all: each column "missing (columns: none)"; the contact source
    // said a quote inside a value, where the quote closed in a record further on.
    'a quote the header opens and never closes',
    (rows) => `"${stringify(rows)}`,
    () => 'row 1: the header opens a quote it does not close on its line: quote a column name whole, or not at all',
  ],
  [
    // The panel's was csv-parse's "cannot be read as CSV: Invalid Opening Quote: a quote is found on field 1 at line 1, value is "na"".
    'a quote inside a header cell not quoted whole',
    (rows) => stringify([rows[0]!.map((c, k) => (k === 1 ? `${c.slice(0, 2)}"${c.slice(2)}"` : c)), ...rows.slice(1)], { quote: false }),
    () => 'row 1: a quote inside a value that is not quoted whole (quote the value and double each quote in it: "Ann ""Jo"" Lee")',
  ],
  [
    // A file of one record: each column "missing", or the panel's "the header names false twice" six times.
    'one line, a record and no header',
    (rows) => stringify(rows.slice(1, 2)),
    (rows) => `row 1: the first line names none of the columns (${rows[0]![0]}, ${rows[0]![1]}, …) and begins ${JSON.stringify(rows[1]![0])}: is the header row left out, or is it another file? the first line of a CSV file names its columns`,
  ],
  [
    'records without their header row',
    (rows) => stringify(rows.slice(1)),
    (rows) => `row 1: the first line names none of the columns (${rows[0]![0]}, ${rows[0]![1]}, …) and begins ${JSON.stringify(rows[1]![0])}: is the header row left out, or is it another file? the first line of a CSV file names its columns`,
  ],
];

describe('a messy CSV file is refused in the same words at every door that reads CSV', () => {
  for (const name of DOORS) {
    it.each(FAULTS)(`${name}: %s`, async (_what, edit, said) => {
      const dir = await messy(name, edit);
      const rows = parse(await readFile(path.join(clean, name), 'utf8')) as string[][];
      const line = `${path.join(dir, name)}: ${said(rows)}`;
      const out = path.join(await dirs.make(), 'out');
      const r = await runCli(['publish', '--input', dir, '--all', '--out', out, '--runs', `${out}.runs`, '--cards', 'none']);
      expect([r.code, r.stdout, r.stderr]).toEqual([2, '', `storelens: ${line}\n`]);
      const check = await runCli(['publish', '--check', '--input', dir]);
      expect(check.code).toBe(2);
      expect(check.stdout.trim().split('\n')).toEqual([line]);
    });
  }
});

describe('empty lines before a CSV file\'s header', () => {
  it('are skipped at every door: the files read as they do without them', async () => {
    const dir = await dirs.make();
    await cp(clean, dir, { recursive: true });
    for (const name of DOORS) await writeFile(path.join(dir, name), `\n\n${await readFile(path.join(clean, name), 'utf8')}`);
    const [before, after] = await Promise.all([clean, dir].map((d) => runCli(['publish', '--check', '--input', d])));
    expect([after!.code, after!.stderr.replace(dir, '<panel>')]).toEqual([0, before!.stderr.replace(clean, '<panel>')]);
    expect(before!.stderr).toMatch(/and contacts\.csv: \d+ store-months, every check passed/);
  });
});

describe('a CSV file whose header ends CRLF and whose records end LF', () => {
  it('is read by the contact source as the same file with one kind of line end, and refused by the panel naming the row', async () => {
    // The panel's was DuckDB's "cannot be read as CSV: The CSV Parser state machine reached an invalid state".
    const dir = await dirs.make();
    await cp(clean, dir, { recursive: true });
    for (const name of DOORS) await writeFile(path.join(dir, name), (await readFile(path.join(clean, name), 'utf8')).replace('\n', '\r\n'));
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect([r.code, r.stdout.trim()]).toEqual([
      2,
      `${path.join(dir, '2026-09.csv')}: row 2: the line ends with LF where the header ends with CRLF (line ends mixed in one file, as lines added by another program leave them), which the panel's reader cannot read: save the file with one kind of line end, all CRLF or all LF`,
    ]);
    await cp(path.join(clean, '2026-09.csv'), path.join(dir, '2026-09.csv'));
    const [before, after] = await Promise.all([clean, dir].map((d) => runCli(['publish', '--check', '--input', d])));
    expect([after!.code, after!.stderr.replace(dir, '<panel>')]).toEqual([0, before!.stderr.replace(clean, '<panel>')]);
  });
});

describe('a CRLF panel CSV file ending with an empty line ended LF', () => {
  it('names the last row, the empty line after it, and the line ends', async () => {
    // The empty line is no row: the message named row 59 of a file whose last row is 58.
    const dir = await dirs.make();
    await cp(clean, dir, { recursive: true });
    const file = path.join(dir, '2026-09.csv');
    const text = await readFile(file, 'utf8');
    await writeFile(file, `${text.replaceAll('\n', '\r\n')}\n`);
    const last = (parse(text) as string[][]).length;
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect([r.code, r.stdout.trim()]).toEqual([
      2,
      `${file}: row ${last}: the empty line after it ends with LF where the header ends with CRLF (line ends mixed in one file, as lines added by another program leave them), which the panel's reader cannot read: save the file with one kind of line end, all CRLF or all LF`,
    ]);
  });
});

describe('a panel CSV line longer than DuckDB reads', () => {
  it('names its row, its column and the limit, in words', async () => {
    // DuckDB's "Maximum line size of 2000000 bytes exceeded. Actual Size:2200128 bytes."
    const dir = await messy('2026-09.csv', (rows) => stringify(rows.map((r, i) => (i === 3 ? r.map((c, k) => (k === 3 ? 'x'.repeat(2_200_000) : c)) : r))));
    const rows = parse(await readFile(path.join(clean, '2026-09.csv'), 'utf8')) as string[][];
    const bytes = Buffer.byteLength(stringify([rows[3]!.map((c, k) => (k === 3 ? 'x'.repeat(2_200_000) : c))])) - 1;
    const r = await runCli(['publish', '--check', '--input', dir]);
    expect([r.code, r.stdout.trim()]).toEqual([
      2,
      `${path.join(dir, '2026-09.csv')}: row 4, column ${rows[0]![3]}: the line is ${bytes.toLocaleString('en-US')} bytes long, past the 2,000,000 bytes a CSV line may be: a value that long is no panel value (a document pasted into a cell?); shorten it, or leave its column out of the file`,
    ]);
  });
});
