/**
 * What is wrong with a panel file (or the contact source) that cannot be read, said in words, the
 * same at every door that reads CSV: compression and encoding are recognised from the file's first
 * bytes, a CSV record's fault from DuckDB's report or csv-parse's (its header, once the read
 * failed, from the file's first line), an NDJSON record's by reading the file up to it (DuckDB's
 * line numbers count neither from the record nor from 1 reliably). Nothing of the file's bytes is
 * echoed but printable text.
 */
import { isUtf8 } from 'node:buffer';
import { createReadStream } from 'node:fs';
import { constants } from 'node:fs';
import { access, open, readlink, stat } from 'node:fs/promises';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { CliError } from '../core/errors.js';
import { repeatedMember } from '../core/json-members.js';
import { lineEndFault, lineEndWords } from './line-ends.js';

export type PanelFormat = 'csv' | 'parquet' | 'ndjson';

/** The file a reader is reading: its path and its format. */
export interface ReadFile {
  file: string;
  format: PanelFormat;
}

/** Magic numbers of the compressions a delivery may arrive in. */
const COMPRESSIONS: { name: string; magic: number[]; tool: string; extensions: string[] }[] = [
  { name: 'gzip', magic: [0x1f, 0x8b], tool: 'gunzip', extensions: ['gz', 'gzip'] },
  { name: 'zstd', magic: [0x28, 0xb5, 0x2f, 0xfd], tool: 'unzstd', extensions: ['zst'] },
  { name: 'bzip2', magic: [0x42, 0x5a, 0x68], tool: 'bunzip2', extensions: ['bz2'] },
  { name: 'xz', magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], tool: 'unxz', extensions: ['xz'] },
  { name: 'zip', magic: [0x50, 0x4b, 0x03, 0x04], tool: 'unzip', extensions: ['zip'] },
];

/** The tool that decompresses a file named with `extension` (lower case, no dot), if it names a compression. */
export const decompressorOf = (extension: string): string | undefined => COMPRESSIONS.find((c) => c.extensions.includes(extension))?.tool;

/**
 * Refuses a file that is compressed (whatever its name says) or, for text formats, UTF-16
 * encoded: read from its first bytes, before any parser sees it.
 */
export async function sniffFile(f: ReadFile): Promise<void> {
  const head = await firstBytes(f.file, 8);
  const packed = COMPRESSIONS.find((c) => c.magic.every((b, i) => head[i] === b));
  if (packed?.name === 'zip') {
    // A spreadsheet (.xlsx, .ods) is a zip archive: renamed .csv, it is no CSV once unzipped either.
    throw new CliError(`${f.file}: a zip archive (its first bytes are zip's), such as a spreadsheet (.xlsx, .ods) renamed: save the sheet as ${kind(f)}, or unzip the archive first`);
  }
  if (packed) {
    throw new CliError(`${f.file}: ${packed.name}-compressed (its first bytes are ${packed.name}'s): decompress it (${packed.tool}) first; it is read as plain ${kind(f)}`);
  }
  if (f.format !== 'parquet' && ((head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff))) {
    throw new CliError(`${f.file}: not UTF-8 encoded (it starts with a UTF-16 byte order mark): save it as UTF-8`);
  }
  // UTF-16 without a byte order mark: every letter of the header beside a NUL byte. Read on, its
  // header named each column with NULs between the letters: "the required column store_id is
  // missing (columns: store_id, …)".
  if (f.format !== 'parquet' && head.length >= 4 && ((head[1] === 0 && head[3] === 0 && head[0] !== 0) || (head[0] === 0 && head[2] === 0 && head[1] !== 0))) {
    throw new CliError(`${f.file}: not UTF-8 encoded (UTF-16: a NUL byte beside every letter, without a byte order mark): save it as UTF-8`);
  }
}

const kind = (f: ReadFile): string => ({ csv: 'CSV text', ndjson: 'NDJSON text', parquet: 'Parquet' })[f.format];

/** Printable text of at most `max` characters (an error may quote bytes of the file). */
export const printable = (s: string, max = 200): string => {
  // eslint-disable-next-line no-control-regex
  const clean = s.replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\ufffd]/g, '?').replace(/\s+/g, ' ').trim();
  return clean.length > max ? `${clean.slice(0, max)}…` : clean;
};

