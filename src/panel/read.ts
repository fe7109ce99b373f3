/**
 * Reading and validating a panel folder into the DuckDB table `panel`. Anything wrong in the
 * input stops with a CliError (exit 2) naming file, row and column; nothing is written.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';
import { ident, lit, toNumber, type Duck } from './duck.js';
import { isMonth, MONTH_PATTERN } from '../core/month.js';
import { CONTACTS_FILE, monthIndex, PANEL_COLUMNS, PANEL_FILE, SCIENTIFIC_ID, scientificIdSays, STORE_ID_EMPTY, STORE_ID_MAX, type ColumnType, type PanelColumn } from '../core/panel-contract.js';
import { keptTextSql, trimBlanksSql } from '../core/text.js';
import { csvHeader, csvLayout, decompressorOf, emptyFile, ndjsonReadError, readError, requireFile, sniffFile, startsAsNoNdjson, type PanelFormat } from './read-errors.js';

export type { PanelFormat } from './read-errors.js';

export interface PanelFile {
  month: string;
  file: string;
  name: string;
  format: PanelFormat;
}

/** The panel files of a folder, sorted by month. */
export async function listPanel(dir: string): Promise<PanelFile[]> {
  let names: string[];
  try {
    if (!(await stat(dir)).isDirectory()) throw new CliError(`${dir}: not a folder`);
    names = await readdir(dir);
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw new CliError(`${dir}: no such folder (--input must name a folder of YYYY-MM.csv, .parquet or .ndjson files)`);
  }
  const files: PanelFile[] = [];
  const seen = new Map<string, string>();
  const unread: string[] = [];
  for (const name of names.sort()) {
    const ext = path.extname(name).slice(1);
    if (!['csv', 'parquet', 'ndjson'].includes(ext)) {
      unread.push(name);
      continue;
    }
    // The contact source beside the panel (contacts/source.ts) is not a month.
    if (CONTACTS_FILE.test(name)) continue;
    const m = PANEL_FILE.exec(name);
    if (!m || !isMonth(m[1])) {
      throw new CliError(`${path.join(dir, name)}: file name is not a month: expected YYYY-MM.${ext} with a month 01-12`);
    }
    await requireFile(path.join(dir, name), 'a month of the panel is one YYYY-MM.csv, .parquet or .ndjson file');
    const other = seen.get(m[1]);
    if (other) throw new CliError(`${path.join(dir, name)}: month ${m[1]} is also in ${other}; keep one file per month`);
    seen.set(m[1], name);
    files.push({ month: m[1], file: path.join(dir, name), name, format: ext as PanelFormat });
  }
  const contacts = names.some((n) => CONTACTS_FILE.test(n));
  for (const name of unread) {
    // A month's delivery (or the contact source) publish would not read: left out without a
    // word, its month would be missing from the release (its contacts gone from the workspace).
    const month = /^(\d{4}-\d{2})\./.exec(name)?.[1];
    if (month !== undefined ? !seen.has(month) : /^contacts\./i.test(name) && !contacts) throw new CliError(`${path.join(dir, name)}: ${unreadable(name, month ?? 'contacts')}`);
  }
  if (files.length === 0) throw new CliError(`${dir}: no panel files (expected YYYY-MM.csv, .parquet or .ndjson)`);
  return files.sort((a, b) => a.month.localeCompare(b.month));
}

/**
 * Why a file named for a month (or as the contact source) is not one publish reads, and what to
 * do: publish reads a month's file as plain .csv, .parquet or .ndjson, named in lower case.
 */
