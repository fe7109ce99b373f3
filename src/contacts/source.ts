/**
 * The contact source: an optional `contacts.{csv,parquet,ndjson}` the data team puts beside the
 * panel (columns store_id, name, email, role, source). `publish` checks it and carries it into
 * the private runs folder, content-addressed; `ingest` loads the one index.json names into
 * store_contacts. It is never published.
 *
 *   <runs>/index.json                                 {…, "contacts": "<contacts id>"}
 *   <runs>/contacts/<contacts id>/contacts.ndjson     the checked rows, normalised, sorted
 *
 * The contacts id is the sha256 hex of contacts.ndjson: the same contacts (in any of the three
 * formats, in any order) give the same id, so publishing them again writes nothing.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream, type WriteStream } from 'node:fs';
import { copyFile, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import { parse as parseStream } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import type { StoreContact } from './store.js';
import { CliError } from '../core/errors.js';
import { writeAnew } from '../core/runs-contract.js';
import { CONTACTS_FILE, storeIdRefusal } from '../core/panel-contract.js';
import { type Duck, lit, openDuck, type DuckMemory } from '../panel/duck.js';
import { byStoreThenEmail, LineSort, type SortEntry } from './line-sort.js';
import { EMAIL_MAX, isNormalisedEmail, normaliseEmail } from '../core/email.js';
import { csvParseError, emptyFile, firstNonUtf8Line, keyNamedTwice, NDJSON_ARRAY, NDJSON_BOM, noHeader, notAnObject, notUtf8, printable, requireFile, sniffFile, wrongSeparator, type PanelFormat } from '../panel/read-errors.js';
import { UNSTORABLE, unstorable } from '../core/storable-text.js';
import { keptText } from '../core/text.js';

export const CONTACTS_DIR = 'contacts';
export const CONTACTS_DATA = 'contacts.ndjson';
const COLUMNS = ['store_id', 'name', 'email', 'role', 'source'] as const;
const TEXT_MAX = 200;

/** One record of the source as read: its row number (as a person would count it) and its cells. */
interface RawRecord {
  row: number;
  cells: Record<string, unknown>;
}

/** The contact file in a panel folder, or null; two of them is bad input. */
export async function findContactsFile(panelDir: string): Promise<string | null> {
  const names = (await readdir(panelDir)).filter((n) => CONTACTS_FILE.test(n)).sort();
  if (names.length > 1) throw new CliError(`${panelDir}: ${names.join(' and ')}: keep one contacts file (contacts.csv, contacts.parquet or contacts.ndjson)`);
  if (!names.length) return null;
  const file = path.join(panelDir, names[0]!);
  await requireFile(file, 'the contact source is one contacts.csv, .parquet or .ndjson file');
  return file;
}

/** Reads and checks a contact file; a problem names the file, row and column (exit 2). */
export async function readContactsFile(file: string): Promise<StoreContact[]> {
  const format = CONTACTS_FILE.exec(path.basename(file))?.[1] ?? path.extname(file).slice(1);
  await checkUtf8(file, format);
  const { columns, records } = format === 'parquet' ? await readParquet(file) : format === 'ndjson' ? await readNdjson(file) : await readCsv(file);
  if (columns) {
    const missing = missingColumn(file, format, columns);
    if (missing) throw missing;
  }
  return checkContacts(file, records);
}

/** The first required column a contact file's header lacks, as its refusal (a header separated by `;`, or no header, said once), or null. */
function missingColumn(file: string, format: string, columns: readonly string[]): CliError | null {
  const separated = format === 'csv' ? (wrongSeparator(columns, 'store_id') ?? noHeader(columns, COLUMNS)) : null;
  if (separated) return new CliError(`${file}: ${separated}`, 2);
  const missing = ['store_id', 'email'].find((c) => !columns.includes(c));
  return missing ? new CliError(`${file}: row 1, column ${missing}: the required column ${missing} is missing (columns: ${columns.join(', ') || 'none'})`, 2) : null;
}

/**
 * How a contact CSV is parsed (in memory and streamed alike). Every line may end CRLF, LF or CR,
 * whatever the first line ends with: a file whose header was saved LF and whose records were
 * appended CRLF would otherwise leave a CR at the end of each record's last cell, which the text
 * rule (core/text.ts) keeps.
 */