const NOT_UTF8 = 'not UTF-8 encoded (a byte sequence that is not UTF-8, as Latin-1 or Windows-1252 write é): save the file as UTF-8';

/** DuckDB's CSV errors name the line; say it as file, row and what is wrong in words. */
async function csvReadError(f: ReadFile, message: string): Promise<CliError | null> {
  const at = /CSV Error on Line: (\d+)/.exec(message);
  if (!at) return null;
  const row = await rowOfRecord(f.file, Number(at[1]));
  // DuckDB prints the error line, "Original Line:" and the record (it may span lines), then
  // the reason, then "Possible fixes:" or "Possible Solution:": the reason is the last line
  // before them that is not the record's.
  const lines = message.split('\n').map((l) => l.trim());
  const original = lines.findIndex((l) => l.startsWith('Original Line'));
  const fixes = lines.findIndex((l, i) => i > original && /^Possible (fixes|Solution)/.test(l));
  const reason = original >= 0 && fixes > original ? (lines.slice(original + 1, fixes).filter(Boolean).pop() ?? '') : '';
  // The record as DuckDB shows it (its first 10,000 bytes; after a CRLF line end, from the LF).
  const record = (/\nOriginal Line: ([\s\S]*?)\n(Expected Number of Columns|Maximum line size|Value with unterminated quote)/.exec(message)?.[1] ?? '').replace(/^[\r\n]+/, '');
  const fields = /Expected Number of Columns: (\d+) Found: (\d+)/.exec(reason);
  const tooLong = /Maximum line size of (\d+) bytes exceeded\. Actual Size: ?(\d+) bytes/.exec(reason);
  if (tooLong) {
    // DuckDB shows the line's first 10,000 bytes: the value it cuts runs on past them.
    const column = (await csvHeader(f.file))[fieldAt(record)];
    return new CliError(`${f.file}: row ${row}${column === undefined ? '' : `, column ${column}`}: ${lineTooLong(Number(tooLong[2]), Number(tooLong[1]))}`);
  }
  // A line of only spaces is read as a record of one value: said as what it is.
  if (fields && fields[2] === '1' && isBlankRecord(record)) return new CliError(`${f.file}: row ${row}: ${BLANK_LINE}`);
  // A lone CR in a line (where the lines end with CRLF) ended the record there, and a part of it is told as too few fields.
  const ends = fields ? await lineEndFault(f.file, { toRow: row }) : null;
  if (ends && ends.row <= row) return new CliError(`${f.file}: ${lineEndWords(ends)}`);
  const words = fields
    ? fieldCount(Number(fields[2]), Number(fields[1]))
    : /not utf-8 encoded/i.test(reason)
      ? NOT_UTF8
      : /unterminated quote/i.test(reason)
        ? quoteFault(record)
        : reason
          ? printable(reason)
          : 'malformed record';
  return new CliError(`${f.file}: row ${row}: ${words}`);
}

/**
 * The row a panel message names for DuckDB's CSV record `n` (its "Line", which counts records,
 * a quoted value's line breaks not, and empty lines as records): the rows of every other message,
 * at the panel and at the contact source, skip empty lines, so those before it are taken off.
 */
async function rowOfRecord(file: string, n: number): Promise<number> {
  if (n <= 1) return n;
  const source = createReadStream(file);
  let empty = 0;
  try {
    const records = source.pipe(parseStream({ bom: true, skip_empty_lines: false, relax_column_count: true, relax_quotes: true, to: n - 1, record_delimiter: ['\r\n', '\n', '\r'] }));
    source.once('error', (e) => records.destroy(e)); // a file gone meanwhile: DuckDB's count, below
    for await (const r of records as AsyncIterable<string[]>) if (r.length === 1 && r[0] === '') empty++;
  } catch {
    return n; // a file csv-parse cannot read to there (or gone): DuckDB's count, as it is
  } finally {
    source.destroy(); // the records before it are read: not the rest of the file
  }
  return n - empty;
}

/** What a CSV record of `found` values where the header has `expected` is told (after `row N: `). */
const fieldCount = (found: number, expected: number): string =>
  `${found} fields where the header has ${expected}${found > expected ? ' (a value holding a comma is quoted whole: "Lee, Ann")' : ''}`;