function unreadable(name: string, stem: string): string {
  const reads = 'publish reads a month as YYYY-MM.csv, .parquet or .ndjson (the contact source as contacts.csv, .parquet or .ndjson)';
  const parts = name.split('.');
  const last = parts[parts.length - 1]!.toLowerCase();
  const tool = decompressorOf(last);
  if (tool) return `compressed (.${last}): decompress it first (${tool} ${name}); ${reads}`;
  if (['part', 'partial', 'crdownload', 'download', 'tmp'].includes(last)) {
    return `an unfinished download or copy (.${last}): publish once it is complete, or remove it if what wrote it stopped; ${reads}`;
  }
  if (['csv', 'parquet', 'ndjson'].includes(last)) return `named in capitals: rename it ${stem}.${last}; ${reads}`;
  if (last === 'jsonl' || last === 'json') return `rename it ${stem}.ndjson if it holds one JSON object per line; ${reads}`;
  if (last === 'xlsx' || last === 'xls' || last === 'ods') return `a spreadsheet: save it as CSV (${stem}.csv); ${reads}`;
  if (last === 'tsv' || last === 'txt') return `save it comma-separated as ${stem}.csv; ${reads}`;
  return `not a file publish reads; ${reads}`;
}

async function sourceSql(duck: Duck, f: PanelFile): Promise<string> {
  if (f.format === 'ndjson') return ndjsonSql(duck, f);
  if (f.format === 'parquet') return `read_parquet(${lit(f.file)})`;
  const { header, skip } = await csvLayout(f.file);
  if (header.length === 0) throw new CliError(`${f.file}: row 1: no header row (the first row names the columns)`);
  const columns = `{${header.map((h) => `${lit(h)}: 'VARCHAR'`).join(', ')}}`;
  // Empty lines before the header are skipped (DuckDB would take the first for the header).
  return `read_csv(${lit(f.file)}, header = true, auto_detect = false, columns = ${columns}, delim = ',', quote = '"', escape = '"'${skip ? `, skip = ${skip}` : ''})`;
}

/** Row number a person would look for: CSV counts its header as row 1; other formats count records from 1. */
const rowNumber = (format: PanelFormat, rowid: number): number => rowid + (format === 'csv' ? 2 : 1);

/** SQL that converts a raw cell to its typed value, NULL for empty (and for invalid: see isBad). */
function convert(v: string, type: ColumnType, sourceType: string): string {
  const text = `nullif(${trimBlanksSql(asText(v, sourceType))}, '')`;
  switch (type) {
    case 'string':
      // Text as every door keeps it (core/text.ts): a line break inside a value reads the same
      // whether the file ends its lines with CRLF or LF.
      return keptTextSql(asText(v, sourceType));
    case 'apps':
      return `CASE WHEN ${text} IS NOT NULL THEN list_sort(list_distinct(list_filter(list_transform(string_split(${text}, ';'), x -> ${trimBlanksSql('x')}), x -> x <> ''))) END`;
    case 'country':
      return `CASE WHEN regexp_full_match(${text}, '[A-Za-z]{2}') THEN upper(${text}) END`;
    case 'month':
      return `CASE WHEN regexp_full_match(${text}, '${MONTH_PATTERN}') THEN ${text} END`;
    case 'integer':
      return nativeOk(type, sourceType) ? `CAST(${v} AS BIGINT)` : `CASE WHEN regexp_full_match(${text}, '[+-]?\\d+') THEN TRY_CAST(${text} AS BIGINT) END`;
    case 'decimal':
      return nativeOk(type, sourceType) ? `CAST(${v} AS DECIMAL(18,2))` : `TRY_CAST(${text} AS DECIMAL(18,2))`;
    case 'boolean':
      return sourceType === 'BOOLEAN' ? v : `CASE lower(${text}) WHEN 'true' THEN TRUE WHEN 'false' THEN FALSE END`;
  }
}

const EXPECTED: Record<ColumnType, string> = {
  string: 'text',
  country: 'a two-letter ISO 3166-1 country code',
  month: 'a month YYYY-MM',
  integer: 'an integer',
  decimal: 'a number (at most 16 digits before the point)',
  boolean: 'true or false',
  apps: "app ids separated by ';'",
};
/** What a bad `value` of `c` should have been: a count or an amount below zero is outside its domain. */
const expected = (c: PanelColumn, value: string | null): string =>
  c.nonNegative && Number(value) < 0 ? `${EXPECTED[c.type].replace(/ \(.*/, '')} of 0 or more (a count or an amount is never negative)` : EXPECTED[c.type];

/**
 * Checks every file and defines the view `panel` (month, mi, then the contract's columns, typed)
 * and the table `panel_months` (the mi of each loaded month that holds stores).
 * Store ids keep every character; text dimensions are trimmed and NFC-normalised.
 */