const CSV_OPTIONS = { bom: true, relax_column_count: false, skip_empty_lines: true, record_delimiter: ['\r\n', '\n', '\r'] };

async function readCsv(file: string): Promise<{ columns: string[]; records: RawRecord[] }> {
  let rows: string[][];
  try {
    rows = parse(await readFile(file), CSV_OPTIONS) as string[][];
  } catch (e) {
    throw await csvParseError(file, e);
  }
  const [header = [], ...body] = rows;
  const columns = header.map((h) => h.trim());
  const at = columnsAt(file, columns);
  const records: RawRecord[] = new Array(body.length);
  for (let i = 0; i < body.length; i++) {
    const r = body[i]!;
    const cells: Record<string, unknown> = {};
    for (const [c, k] of at) cells[c] = r[k];
    records[i] = { row: i + 2, cells };
  }
  return { columns, records };
}

/**
 * Where a CSV header has each of the source's columns (only those are read: an object of each
 * record's every cell cost more than checking it). A column named twice is refused, as the
 * panel refuses it: which of the two was meant only the file can say.
 */
function columnsAt(file: string, columns: readonly string[]): (readonly [string, number])[] {
  const twice = COLUMNS.find((c) => columns.indexOf(c) !== columns.lastIndexOf(c));
  if (twice) throw new CliError(`${file}: row 1, column ${twice}: the header names ${twice} twice`, 2);
  return COLUMNS.map((c) => [c, columns.indexOf(c)] as const).filter(([, k]) => k >= 0);
}

async function readNdjson(file: string): Promise<{ columns: null; records: RawRecord[] }> {
  const records: RawRecord[] = [];
  let row = 0;
  for (const line of (await readFile(file, 'utf8')).split('\n')) {
    if (line.trim() === '') continue;
    records.push(ndjsonRecord(file, ++row, line));
  }
  return { columns: null, records };
}

/** One NDJSON line of a contact file (not blank) as its record: a JSON object, or a CliError naming the row. */
function ndjsonRecord(file: string, row: number, line: string): RawRecord {
  if (row === 1 && line.trimStart().startsWith('[')) throw new CliError(`${file}: row 1: ${NDJSON_ARRAY}`, 2);
  let v: unknown;
  try {
    v = JSON.parse(line);
  } catch (e) {
    if (row === 1 && line.startsWith('\ufeff')) throw new CliError(`${file}: row 1: ${NDJSON_BOM}`, 2);
    throw new CliError(`${file}: row ${row}: not JSON (${firstLine(e)})`, 2);
  }
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new CliError(`${file}: row ${row}: ${notAnObject(line, 'contact')}`, 2);
  const twice = keyNamedTwice(line, v);
  if (twice !== null) throw new CliError(`${file}: row ${row}: ${twice}`, 2);
  return { row, cells: v as Record<string, unknown> };
}

/** A contact Parquet file's columns, and the query of its records as text in the file's order. */
async function parquetQuery(duck: Duck, file: string): Promise<{ columns: string[]; query: string }> {
  let described: { column_name: string }[];
  try {
    described = await duck.all(`DESCRIBE SELECT * FROM read_parquet(${lit(file)})`);
  } catch (e) {
    throw new CliError(`${file}: not a readable Parquet file (${firstLine(e)})`, 2);
  }
  const columns = described.map((d) => d.column_name);
  const select = COLUMNS.filter((c) => columns.includes(c)).map((c) => `CAST("${c}" AS VARCHAR) AS "${c}"`).join(', ') || '1 AS none';
  return { columns, query: `SELECT ${select} FROM read_parquet(${lit(file)}, file_row_number = true) ORDER BY file_row_number` };
}

async function readParquet(file: string): Promise<{ columns: string[]; records: RawRecord[] }> {
  const duck = await openDuck({ threads: 1 });
  try {
    const { columns, query } = await parquetQuery(duck, file);
    const rows = await duck.all<Record<string, string | null>>(query);
    return { columns, records: rows.map((cells, i) => ({ row: i + 1, cells })) };
  } finally {
    duck.close();
  }
}

/**
 * The checked rows: store_id and email required (the store id as every door takes one, the
 * email normalised), name, role and source optional text kept as every door keeps text
 * (core/text.ts: blanks trimmed, CRLF read as LF, Unicode NFC; nothing left ⇒ null), no U+0000
 * anywhere, one row per (store, email). `carried`: rows publish already checked (the runs
 * folder's), checked again but their text kept as it is (keeping it again could change it: the
 * panel's CRLF rule reads CR CR LF as CR LF).
 */