const UNCLOSED_QUOTE = 'a quoted value is never closed (unterminated quote)';

/** What a quote in a value CSV does not read is told (`"AU"x`, `"Ann "Jo" Lee"`), where a reader stops on it. */
const QUOTE_INSIDE = 'a quote inside a value that is not quoted whole (quote the value and double each quote in it: "Ann ""Jo"" Lee")';

/**
 * What DuckDB's "unterminated quote" in `record` is: a value whose quote runs on unclosed, or
 * text after a quote that closed (`"AU"x`, which DuckDB says the same of), told as the contact
 * source's reader (csv-parse) tells it.
 */
function quoteFault(record: string): string {
  try {
    parse(record, { relax_column_count: true });
  } catch (e) {
    const code = (e as { code?: string }).code;
    if (code === 'CSV_INVALID_CLOSING_QUOTE' || code === 'INVALID_OPENING_QUOTE') return QUOTE_INSIDE;
  }
  return UNCLOSED_QUOTE;
}

/** What a header line holding an odd number of quotes is told: a reader's quote runs on into the records, and its fault is said there. */
const HEADER_QUOTE = 'row 1: the header opens a quote it does not close on its line: quote a column name whole, or not at all';

/**
 * The header line of a CSV file (from its first 64 KiB): its first line that is not empty, as
 * csvLayout and the contact source's reader take the header, without a byte order mark.
 */
async function headLine(file: string): Promise<string> {
  return (await firstBytes(file, 1 << 16)).toString('utf8').replace(/^\ufeff/, '').replace(/^[\r\n]+/, '').split(/[\r\n]/, 1)[0]!;
}

/**
 * A csv-parse error (the contact source's records, the panel's header) in the words DuckDB's are
 * said in: the row, counted as records with the header as row 1 (a value's line breaks do not
 * count), and what is wrong; a header separated otherwise (a quote beside a `;` stops the parse)
 * said as such, read after the failure.
 */
export async function csvParseError(file: string, e: unknown): Promise<CliError> {
  const err = e as Error & { code?: string; records?: number; record?: string[] };
  const head = await csvHeadFault(file, 'store_id');
  if (head) return new CliError(`${file}: ${head}`);
  if (typeof err.records !== 'number') return new CliError(`${file}: ${printable(err.message.split('\n')[0]!)}`);
  if (err.records === 0 && (await headLine(file)).split('"').length % 2 === 0) return new CliError(`${file}: ${HEADER_QUOTE}`);
  const row = `${file}: row ${err.records + 1}`;
  const fields = /expect (\d+), got (\d+)/.exec(err.message);
  // A lone CR in a line (where the lines end otherwise) ended the record there, and a part of it is told as too few fields.
  const ends = err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' ? await lineEndFault(file, { mixed: true, toRow: err.records + 1 }) : null;
  if (ends && ends.row <= err.records + 1) return new CliError(`${file}: ${lineEndWords(ends)}`);
  if (err.code === 'CSV_RECORD_INCONSISTENT_FIELDS_LENGTH' && fields) {
    // A line of only spaces is read as a record of one value: said as what it is.
    return new CliError(`${row}: ${err.record?.length === 1 && isBlankRecord(err.record[0]!) ? BLANK_LINE : fieldCount(Number(fields[2]), Number(fields[1]))}`);
  }
  if (err.code === 'CSV_QUOTE_NOT_CLOSED') return new CliError(`${row}: ${UNCLOSED_QUOTE}`);
  if (err.code === 'CSV_INVALID_CLOSING_QUOTE' || err.code === 'INVALID_OPENING_QUOTE') return new CliError(`${row}: ${QUOTE_INSIDE}`);
  return new CliError(`${row}: ${printable(err.message.split('\n')[0]!)}`);
}

/** What a CSV line of `bytes`, past the `max` a reader takes, is told (after `row N, column C: `). */
const lineTooLong = (bytes: number, max: number): string =>
  `the line is ${bytes.toLocaleString('en-US')} bytes long, past the ${max.toLocaleString('en-US')} bytes a CSV line may be: a value that long is no panel value (a document pasted into a cell?); shorten it, or leave its column out of the file`;

