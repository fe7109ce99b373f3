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
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import type { StoreContact } from './store.js';
import { CliError } from '../core/errors.js';
import { CONTACTS_FILE } from '../core/panel-contract.js';
import { lit, openDuck } from '../panel/duck.js';
import { EMAIL_MAX, isNormalisedEmail, normaliseEmail } from './email.js';

export const CONTACTS_DIR = 'contacts';
export const CONTACTS_DATA = 'contacts.ndjson';
const COLUMNS = ['store_id', 'name', 'email', 'role', 'source'] as const;
const TEXT_MAX = 200;
const STORE_ID_MAX = 500;

/** One record of the source as read: its row number (as a person would count it) and its cells. */
interface RawRecord {
  row: number;
  cells: Record<string, unknown>;
}

/** The contact file in a panel folder, or null; two of them is bad input. */
export async function findContactsFile(panelDir: string): Promise<string | null> {
  const names = (await readdir(panelDir)).filter((n) => CONTACTS_FILE.test(n)).sort();
  if (names.length > 1) throw new CliError(`${panelDir}: ${names.join(' and ')}: keep one contacts file (contacts.csv, contacts.parquet or contacts.ndjson)`);
  return names.length ? path.join(panelDir, names[0]!) : null;
}

/** Reads and checks a contact file; a problem names the file, row and column (exit 2). */
export async function readContactsFile(file: string): Promise<StoreContact[]> {
  const format = CONTACTS_FILE.exec(path.basename(file))?.[1] ?? path.extname(file).slice(1);
  const { columns, records } = format === 'parquet' ? await readParquet(file) : format === 'ndjson' ? await readNdjson(file) : await readCsv(file);
  if (columns) {
    for (const c of ['store_id', 'email']) {
      if (!columns.includes(c)) throw new CliError(`${file}: row 1, column ${c}: the required column ${c} is missing (columns: ${columns.join(', ') || 'none'})`, 2);
    }
  }
  return checkContacts(file, records);
}

async function readCsv(file: string): Promise<{ columns: string[]; records: RawRecord[] }> {
  let rows: string[][];
  try {
    rows = parse(await readFile(file), { bom: true, relax_column_count: false, skip_empty_lines: true }) as string[][];
  } catch (e) {
    throw new CliError(`${file}: ${firstLine(e)}`, 2);
  }
  const [header = [], ...body] = rows;
  const columns = header.map((h) => h.trim());
  // Only the source's columns are read (of a repeated name, the last, as an object of every
  // column would keep): an object of each record's every cell cost more than checking it.
  const at = COLUMNS.map((c) => [c, columns.lastIndexOf(c)] as const).filter(([, k]) => k >= 0);
  const records: RawRecord[] = new Array(body.length);
  for (let i = 0; i < body.length; i++) {
    const r = body[i]!;
    const cells: Record<string, unknown> = {};
    for (const [c, k] of at) cells[c] = r[k];
    records[i] = { row: i + 2, cells };
  }
  return { columns, records };
}

async function readNdjson(file: string): Promise<{ columns: null; records: RawRecord[] }> {
  const records: RawRecord[] = [];
  const lines = (await readFile(file, 'utf8')).split('\n');
  let row = 0;
  for (const line of lines) {
    if (line.trim() === '') continue;
    row++;
    let v: unknown;
    try {
      v = JSON.parse(line);
    } catch (e) {
      throw new CliError(`${file}: row ${row}: not JSON (${firstLine(e)})`, 2);
    }
    if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new CliError(`${file}: row ${row}: expected a JSON object`, 2);
    records.push({ row, cells: v as Record<string, unknown> });
  }
  return { columns: null, records };
}

async function readParquet(file: string): Promise<{ columns: string[]; records: RawRecord[] }> {
  const duck = await openDuck({ threads: 1 });
  try {
    let described: { column_name: string }[];
    try {
      described = await duck.all(`DESCRIBE SELECT * FROM read_parquet(${lit(file)})`);
    } catch (e) {
      throw new CliError(`${file}: not a readable Parquet file (${firstLine(e)})`, 2);
    }
    const columns = described.map((d) => d.column_name);
    const present = COLUMNS.filter((c) => columns.includes(c));
    const select = present.map((c) => `CAST("${c}" AS VARCHAR) AS "${c}"`).join(', ') || '1 AS none';
    const rows = await duck.all<Record<string, string | null>>(`SELECT ${select} FROM read_parquet(${lit(file)}, file_row_number = true) ORDER BY file_row_number`);
    return { columns, records: rows.map((cells, i) => ({ row: i + 1, cells })) };
  } finally {
    duck.close();
  }
}

/**
 * The checked rows: store_id and email required (the email normalised), name, role and source
 * optional text (trimmed; empty ⇒ null), no U+0000 anywhere, one row per (store, email).
 */