export function checkContacts(file: string, records: readonly RawRecord[], carried = false): StoreContact[] {
  const out: StoreContact[] = [];
  const seen = new Map<string, number>();
  for (const record of records) {
    const { row, ...contact } = checkContact(file, record, carried);
    const key = `${contact.store_id}\u0000${contact.email}`;
    const first = seen.get(key);
    if (first !== undefined) throw listedTwice(file, row, contact, first);
    seen.set(key, row);
    out.push(contact);
  }
  return out;
}

/** A problem of one cell. */
const bad = (file: string, row: number, column: string, what: string): CliError => new CliError(`${file}: row ${row}, column ${column}: ${what}`, 2);

/** A cell as text (null when absent): a string or number a database column keeps as it is. */
function cellText(file: string, row: number, column: string, v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v !== 'string' && typeof v !== 'number') throw bad(file, row, column, `expected text, got ${JSON.stringify(v)}`);
  // A JSON number past 2^53 was already rounded when the line was parsed: its text would be another id.
  if (typeof v === 'number' && Number.isInteger(v) && !Number.isSafeInteger(v)) throw bad(file, row, column, `a number too large to read exactly (${v}): write it as a JSON string`);
  const s = String(v);
  // A lone surrogate (an NDJSON \ud800) would be written as U+FFFD by the database drivers.
  if (unstorable(s)) throw bad(file, row, column, `${UNSTORABLE}, which no database column keeps`);
  return s;
}

/** An optional cell kept as every door keeps text (core/text.ts; as it is when `carried`), nothing left ⇒ null, at most TEXT_MAX characters. */
function optionalText(file: string, row: number, column: string, v: unknown, carried: boolean): string | null {
  const cell = cellText(file, row, column, v);
  const s = cell === null ? null : carried ? cell : keptText(cell);
  if (s !== null && s.length > TEXT_MAX) throw bad(file, row, column, `longer than ${TEXT_MAX} characters`);
  return s;
}

/** One record checked (checkContacts without the check for a repeated store and email), with its row. */
function checkContact(file: string, { row, cells }: RawRecord, carried = false): SortEntry {
  // 12.5 would read as "12.5" here and is refused by the panel (panel/read.ts): no store's id.
  if (typeof cells.store_id === 'number' && !Number.isInteger(cells.store_id)) throw bad(file, row, 'store_id', `a number with a fraction (${cells.store_id}) is no store id: write the id as a JSON string or an integer`);
  const storeId = cellText(file, row, 'store_id', cells.store_id) ?? '';
  // A store id as every door takes one (the API, `accounts import`, the panel in SQL): only
  // blanks is as empty as none; every other id keeps every character.
  const refused = storeIdRefusal(storeId);
  if (refused !== null) throw bad(file, row, 'store_id', refused);
  const rawEmail = cellText(file, row, 'email', cells.email);
  if (rawEmail === null || rawEmail.trim() === '') throw bad(file, row, 'email', 'email is required and empty');
  const email = normaliseEmail(rawEmail);
  if (rawEmail.length > EMAIL_MAX || !isNormalisedEmail(email)) throw bad(file, row, 'email', `expected an email address, got ${JSON.stringify(rawEmail.slice(0, 80))}`);
  return {
    store_id: storeId,
    email,
    name: optionalText(file, row, 'name', cells.name, carried),
    role: optionalText(file, row, 'role', cells.role, carried),
    source: optionalText(file, row, 'source', cells.source, carried),
    row,
  };
}

const listedTwice = (file: string, row: number, c: Pick<StoreContact, 'store_id' | 'email'>, first: number): CliError =>
  new CliError(`${file}: row ${row}, column email: ${JSON.stringify(c.email)} is listed twice for store ${JSON.stringify(c.store_id)} (first at row ${first})`, 2);

/** One contact as a line of contacts.ndjson (without its newline). */
const contactLine = (r: StoreContact): string => JSON.stringify({ store_id: r.store_id, email: r.email, name: r.name, role: r.role, source: r.source });