/** The place (from 0) of the value a CSV line (quote and escape `"`, separator `,`) ends in: its separators outside quotes. */
function fieldAt(line: string): number {
  let quoted = false;
  let at = 0;
  for (const c of line) {
    if (c === '"') quoted = !quoted;
    else if (c === ',' && !quoted) at++;
  }
  return at;
}

/**
 * The header of a CSV file, parsed by csv-parse (DuckDB then reads it without sniffing), and the
 * empty lines before it (`skip`: the header is the first line that is not empty, as the contact
 * source's reader takes it). A column without a name (a trailing comma on every line, as
 * spreadsheets export) is named `column<N>` by its place: one of the file's own columns,
 * ignored like any other.
 */
export async function csvLayout(file: string): Promise<{ header: string[]; skip: number }> {
  const head = await firstBytes(file, 1 << 20);
  // A byte order mark aside, the empty lines it begins with (CRLF, LF or CR each).
  let at = head[0] === 0xef && head[1] === 0xbb && head[2] === 0xbf ? 3 : 0;
  let skip = 0;
  for (; head[at] === 0x0a || head[at] === 0x0d; at++) if (head[at] === 0x0a || head[at + 1] !== 0x0a) skip++;
  let rows: string[][];
  try {
    rows = parse(skip ? head.subarray(at) : head, { to_line: 1, bom: true, relax_column_count: true }) as string[][];
  } catch (e) {
    throw await csvParseError(file, e);
  }
  // A quote the header opens and never closes ends csv-parse's first line nowhere: no row at all.
  if (rows.length === 0 && head.toString('utf8').trim() !== '') throw new CliError(`${file}: ${HEADER_QUOTE}`);
  // A line of spaces before the header is read as a header of one column: said as what it is.
  if (rows[0]?.length === 1 && isBlankRecord(rows[0][0]!)) throw new CliError(`${file}: row 1: ${BLANK_LINE}`);
  return { header: (rows[0] ?? []).map((name, i) => (name.trim() === '' ? `column${i + 1}` : name)), skip };
}

export const csvHeader = async (file: string): Promise<string[]> => (await csvLayout(file)).header;

/** A byte order mark (PowerShell 5 and some editors write one) is no JSON, and DuckDB refuses it: said so of an NDJSON file's first line. */
export const NDJSON_BOM = 'the file starts with a byte order mark (BOM), which NDJSON does not take: save it as UTF-8 without BOM';

/**
 * A file that is one JSON array (a JSON export, pretty-printed or on one line), said so of its
 * first line: read as NDJSON, its first record was "cut off", or its objects one column named json.
 */
export const NDJSON_ARRAY = 'the file is a JSON array, where NDJSON has one JSON object per line: write each record on a line of its own, without the brackets (jq -c \'.[]\')';

/**
 * What an NDJSON `line` that parsed as JSON but is no object (null, a number, a text, an array) is
 * told at every door that reads NDJSON: what it is, as written (1e400 parses as Infinity, which
 * JSON.stringify writes null), and that each line holds one `what` object.
 */
export const notAnObject = (line: string, what: string): string => `not a JSON object (${clip(line.trim())}): NDJSON has one ${what} object per line`;

/** A line of a file as a message quotes it: its first 80 characters. */
export const clip = (line: string): string => (line.length > 80 ? `${line.slice(0, 80)}…` : line);

/**
 * True when a file starts as no NDJSON file does: with a byte order mark, or with `[` as its
 * first character that is not blank (a JSON array). DuckDB may read either without a word (a BOM
 * when it runs on one thread, as it does on a one-CPU machine), so its records are checked first.
 */