export function checkContacts(file: string, records: readonly RawRecord[]): StoreContact[] {
  const out: StoreContact[] = [];
  const seen = new Map<string, number>();
  for (const { row, cells } of records) {
    const bad = (column: string, what: string) => new CliError(`${file}: row ${row}, column ${column}: ${what}`, 2);
    const text = (column: string): string | null => {
      const v = cells[column];
      if (v === null || v === undefined) return null;
      if (typeof v !== 'string' && typeof v !== 'number') throw bad(column, `expected text, got ${JSON.stringify(v)}`);
      const s = String(v);
      if (s.includes('\u0000')) throw bad(column, 'contains the character U+0000, which no database column can hold');
      return s;
    };
    const optional = (column: string): string | null => {
      const s = text(column)?.trim() || null;
      if (s !== null && s.length > TEXT_MAX) throw bad(column, `longer than ${TEXT_MAX} characters`);
      return s;
    };
    const storeId = text('store_id');
    if (storeId === null || storeId === '') throw bad('store_id', 'store_id is required and empty');
    if (storeId.length > STORE_ID_MAX) throw bad('store_id', `longer than ${STORE_ID_MAX} characters`);
    const rawEmail = text('email');
    if (rawEmail === null || rawEmail.trim() === '') throw bad('email', 'email is required and empty');
    const email = normaliseEmail(rawEmail);
    if (rawEmail.length > EMAIL_MAX || !isNormalisedEmail(email)) throw bad('email', `expected an email address, got ${JSON.stringify(rawEmail.slice(0, 80))}`);
    const key = `${storeId}\u0000${email}`;
    const first = seen.get(key);
    if (first !== undefined) throw bad('email', `${JSON.stringify(email)} is listed twice for store ${JSON.stringify(storeId)} (first at row ${first})`);
    seen.set(key, row);
    out.push({ store_id: storeId, email, name: optional('name'), role: optional('role'), source: optional('source') });
  }
  return out;
}

const byStoreThenEmail = (a: StoreContact, b: StoreContact): number =>
  a.store_id < b.store_id ? -1 : a.store_id > b.store_id ? 1 : a.email < b.email ? -1 : a.email > b.email ? 1 : 0;

/** The runs folder's form of checked contacts: their bytes and content id. */
export function contactsData(rows: readonly StoreContact[]): { id: string; bytes: Buffer } {
  const text = [...rows].sort(byStoreThenEmail).map((r) => JSON.stringify({ store_id: r.store_id, email: r.email, name: r.name, role: r.role, source: r.source }) + '\n').join('');
  const bytes = Buffer.from(text);
  return { id: createHash('sha256').update(bytes).digest('hex'), bytes };
}

export const contactsDir = (runsDir: string, id: string): string => path.join(runsDir, CONTACTS_DIR, id);

/** Writes a contacts folder (complete or absent: written beside and renamed in); one already there is kept. */
export async function writeContactsRun(runsDir: string, data: { id: string; bytes: Buffer }): Promise<void> {
  const final = contactsDir(runsDir, data.id);
  if (await stat(path.join(final, CONTACTS_DATA)).then(() => true, () => false)) return;
  await mkdir(path.join(runsDir, CONTACTS_DIR), { recursive: true });
  const tmp = path.join(runsDir, CONTACTS_DIR, `.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    await writeFile(path.join(tmp, CONTACTS_DATA), data.bytes);
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
    throw new CliError(`${file}: ${e.code === 'ENOENT' ? 'missing (index.json names this contact source, but its folder is incomplete or gone)' : e.message}`, 2);
  });
  const got = createHash('sha256').update(bytes).digest('hex');
  if (got !== id) throw new CliError(`${file}: its content does not match its id (sha256 ${got.slice(0, 12)}…, index.json says ${id.slice(0, 12)}…); publish again to rewrite it`, 2);
  const { records } = await readNdjson(file);
  return checkContacts(file, records);
}

const firstLine = (e: unknown): string => String((e as Error).message ?? e).split('\n')[0]!;

/**
 * What publish must change about the contact source in the runs folder: undefined when the
 * folder holds the panel's source already; else the id to point index.json at (null: the panel
 * has no contacts file any more) and the data to write. The file is checked here, before publish
 * writes anything.
 */
export async function contactsToCarry(
  panelDir: string,
  runsDir: string,
  current: string | undefined,
): Promise<{ id: string | null; data: { id: string; bytes: Buffer } | null } | undefined> {
  const file = await findContactsFile(panelDir);
  const data = file ? contactsData(await readContactsFile(file)) : null;
  const id = data?.id ?? null;
  const present = id === null || (await stat(path.join(contactsDir(runsDir, id), CONTACTS_DATA)).then(() => true, () => false));
  if (id === (current ?? null) && present) return undefined;
  return { id, data };
}