/** The runs folder's form of checked contacts: their bytes and content id. */
export function contactsData(rows: readonly StoreContact[]): { id: string; bytes: Buffer } {
  const text = [...rows].sort(byStoreThenEmail).map((r) => contactLine(r) + '\n').join('');
  const bytes = Buffer.from(text);
  return { id: createHash('sha256').update(bytes).digest('hex'), bytes };
}

export const contactsDir = (runsDir: string, id: string): string => path.join(runsDir, CONTACTS_DIR, id);

/** A contact source's contacts.ndjson and its id: in memory, or in a file (moved into the runs folder when written). */
export type ContactsData = { id: string; bytes: Buffer } | { id: string; file: string };

/** Renames `from` to `to`, or copies it across file systems. */
async function moveFile(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

/** Writes a contacts folder (complete or absent: written beside and renamed in); one already there is kept. */
export async function writeContactsRun(runsDir: string, data: ContactsData): Promise<void> {
  const final = contactsDir(runsDir, data.id);
  if (await stat(path.join(final, CONTACTS_DATA)).then(() => true, () => false)) return;
  await mkdir(path.join(runsDir, CONTACTS_DIR), { recursive: true });
  const tmp = path.join(runsDir, CONTACTS_DIR, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    if ('bytes' in data) await writeFile(path.join(tmp, CONTACTS_DATA), data.bytes);
    else await moveFile(data.file, path.join(tmp, CONTACTS_DATA));
    await rename(tmp, final).catch(async (e: NodeJS.ErrnoException) => {
      if ((e.code === 'ENOTEMPTY' || e.code === 'EEXIST') && (await stat(path.join(final, CONTACTS_DATA)).then(() => true, () => false))) return;
      throw e;
    });
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Removes every contacts folder but `keep` (after index.json stopped naming them). */
export async function pruneContactsRuns(runsDir: string, keep: string | null): Promise<void> {
  const dir = path.join(runsDir, CONTACTS_DIR);
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name !== keep) await rm(path.join(dir, name), { recursive: true, force: true });
  }
}

/**
 * Reads the contacts folder index.json names, checked whole: its bytes must hash to its id and
 * every row must pass the source's checks (a problem names the file, row and column).
 */
export async function readContactsRun(runsDir: string, id: string): Promise<StoreContact[]> {
  const file = path.join(contactsDir(runsDir, id), CONTACTS_DATA);
  const bytes = await readFile(file).catch((e: NodeJS.ErrnoException) => {
    const what = e.code === 'ENOENT' ? `missing (index.json names this contact source, but its folder is incomplete or gone); ${writeAnew(path.dirname(file))}` : e.message;
    throw new CliError(`${file}: ${what}`, 2);
  });
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== id) throw new CliError(`${file}: its content does not match its id (sha256 ${got.slice(0, 12)}…, index.json says ${id.slice(0, 12)}…); ${writeAnew(path.dirname(file))}`, 2);
  const { records } = await readNdjson(file);
  return checkContacts(file, records, true);
}

const firstLine = (e: unknown): string => String((e as Error).message ?? e).split('\n')[0]!;

/** Where contactsToCarry writes the checked source it carries, and what its sort may hold in memory. */
export interface CarryScratch {
  /** a private folder of the run: the checked contacts.ndjson waits there until the runs folder takes it */
  dir: string;
  /** the run's memory limit: the sort holds at most a quarter of it, 128 MiB at most (spilling beyond it, into a folder inside `dir`) */
  limitBytes?: number;
}

/**
 * What publish must change about the contact source in the runs folder: undefined when the
 * folder holds the panel's source already; else the id to point index.json at (null: the panel
 * has no contacts file any more) and the data to write. The file is checked here, before publish
 * writes anything. With `scratch`, the source is checked a record at a time and its data written
 * to a file there (writeCheckedContacts): memory does not grow with the number of contacts.
 */
export async function contactsToCarry(
  panelDir: string,
  runsDir: string,
  current: string | undefined,
  scratch?: CarryScratch,
): Promise<{ id: string | null; data: ContactsData | null } | undefined> {
  const file = await findContactsFile(panelDir);
  let data: ContactsData | null = null;
  if (file && scratch) {
    await mkdir(scratch.dir, { recursive: true });
    const out = path.join(scratch.dir, `contacts-${process.pid}-${randomBytes(4).toString('hex')}.ndjson`);
    data = { id: await writeCheckedContacts(file, out, { limitBytes: scratch.limitBytes, spillDir: path.join(scratch.dir, 'spill') }), file: out };
  } else if (file) {
    data = contactsData(await readContactsFile(file));
  }
  const id = data?.id ?? null;
  const present = id === null || (await stat(path.join(contactsDir(runsDir, id), CONTACTS_DATA)).then(() => true, () => false));
  if (id === (current ?? null) && present) {
    if (data && 'file' in data) await rm(data.file, { force: true });
    return undefined;
  }
  return { id, data };
}