export async function startsAsNoNdjson(file: string): Promise<boolean> {
  const start = await firstBytes(file, 4096);
  return start.subarray(0, 3).equals(UTF8_BOM) || /^\s*\[/.test(start.toString('latin1'));
}

const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/**
 * The first NDJSON record that is not one JSON object of UTF-8 text, counted from 1 as the docs
 * count records (blank lines are no records); null when every record parses (of the first
 * `records`, when given: the file is read no further).
 */
export async function ndjsonReadError(f: ReadFile, records = Infinity): Promise<CliError | null> {
  let record = 0;
  const fault = (line: Buffer): string | null => {
    if (!isUtf8(line)) return NOT_UTF8;
    const text = line.toString('utf8');
    if (text.trim() === '') return null;
    record++;
    if (record === 1 && text.startsWith('\ufeff')) return NDJSON_BOM;
    if (record === 1 && text.trimStart().startsWith('[')) return NDJSON_ARRAY;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      const m = (e as Error).message;
      if (/end of JSON input|Unterminated string/i.test(m)) return `record ${record} is cut off: it ends before its JSON object is closed`;
      const at = /position (\d+)/.exec(m);
      return `record ${record} is not valid JSON${at ? ` (at character ${Number(at[1]) + 1})` : ''}`;
    }
    if (value === null || typeof value !== 'object' || Array.isArray(value)) return `record ${record} is ${notAnObject(text, 'store')}`;
    // JSON.parse keeps the last of a key named twice; DuckDB refuses the record, naming no row.
    const twice = keyNamedTwice(text, value);
    return twice === null ? null : `record ${record} ${twice}`;
  };
  const check = (line: Buffer): CliError | null => {
    const why = fault(line[line.length - 1] === 0x0d ? line.subarray(0, -1) : line);
    // A record of bytes that are not UTF-8 is counted when its line is not blank.
    return why ? new CliError(`${f.file}: row ${why === NOT_UTF8 ? record + 1 : record}: ${why}`) : null;
  };
  for await (const line of fileLines(f.file)) {
    const found = check(line);
    if (found) return found;
    if (record >= records) return null;
  }
  return null;
}

/**
 * "names the key "plan" twice: keep one …" when the JSON object `text` (parsed as `value`) names
 * a key twice, at any depth, or null: JSON.parse keeps the last value, so a record that means two
 * things would be read as one silently. Every NDJSON door (the panel, the contact source, `accounts
 * import`) refuses it in these words. A line naming no more keys than its object has is not scanned.
 */