export async function loadPanel(duck: Duck, files: PanelFile[], onFile?: (f: PanelFile) => void): Promise<Map<string, number>> {
  const selects: string[] = [];
  const withRows: number[] = [];
  const rows = new Map<string, number>();
  for (const [i, f] of files.entries()) {
    onFile?.(f);
    const checked = await checkFile(duck, f, `raw_${i}`);
    selects.push(checked.select);
    rows.set(f.month, checked.rows);
    if (checked.rows > 0) withRows.push(monthIndex(f.month));
  }
  // A view, not a copy: the aggregation streams the files (or staged CSV/NDJSON) once more.
  await duck.run(`CREATE OR REPLACE VIEW panel AS ${selects.join('\nUNION ALL\n')}`);
  // The months holding stores, known from the checks without reading the files again (a file
  // of no rows is no month: its stores are not "present last month").
  await duck.run(`CREATE OR REPLACE TEMP TABLE panel_months AS SELECT unnest([${withRows.join(', ')}]::INTEGER[]) AS mi`);
  return rows;
}

function sqlType(t: ColumnType): string {
  return { string: 'VARCHAR', country: 'VARCHAR', month: 'VARCHAR', integer: 'BIGINT', decimal: 'DECIMAL(18,2)', boolean: 'BOOLEAN', apps: 'VARCHAR[]' }[t];
}

/** Runs `read` on `f`; a failed read stops with what is wrong with the file, in words (read-errors.ts). */
async function reading<T>(f: PanelFile, read: () => Promise<T>): Promise<T> {
  await sniffFile(f);
  try {
    return await read();
  } catch (e) {
    if (e instanceof CliError) throw e;
    throw await readError(f, (e as Error).message);
  }
}

/** The column names of a file, as its header (CSV) or its schema (Parquet, NDJSON: the keys of its records) gives them. */
export async function readColumns(duck: Duck, f: PanelFile): Promise<string[]> {
  return reading(f, async () => {
    const empty = await emptyFile(f);
    if (empty) throw empty;
    if (f.format === 'csv') return csvHeader(f.file);
    if (f.format === 'ndjson') return ndjsonKeys(duck, f);
    return (await duck.all<{ column_name: string }>(`DESCRIBE SELECT * FROM read_parquet(${lit(f.file)})`)).map((d) => d.column_name);
  });
}

/**
 * The keys of an NDJSON file's records, every record's: those of the first records in their
 * order (DuckDB's sample), then any a later record adds. A record that is not an object stops
 * with its row (read-errors.ts).
 */