/** A record of a contact file, or (first, from CSV and Parquet) the file's columns. */
type ReadItem = RawRecord | { columns: string[] };

/**
 * The records of a contact file in the file's order (readContactsFile's rows and cells), as
 * many at a time as a read of the file gives: one await per record cost more than checking it.
 */
async function* streamRecords(file: string): AsyncGenerator<ReadItem[]> {
  const format = CONTACTS_FILE.exec(path.basename(file))?.[1] ?? path.extname(file).slice(1);
  await checkUtf8(file, format);
  yield* format === 'parquet' ? parquetRecords(file) : format === 'ndjson' ? ndjsonRecords(file) : csvRecords(file);
}

/**
 * A CSV or NDJSON contact file is UTF-8 throughout (its readers would replace other bytes by
 * U+FFFD), or is refused naming the line; and holds something: a blank file (an export that
 * failed) is refused as the panel refuses one, not carried as a source of no contacts (a CSV
 * header and no records is one).
 */
async function checkUtf8(file: string, format: string): Promise<void> {
  // A compressed or UTF-16 file said as such, as the panel says it, not as Latin-1 or as a header "PK".
  await sniffFile({ file, format: format as PanelFormat });
  if (format === 'parquet') return;
  const line = await firstNonUtf8Line(file);
  if (line !== null) throw notUtf8(file, line);
  const empty = await emptyFile({ file, format: format as 'csv' | 'ndjson' });
  if (empty) throw empty;
}

/**
 * What a readable stream of objects holds, as many as it holds at a time, in order; its error
 * after what it gave before it.
 */
async function* readBatches<T>(stream: Readable): AsyncGenerator<T[]> {
  let wake = () => {};
  let failure: { error: unknown } | undefined;
  let ended = false;
  const onReadable = () => wake();
  const onEnd = () => {
    ended = true;
    wake();
  };
  const onError = (error: unknown) => {
    failure = { error };
    wake();
  };
  stream.on('readable', onReadable).on('end', onEnd).on('error', onError);
  try {
    for (;;) {
      const batch: T[] = [];
      for (let r = stream.read() as T | null; r !== null; r = stream.read() as T | null) batch.push(r);
      if (batch.length) yield batch;
      else if (failure) throw failure.error;
      else if (ended) return;
      else await new Promise<void>((resolve) => (wake = resolve));
    }
  } finally {
    stream.off('readable', onReadable).off('end', onEnd).off('error', onError);
  }
}

async function* csvRecords(file: string): AsyncGenerator<ReadItem[]> {
  const input = createReadStream(file);
  const parser = parseStream(CSV_OPTIONS);
  input.on('error', (e) => parser.destroy(e));
  input.pipe(parser);
  let at: (readonly [string, number])[] | undefined;
  let row = 1;
  try {
    for await (const rows of readBatches<string[]>(parser)) {
      const items: ReadItem[] = [];
      for (const r of rows) {
        if (at === undefined) {
          const columns = r.map((h) => h.trim());
          at = columnsAt(file, columns);
          items.push({ columns });
          continue;
        }
        const cells: Record<string, unknown> = {};
        for (const [c, k] of at) cells[c] = r[k];
        items.push({ row: ++row, cells });
      }
      yield items;
    }
  } catch (e) {
    throw e instanceof CliError ? e : await csvParseError(file, e);
  } finally {
    input.destroy();
    parser.destroy();
  }
  if (at === undefined) yield [{ columns: [] }];
}

async function* ndjsonRecords(file: string): AsyncGenerator<ReadItem[]> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  let row = 0;
  const record = (line: string): RawRecord | undefined => (line.trim() === '' ? undefined : ndjsonRecord(file, ++row, line));
  for await (const chunk of createReadStream(file)) {
    const lines = (rest + decoder.write(chunk as Buffer)).split('\n');
    rest = lines.pop()!;
    const items: RawRecord[] = [];
    for (const line of lines) {
      const r = record(line);
      if (r) items.push(r);
    }
    yield items;
  }
  const r = record(rest + decoder.end());
  if (r) yield [r];
}