export function keyNamedTwice(text: string, value: object): string | null {
  const keysWritten = text.match(/"\s*:/g)?.length ?? 0;
  if (keysWritten <= Object.keys(value).length) return null;
  const twice = repeatedMember(text)?.at(-1);
  return twice === undefined ? null : `names the key ${JSON.stringify(printable(twice, 60))} twice: keep one (which value is meant only the file can say)`;
}

/** A line of a file longer than a reader takes (`fileLines`' `max`), counted from 1. */
export class LineTooLong extends Error {
  constructor(
    readonly line: number,
    readonly max: number,
  ) {
    super(`line ${line} is longer than ${max} bytes`);
  }
}

/**
 * The lines of a file as bytes, without their `\n`, the last one too when the file does not end
 * with one. Streamed, a line's pieces joined once: a file past the longest string JavaScript holds
 * (512 MiB) reads as well as a small one, and a long line costs its length. Past `max` bytes a
 * line throws LineTooLong instead of being gathered.
 */
export async function* fileLines(file: string, max = Infinity): AsyncGenerator<Buffer> {
  let parts: Buffer[] = [];
  let length = 0;
  let line = 1;
  for await (const chunk of createReadStream(file)) {
    let buf = chunk as Buffer;
    for (let nl = buf.indexOf(0x0a); nl >= 0; nl = buf.indexOf(0x0a)) {
      if (length + nl > max) throw new LineTooLong(line, max);
      parts.push(buf.subarray(0, nl));
      yield parts.length === 1 ? parts[0]! : Buffer.concat(parts);
      parts = [];
      length = 0;
      line++;
      buf = buf.subarray(nl + 1);
    }
    if (buf.length) {
      length += buf.length;
      if (length > max) throw new LineTooLong(line, max);
      parts.push(buf);
    }
  }
  if (parts.length) yield Buffer.concat(parts);
}

/**
 * The first line (counted from 1) of a text file holding bytes that are not UTF-8, or null. A
 * reader that decodes with replacement (csv-parse, JSON.parse of a Buffer) would otherwise turn
 * Latin-1's é into U+FFFD silently; a line break is never part of a multi-byte character, so
 * the lines are UTF-8 exactly when each is, and a read's whole lines are checked at once (the
 * file is read again line by line to name the line only when some are not).
 */
export async function firstNonUtf8Line(file: string): Promise<number | null> {
  let parts: Buffer[] = [];
  let valid = true;
  for await (const chunk of createReadStream(file)) {
    const buf = chunk as Buffer;
    const first = buf.indexOf(0x0a);
    if (first < 0) {
      parts.push(buf);
      continue;
    }
    const last = buf.lastIndexOf(0x0a);
    parts.push(buf.subarray(0, first));
    valid = isUtf8(parts.length === 1 ? parts[0]! : Buffer.concat(parts)) && isUtf8(buf.subarray(first + 1, last));
    if (!valid) break;
    parts = [buf.subarray(last + 1)];
  }
  if (valid && isUtf8(Buffer.concat(parts))) return null;
  let n = 0;
  for await (const line of fileLines(file)) {
    n++;
    if (!isUtf8(line)) return n;
  }
  return null;
}

/** True when a text file holds nothing but blanks (an empty delivery), read from its first 64 KiB. */
async function blank(file: string): Promise<boolean> {
  const size = 1 << 16;
  const head = await firstBytes(file, size);
  return head.length < size && head.toString('utf8').trim() === '';
}

/**
 * A CSV or NDJSON file holding nothing but blanks (an export that failed, a transfer cut at its
 * start) refused as empty, or null. Parquet always carries its columns.
 */
export async function emptyFile(f: ReadFile): Promise<CliError | null> {
  if (f.format === 'parquet' || !(await blank(f.file))) return null;
  return new CliError(`${f.file}: row 1: the file is empty (${f.format === 'csv' ? 'no header row naming the columns, and no records' : 'no records'})`, 2);
}

/**
 * Refuses (exit 2, naming it) an entry of the panel folder that is no readable file: a folder, a
 * link to nothing, a file that cannot be opened. `what` says what the file should be.
 */
export async function requireFile(file: string, what: string): Promise<void> {
  let why: string | null = null;
  try {
    if (!(await stat(file)).isFile()) why = `not a file (${what})`;
    else await access(file, constants.R_OK);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    const link = await readlink(file).catch(() => null);
    why = code === 'ENOENT' && link !== null ? `a link to ${JSON.stringify(link)}, which does not exist (${what})` : `cannot be read (${code ?? (e as Error).message})`;
  }
  if (why) throw new CliError(`${file}: ${why}`, 2);
}

const SEPARATORS: Record<string, string> = { ';': 'semicolons', '\t': 'tabs', '|': 'vertical bars' };

/** A header cell as it names a column: blanks and a quote around it aside. */
const unquoted = (cell: string): string => cell.trim().replace(/^"(.*)"$/s, '$1').trim();

/**
 * What is wrong with a CSV header of one column that names `column` once split at a semicolon,
 * a tab or a vertical bar (a spreadsheet set to another list separator, a TSV named .csv), or
 * null: said once, rather than every column missing. `header` is the header as read, or (a read
 * that failed: csvFault) its line as it stands, where a quote beside the separator stops a reader
 * that splits at commas (a spreadsheet quotes a value holding its separator, or every value).
 */
export function wrongSeparator(header: readonly string[], column: string): string | null {
  // Compared as a header is (comparable): a name written otherwise (Store_ID) is still a header.
  const names = (sep: string) => header[0]!.split(sep).some((c) => comparable(unquoted(c)) === column);
  if (header.length !== 1 || names(',')) return null;
  const sep = Object.keys(SEPARATORS).find(names);
  if (sep === undefined) return null;
  const line = header[0]!.split(sep).map(unquoted).join(sep);
  return `row 1: the header ${JSON.stringify(printable(line, 60))} is separated by ${SEPARATORS[sep]}, where a CSV file is separated by commas; save it as comma-separated CSV`;
}

/** How a header is compared with the columns a file should have: case, spaces, dashes and dots aside. */
export const comparable = (name: string): string => name.trim().toLowerCase().replace(/[\s.-]+/g, '_');

/**
 * What a CSV header naming none of the `known` columns is told, once, or null: its first line is
 * a record (an export without its header row, or a file of that one line) or another file's
 * header, said so rather than each column missing (or a value "named twice").
 */
export function noHeader(header: readonly string[], known: readonly string[]): string | null {
  const names = new Set(known.map(comparable));
  if (header.some((h) => names.has(comparable(h)))) return null;
  return `row 1: the first line names none of the columns (${known.slice(0, 2).join(', ')}, …) and begins ${JSON.stringify(printable(header[0] ?? '', 60))}: is the header row left out, or is it another file? the first line of a CSV file names its columns`;
}

/**
 * A record of one value of only spaces or tabs: a line blank, but not empty (a CSV reader skips an
 * empty line only). A space is any the text rule trims (core/text.ts: the no-break space too).
 */
export const isBlankRecord = (value: string): boolean => /^[\p{Zs}\t]+$/u.test(value);

/** What a CSV record that is a line of only spaces or tabs is told (after `row N: `). */
export const BLANK_LINE = 'the line holds only spaces or tabs (blank, but not empty: an empty line is skipped, this one is read as a record of one value): delete the line';

/**
 * A CSV file whose read failed, told by its header line (headLine) when that line is blank (a
 * line of spaces before the header is read as the header) or separated otherwise (wrongSeparator,
 * naming `column`), or null: read after the failure, from the file's first bytes.
 */
async function csvHeadFault(file: string, column: string): Promise<string | null> {
  const line = await headLine(file);
  return isBlankRecord(line) ? `row 1: ${BLANK_LINE}` : wrongSeparator([line], column);
}

/** What a text file not in UTF-8 is told (file, line: firstNonUtf8Line). */
export const notUtf8 = (file: string, line: number): CliError => new CliError(`${file}: line ${line}: ${NOT_UTF8}`, 2);

/** A read of `f` failed with DuckDB's `message`: the CliError that says why, in words. */
export async function readError(f: ReadFile, message: string): Promise<CliError> {
  await sniffFile(f);
  if (f.format === 'csv') {
    // A header separated otherwise stops the read as a quote out of place, or the header itself; a blank one as a record of too many fields.
    const head = await csvHeadFault(f.file, 'store_id');
    if (head) return new CliError(`${f.file}: ${head}`);
    const e = await csvReadError(f, message);
    if (e) return e;
    if (/not utf-8 encoded/i.test(message)) return new CliError(`${f.file}: ${NOT_UTF8}`);
  }
  if (f.format === 'ndjson') {
    const e = await ndjsonReadError(f);
    if (e) return e;
  }
  if (f.format === 'csv' && /state machine reached an invalid state/i.test(message)) {
    // A line that ends unlike the header (DuckDB reads every line end as the first line's) is DuckDB's "state machine reached an invalid state".
    const ends = await lineEndFault(f.file);
    if (ends) return new CliError(`${f.file}: ${lineEndWords(ends)}`);
  }
  if (f.format === 'parquet' && /No magic bytes found at end of file|too small to be a Parquet file/i.test(message)) {
    const e = await notParquet(f);
    if (e) return e;
  }
  const what = f.format === 'parquet' ? 'not a readable Parquet file' : `cannot be read as ${f.format.toUpperCase()}`;
  return new CliError(`${f.file}: ${what}: ${printable(message.split('\n')[0].replace(/^[A-Za-z ]*Error: /, ''))}`);
}

/** The first bytes of a file (at most `n`). */
async function firstBytes(file: string, n: number): Promise<Buffer> {
  const handle = await open(file, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(n), 0, n, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Why a file named .parquet has no Parquet footer, in words, or null: empty, cut short (it begins
 * as Parquet: a copy or a download that stopped), or another format under a .parquet name.
 */
async function notParquet(f: ReadFile): Promise<CliError | null> {
  const size = (await stat(f.file)).size;
  if (size === 0) return new CliError(`${f.file}: the file is empty (0 bytes): an export or a copy that failed? deliver the month's Parquet file again`);
  const head = await firstBytes(f.file, 4);
  if (head.toString('latin1') === 'PAR1') {
    return new CliError(`${f.file}: not a readable Parquet file: cut short (it begins as Parquet but lacks the end every Parquet file has: a copy or a download that stopped?): deliver the whole file again`);
  }
  return new CliError(`${f.file}: not a Parquet file (it does not begin with Parquet's bytes, PAR1: another format named .parquet?): save the month as Parquet, or name it for its format (.csv, .ndjson)`);
}