async function ndjsonKeys(duck: Duck, f: PanelFile): Promise<string[]> {
  // A JSON array reads as one column of lists of records (said as an array, not as every column
  // missing), and a byte order mark as part of the first key or not at all: said before DuckDB reads.
  const odd = (await startsAsNoNdjson(f.file)) && (await ndjsonReadError(f, 1));
  if (odd) throw odd;
  const sampled = (await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM read_json(${lit(f.file)}, format = 'newline_delimited')`));
  // Records that are not all objects read as one JSON column: name the record that is not.
  const notObjects = sampled.length === 1 && sampled[0]!.column_type === 'JSON' && (await ndjsonReadError(f));
  if (notObjects) throw notObjects;
  const all = await duck.all<{ k: string }>(`SELECT DISTINCT unnest(json_keys(json)) AS k FROM read_ndjson_objects(${lit(f.file)}) WHERE json_type(json) = 'OBJECT' ORDER BY k`);
  const first = sampled.map((d) => d.column_name);
  const keys = [...first, ...all.map((r) => r.k).filter((k) => !first.includes(k))];
  // DuckDB reads keys that differ only in case (plan, Plan) as one column, and refused the file
  // with "Duplicate struct entry name": said as the records' keys, and which to keep.
  const byCase = new Map<string, string>();
  for (const k of keys) {
    const other = byCase.get(k.toLowerCase());
    if (other !== undefined) {
      const [kept, odd] = CONTRACT_NAMES.has(k) ? [k, other] : [other, k];
      throw new CliError(
        `${f.file}: column ${JSON.stringify(odd)}: the records name both ${JSON.stringify(kept)} and ${JSON.stringify(odd)}, keys that differ only in case and cannot be read apart: ` +
          `write ${CONTRACT_NAMES.has(kept) ? kept : 'one of them'} in every record`,
      );
    }
    byCase.set(k.toLowerCase(), k);
  }
  return keys;
}

/**
 * An NDJSON file as a relation of every key of its records, each value as JSON, none typed by
 * DuckDB: left to infer, it types a column from a sample of records and forces the rest into that
 * type (12.7 after twenty thousand integers read as 13, "yes" as true, one id written 1000.0 making
 * every id of the file 101.0). The contract's text rules then type each value, as for CSV.
 */
async function ndjsonSql(duck: Duck, f: PanelFile): Promise<string> {
  const keys = await ndjsonKeys(duck, f);
  const plain = `read_json(${lit(f.file)}, format = 'newline_delimited')`;
  if (keys.length === 0) return plain;
  return `read_json(${lit(f.file)}, format = 'newline_delimited', columns = {${keys.map((k) => `${lit(k)}: 'JSON'`).join(', ')}})`;
}

const CONTRACT_NAMES: ReadonlySet<string> = new Set(PANEL_COLUMNS.map((c) => c.name));

/** Validates one file; returns the SELECT that reads it typed and its number of rows. CSV and NDJSON are staged in `table`. */
export async function checkFile(duck: Duck, f: PanelFile, table: string): Promise<{ select: string; rows: number; staged: boolean }> {
  // Parquet is scanned in place (typed columns need no text round trip; file_row_number gives
  // the row); CSV and NDJSON are staged in a table whose rowid is the record number, and so is a
  // Parquet file with a column of its own named file_row_number (DuckDB cannot number its rows).
  const inPlace = f.format === 'parquet' && !(await readColumns(duck, f)).includes('file_row_number');
  const from = inPlace ? `read_parquet(${lit(f.file)}, file_row_number = true)` : table;
  const rowid = inPlace ? 'file_row_number' : 'rowid';
  const described = await reading(f, async () => {
    if (from !== table) return duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${from}`);
    // Only the contract's columns are staged: a column of the file's own is ignored, and one
    // named rowid would otherwise hide the table's rowid, the record number every check reads.
    const source = await sourceSql(duck, f);
    const all = await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM ${source}`);
    const kept = all.filter((d) => CONTRACT_NAMES.has(d.column_name));
    if (kept.length) await duck.run(`CREATE OR REPLACE TEMP TABLE ${table} AS SELECT ${kept.map((d) => ident(d.column_name)).join(', ')} FROM ${source}`);
    return all;
  });
  if (!described.some((d) => d.column_name === 'store_id')) {
    throw new CliError(`${f.file}: row 1, column store_id: the required column store_id is missing (columns: ${described.map((d) => d.column_name).join(', ') || 'none'})`);
  }
  const sourceTypes = new Map(described.filter((d) => CONTRACT_NAMES.has(d.column_name)).map((d) => [d.column_name, d.column_type]));

  const present = PANEL_COLUMNS.filter((c) => sourceTypes.has(c.name));
  // Every contract column holds one value a cell: a list, a record or raw bytes read as text would
  // be its printed form ("[a, b]" one app), so such a column is refused whole.
  for (const c of present) {
    const t = sourceTypes.get(c.name)!;
    if (!ONE_VALUE.test(t)) {
      throw new CliError(`${f.file}: column ${c.name}: stored as ${t}, not one value a cell: expected ${EXPECTED[c.type]}${t === 'BLOB' ? ' as UTF-8 text, not bytes' : ''}`);
    }
  }
  const badChecks = present
    // Text and app lists always convert (an app list of non-empty text is a list): no check, but
    // for an NDJSON value that is a list or an object.
    .filter((c) => (c.type !== 'string' && c.type !== 'apps' && (c.nonNegative || !nativeOk(c.type, sourceTypes.get(c.name)!))) || sourceTypes.get(c.name) === 'JSON')
    .map((c) => {
      const v = ident(c.name);
      const t = sourceTypes.get(c.name)!;
      const nested = t === 'JSON' ? `json_type(${v}) IN ('OBJECT', 'ARRAY')` : 'FALSE';
      if (c.type === 'string' || c.type === 'apps') return { c, sql: `(${v} IS NOT NULL AND ${nested})` };
      // A count or an amount below zero is outside its domain: refused as a value that does not convert.
      const typed = convert(v, c.type, t);
      const bad = c.nonNegative ? `coalesce(${typed} < 0, TRUE)` : `${typed} IS NULL`;
      return { c, sql: nativeOk(c.type, t) ? `(${v} IS NOT NULL AND ${v} < 0)` : `(${v} IS NOT NULL AND (${nested} OR (${trimBlanksSql(asText(v, t))} <> '' AND ${bad})))` };
    });
  const storeId = asText('store_id', sourceTypes.get('store_id')!);
  // A store id of only spaces is as empty as a blank cell (every other id keeps every character).
  const missingId = `(store_id IS NULL OR ${trimBlanksSql(storeId)} = '')`;
  const cases = [`WHEN ${missingId} THEN 'store_id'`, ...badChecks.map(({ c, sql }) => `WHEN ${sql} THEN ${lit(c.name)}`)].join(' ');
  const where = [missingId, ...badChecks.map((b) => b.sql)].join(' OR ');
  // One scan answers both checks: the first bad cell's row, and whether any store id repeats
  // (distinct hashes as many as rows: no duplicate; the exact search below runs only on a
  // duplicate or a hash collision, and finds nothing on a collision).
  // U+0000 in a text: typing would cut the text there (Unicode normalisation stops at it) and no
  // database column holds it (PostgreSQL refuses it), so the statistics and the workspace would
  // each see another text. Refused, in the same scan.
  const nul = present
    .filter((c) => c.type === 'string' || c.type === 'apps')
    .map((c) => ({ c, sql: `contains(${asText(`r.${ident(c.name)}`, sourceTypes.get(c.name)!)}, chr(0))` }));
  const nulWhere = nul.map((n) => n.sql).join(' OR ') || 'FALSE';
  // A store created after the month its file is named for: the file holds a later month (or the
  // name is wrong), and publishing it as this month would publish another month's figures.
  // A store id longer than the API takes: an account no request could name.
  const tooLong = `length(${storeId}) + length(regexp_replace(${storeId}, '[^\\x{10000}-\\x{10FFFF}]', '', 'g')) > ${STORE_ID_MAX}`;
  // An NDJSON store id written as a number with a fraction or an exponent (1e3, 1000.0) reads as
  // "1000.0", where the contact source (and a person) reads 1000: refused, as no store's id.
  const fraction = sourceTypes.get('store_id') === 'JSON' ? `json_type(r.store_id) = 'DOUBLE'` : 'FALSE';
  // A spreadsheet that read long numeric ids as numbers saves them as 1.23457E+11: their digits
  // are lost, and stores that shared the first six become one (a "duplicate" said without cause).
  const scientific = `(contains(${storeId}, 'E+') OR contains(${storeId}, 'e+')) AND regexp_full_match(${trimBlanksSql(storeId)}, ${lit(SCIENTIFIC_ID)})`;
  const createdType = sourceTypes.get('created_month');
  const createdLater = createdType === undefined ? 'FALSE' : `${convert('r.created_month', 'month', createdType)} > ${lit(f.month)}`;
  const [check] = await duck.all<{ bad: string | null; bad_rows: string; unique: boolean; rows: string; nul: string | null; later: string | null; later_rows: string; long: string | null; fraction: string | null; scientific: string | null }>(
    `SELECT min(${rowid}) FILTER (WHERE ${where}) AS bad, count(*) FILTER (WHERE ${where}) AS bad_rows, count(DISTINCT hash(${storeId})) = count(*) AS unique, count(*) AS rows, ` +
      `min(${rowid}) FILTER (WHERE ${nulWhere}) AS nul, min(${rowid}) FILTER (WHERE ${createdLater}) AS later, count(*) FILTER (WHERE ${createdLater}) AS later_rows, min(${rowid}) FILTER (WHERE ${tooLong}) AS long, ` +
      `min(${rowid}) FILTER (WHERE ${fraction}) AS fraction, min(${rowid}) FILTER (WHERE ${scientific}) AS scientific FROM ${from} r`,
  );
  if (check.bad !== null) {
    const [{ col: name }] = await duck.all<{ col: string }>(`SELECT CASE ${cases} END AS col FROM ${from} WHERE ${rowid} = ${toNumber(check.bad)}`);
    const col = PANEL_COLUMNS.find((c) => c.name === name)!;
    const row = rowNumber(f.format, toNumber(check.bad));
    // A record of `null` reads as a row of nulls: said as what it is, not as an empty store id
    // (the records up to this row read again: a record of null before it would be the bad row).
    const notObject = col.name === 'store_id' && f.format === 'ndjson' ? await ndjsonReadError(f, row) : null;
    if (notObject) throw notObject;
    const [{ value }] = await duck.all<{ value: string | null }>(`SELECT ${asText(ident(col.name), sourceTypes.get(col.name)!)} AS value FROM ${from} WHERE ${rowid} = ${toNumber(check.bad)}`);
    const what = col.name === 'store_id' ? STORE_ID_EMPTY : `expected ${expected(col, value)}, got ${JSON.stringify(value)}${floatHint(col, sourceTypes.get(col.name)!)}${value === col.name ? ' (the row repeats the header: two files joined into one?)' : ''}${col.type === 'month' && /^\d{4}-\d{2}-\d{2}/.test(value ?? '') ? ` (a date: write its month, ${value!.slice(0, 7)})` : ''}`;
    const more = toNumber(check.bad_rows) - 1;
    throw new CliError(`${f.file}: row ${row}, column ${col.name}: ${what}${more ? ` (and ${more} more row(s) of this file with a bad value)` : ''}`);
  }
  if (check.fraction !== null) {
    const [{ value }] = await duck.all<{ value: string }>(`SELECT ${storeId} AS value FROM ${from} WHERE ${rowid} = ${toNumber(check.fraction)}`);
    throw new CliError(`${f.file}: row ${rowNumber(f.format, toNumber(check.fraction))}, column store_id: a number with a fraction or an exponent (read as ${value}) is no store id: write the id as a JSON string or an integer`);
  }
  if (check.scientific !== null) {
    const [{ value }] = await duck.all<{ value: string }>(`SELECT ${storeId} AS value FROM ${from} WHERE ${rowid} = ${toNumber(check.scientific)}`);
    throw new CliError(`${f.file}: row ${rowNumber(f.format, toNumber(check.scientific))}, column store_id: ${scientificIdSays(value)}`);
  }
  if (check.long !== null) {
    throw new CliError(`${f.file}: row ${rowNumber(f.format, toNumber(check.long))}, column store_id: longer than ${STORE_ID_MAX} characters, the longest store id the API takes`);
  }
  if (check.later !== null) {
    const [{ value }] = await duck.all<{ value: string }>(`SELECT ${convert('r.created_month', 'month', createdType!)} AS value FROM ${from} r WHERE ${rowid} = ${toNumber(check.later)}`);
    const more = toNumber(check.later_rows) - 1;
    throw new CliError(
      `${f.file}: row ${rowNumber(f.format, toNumber(check.later))}, column created_month: the store was created in ${value}, after ${f.month}, the month the file is named for` +
        `${more ? ` (and ${more} more row(s) of this file created after it)` : ''}: a file holds one month's stores, named YYYY-MM for that month; is the file named for the right month?`,
    );
  }
  if (check.nul !== null) {
    const [{ col }] = await duck.all<{ col: string }>(`SELECT CASE ${nul.map((n) => `WHEN ${n.sql} THEN ${lit(n.c.name)}`).join(' ')} END AS col FROM ${from} r WHERE ${rowid} = ${toNumber(check.nul)}`);
    throw new CliError(`${f.file}: row ${rowNumber(f.format, toNumber(check.nul))}, column ${col}: contains the character U+0000, which no text keeps (typing would cut it there, and no database column holds it)`);
  }
  const [dup] = check.unique
    ? []
    : await duck.all<{ id: string; first: string; second: string }>(
        `SELECT id, rows[1] AS first, rows[2] AS second
         FROM (SELECT ${storeId} AS id, list_sort(list(${rowid})) AS rows FROM ${from} GROUP BY 1 HAVING count(*) > 1)
         ORDER BY second LIMIT 1`,
      );
  if (dup) {
    throw new CliError(
      `${f.file}: row ${rowNumber(f.format, toNumber(dup.second))}, column store_id: duplicate store_id ${JSON.stringify(dup.id)} (first at row ${rowNumber(f.format, toNumber(dup.first))}); a store appears once per month`,
    );
  }

  // App lists repeat (a month of a million stores has about a tenth as many distinct ones):
  // each distinct text is split, trimmed, deduplicated and sorted once, then joined back.
  const apps = sourceTypes.get('apps');
  const appsText = apps === undefined ? undefined : asText('r.apps', apps);
  const select = PANEL_COLUMNS.map((c) => {
    if (!sourceTypes.has(c.name)) return `CAST(NULL AS ${sqlType(c.type)}) AS ${ident(c.name)}`;
    if (c.name === 'store_id') return `${asText('r.store_id', sourceTypes.get('store_id')!)} AS store_id`;
    if (c.type === 'apps') return `apps_of.list AS ${ident(c.name)}`;
    return `${convert(`r.${ident(c.name)}`, c.type, sourceTypes.get(c.name)!)} AS ${ident(c.name)}`;
  }).join(', ');
  const dictionary = appsText
    ? ` LEFT JOIN (SELECT text, ${convert('text', 'apps', 'VARCHAR')} AS list FROM (SELECT DISTINCT ${appsText} AS text FROM ${from} r)) apps_of ON apps_of.text = ${appsText}`
    : '';
  return { select: `SELECT ${lit(f.month)} AS month, ${monthIndex(f.month)} AS mi, ${select} FROM ${from} r${dictionary}`, rows: toNumber(check.rows), staged: !inPlace };
}