async function* parquetRecords(file: string): AsyncGenerator<ReadItem[]> {
  const duck = await openDuck({ threads: 1 });
  try {
    const { columns, query } = await parquetQuery(duck, file);
    yield [{ columns }];
    const result = await duck.conn.stream(query);
    let row = 0;
    for await (const rows of result.yieldRowObjectJson()) yield rows.map((cells) => ({ row: ++row, cells }));
  } finally {
    duck.close();
  }
}

/** The sort's budget when DuckDB's memory limit says none: at most this much held in memory (about 320,000 contacts). */
const SORT_BUDGET = 128 * 1024 ** 2;

/** Lines written (and hashed) at a time. */
const WRITE_ENTRIES = 2048;

/**
 * readContactsFile then contactsData, a record at a time: each record checked as it is read
 * (the first problem in the file's order stopping the run with the same message, a file that
 * cannot be read said first), the checked contacts' lines sorted within a budget (a quarter of
 * `memory.limitBytes`, at most 128 MiB; beyond it in run files in `memory.spillDir`, else beside
 * `out`), their repeats found and their sorted lines written to `out`.
 * Returns the contacts id: the bytes are contactsData's.
 */
export async function writeCheckedContacts(source: string, out: string, memory: DuckMemory = {}): Promise<string> {
  const budget = Math.min(SORT_BUDGET, memory.limitBytes === undefined ? Infinity : Math.floor(memory.limitBytes / 4));
  const sort = new LineSort(memory.spillDir ?? path.dirname(out), budget);
  let file: WriteStream | undefined;
  let done = false;
  try {
    let problem: CliError | undefined;
    for await (const batch of streamRecords(source)) {
      for (const r of batch) {
        // After the first problem the rest is only read: a file that cannot be read is said first.
        if (problem) break;
        if ('columns' in r) {
          problem = missingColumn(source, CONTACTS_FILE.exec(path.basename(source))?.[1] ?? path.extname(source).slice(1), r.columns) ?? undefined;
          continue;
        }
        let c: SortEntry;
        try {
          c = checkContact(source, r);
        } catch (e) {
          if (!(e instanceof CliError)) throw e;
          problem = e;
          break;
        }
        sort.push(c);
        if (sort.full) await sort.spill();
      }
    }
    const hash = createHash('sha256');
    file = createWriteStream(out);
    const failed = once(file, 'error').then(([e]) => Promise.reject(e as Error));
    failed.catch(() => {});
    // Every record kept comes before the problem's: a store and email listed twice among them is
    // the first problem, the one whose second row comes first (an entry equal to the one before is a repeat).
    let twice: { first: number; second: number; entry: SortEntry } | undefined;
    let prev: SortEntry | undefined;
    let first = 0;
    let second = Infinity;
    const endGroup = () => {
      if (prev && second !== Infinity && (!twice || second < twice.second)) twice = { first, second, entry: prev };
    };
    for await (const entries of sort.sorted()) {
      for (let i = 0; i < entries.length; i += WRITE_ENTRIES) {
        const lines = entries.slice(i, i + WRITE_ENTRIES);
        for (const e of lines) {
          if (prev && e.store_id === prev.store_id && e.email === prev.email) {
            if (e.row < first) [first, second] = [e.row, first];
            else if (e.row < second) second = e.row;
          } else {
            endGroup();
            first = e.row;
            second = Infinity;
          }
          prev = e;
        }
        if (twice || problem) continue;
        const bytes = Buffer.from(lines.map(contactLine).join('\n') + '\n');
        hash.update(bytes);
        if (!file.write(bytes)) await Promise.race([once(file, 'drain'), failed]);
      }
    }
    endGroup();
    if (twice) throw listedTwice(source, twice.second, twice.entry, twice.first);
    if (problem) throw problem;
    file.end();
    await Promise.race([once(file, 'finish'), failed]);
    done = true;
    return hash.digest('hex');
  } finally {
    await sort.close();
    if (!done) {
      file?.destroy();
      await rm(out, { force: true });
    }
  }
}