/**
 * Why an integer column's value reads `5.0`: the file stores the column as floating point (pandas
 * writes an integer column holding a missing value as float64). Said with the refusal, which
 * otherwise reads as if 5.0 were no integer by mistake.
 */
function floatHint(c: PanelColumn, sourceType: string): string {
  if (c.type !== 'integer' || !/^(FLOAT|DOUBLE|DECIMAL\(\d+,\s*[1-9]\d*\))$/.test(sourceType)) return '';
  const pandas = /^(FLOAT|DOUBLE)$/.test(sourceType) ? '; pandas writes an integer column holding a missing value as float64, its nullable Int64 type keeps it integer' : '';
  return ` (the file stores ${c.name} as ${sourceType}, a type with a fraction: write it as an integer type${pandas})`;
}

/** Source types of one value a cell (not a LIST, STRUCT, MAP, UNION or ARRAY, nor BLOB bytes). */
const ONE_VALUE = /^(VARCHAR|JSON|BOOLEAN|TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL\(\d+,\s*\d+\)|DATE|TIMESTAMP.*|TIME.*|UUID|INTERVAL|NULL|"NULL")$/;

/** A cell as text; a JSON-typed cell (NDJSON mixing strings and numbers) without its quotes. */
const asText = (v: string, sourceType: string): string => (sourceType === 'JSON' ? `(${v} ->> '$')` : `CAST(${v} AS VARCHAR)`);

/** Source columns whose values always convert: no per-row check needed. */
function nativeOk(type: ColumnType, source: string): boolean {
  if (type === 'boolean') return source === 'BOOLEAN';
  if (type === 'integer') return ['BIGINT', 'INTEGER', 'SMALLINT', 'TINYINT', 'UINTEGER', 'USMALLINT', 'UTINYINT'].includes(source);
  // DECIMAL(18,2) holds 16 digits before the point: a source of more (DECIMAL(18,0)) may not fit.
  if (type === 'decimal') {
    const m = /^DECIMAL\((\d+),\s*([0-2])\)$/.exec(source);
    return m !== null && Number(m[1]) - Number(m[2]) <= 16;
  }
  return false;
}
