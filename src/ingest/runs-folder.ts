/**
 * Reading publish's private runs folder (the contract publish writes, ingest reads):
 *
 *   <runs>/index.json                        {"runs_version":1,"months":{"2026-01":"<run-id>", …}}
 *   <runs>/<month>/<run-id>/stores.<format>  <month>'s panel file as published (csv, parquet or ndjson)
 *   <runs>/<month>/<run-id>/signals.parquet  the month's signals
 *   <runs>/<month>/<run-id>/run.json         {"month","run_id","stores":N,"signals":N,"signals_version":"…","stores_file":"stores.<format>","stores_sha256":"…","signals_sha256":"…"}
 *
 * Everything read here is checked (shape, names, types, counts; the stores by the panel's own
 * input contract, panel/read.ts, and by their sha256) and a problem names the file, the row and
 * the field. Values stay data: paths are built only from a checked month, run id and file name,
 * and file names reach DuckDB as quoted literals.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';
import { hashFile } from '../core/hash-file.js';
import { RUNS_INDEX, RUNS_VERSION, writeAnew } from '../core/runs-contract.js';
import { MONTH } from '../core/month.js';
import { type Duck, lit, toNumber } from '../panel/duck.js';
import { checkFile, readColumns, type PanelFile, type PanelFormat } from '../panel/read.js';
import { checkColumns } from '../panel/contract.js';
import { AD_COLUMNS, AGENTIC_COLUMNS } from '../core/panel-contract.js';
import { SIGNAL_TYPES } from '../core/signals.js';


export interface RunRef {
  readonly month: string;
  readonly runId: string;
  /** `<runs>/<month>/<run-id>`. */
  readonly dir: string;
}

const RUN_ID = /^[0-9a-f]{64}$/;

export const indexFile = (runsDir: string): string => path.join(runsDir, RUNS_INDEX);

/** The runs the index points at, oldest month first. A missing folder is bad usage (exit 2). */
export async function readRunsIndex(runsDir: string): Promise<RunRef[]> {
  const st = await stat(runsDir).catch(() => null);
  if (!st?.isDirectory()) throw new CliError(`${runsDir}: no runs folder (publish writes it; give another with --runs DIR)`, 2);
  const file = indexFile(runsDir);
  const text = await readFile(file, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw new CliError(e.code === 'ENOENT' ? `${file}: missing (nothing published into this runs folder yet)` : `${file}: ${e.message}`, 2);
  });
  return parseRunsIndex(text, runsDir);
}

/** index.json's text → the runs it names; refuses anything but the contract's shape. */
export function parseRunsIndex(text: string, runsDir: string): RunRef[] {
  const file = indexFile(runsDir);
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (e) {
    throw new CliError(`${file}: not JSON (${(e as Error).message})`, 2);
  }
  if (!isObject(doc)) throw new CliError(`${file}: expected an object {"runs_version":1,"months":{…}}`, 2);
  if (doc.runs_version !== RUNS_VERSION) throw new CliError(`${file}: runs_version ${JSON.stringify(doc.runs_version)} is not ${RUNS_VERSION} (written by another storelens version?)`, 2);
  if (!isObject(doc.months)) throw new CliError(`${file}: field "months" must be an object of month → run id`, 2);
  const runs: RunRef[] = [];
  for (const [month, runId] of Object.entries(doc.months)) {
    if (!MONTH.test(month)) throw new CliError(`${file}: months: ${JSON.stringify(month)} is not a month (YYYY-MM)`, 2);
    if (typeof runId !== 'string' || !RUN_ID.test(runId)) throw new CliError(`${file}: months.${month}: ${JSON.stringify(runId)} is not a run id (64 hex digits)`, 2);
    runs.push({ month, runId, dir: path.join(runsDir, month, runId) });
  }
  return runs.sort((a, b) => (a.month < b.month ? -1 : a.month > b.month ? 1 : 0));
}

/** The contact source index.json names (its `contacts` id), or null; anything but a content id is refused. */
export function contactsOfIndex(text: string, runsDir: string): string | null {
  const doc = JSON.parse(text) as Record<string, unknown>;
  if (doc.contacts === undefined) return null;
  if (typeof doc.contacts !== 'string' || !RUN_ID.test(doc.contacts)) {
    throw new CliError(`${indexFile(runsDir)}: contacts: ${JSON.stringify(doc.contacts)} is not a contacts id (64 hex digits)`, 2);
  }
  return doc.contacts;
}

/** The contact source index.json names now, or null. */
export async function readContactsPointer(runsDir: string): Promise<string | null> {
  const text = await readFile(indexFile(runsDir), 'utf8');
  parseRunsIndex(text, runsDir);
  return contactsOfIndex(text, runsDir);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export const SIGNALS_SCHEMA = {
  id: 'VARCHAR',
  month: 'VARCHAR',
  store_id: 'VARCHAR',
  type: 'VARCHAR',
  subject: 'VARCHAR',
  strength: 'DOUBLE',
  detail: 'VARCHAR',
} as const;

export interface RunFiles {
  /** the run's copy of its month's panel file */
  readonly stores: PanelFile;
  /** the SELECT of its rows (typedStores) when it reads the file in place (Parquet); else the file is staged again to load it */
  readonly storesSelect?: string;
  readonly signals: string;
  readonly stores_count: number;
  readonly signals_count: number;
}

const STORES_FILES: Record<string, PanelFormat> = { 'stores.csv': 'csv', 'stores.parquet': 'parquet', 'stores.ndjson': 'ndjson' };

/**
 * Checks a run directory before anything of it is loaded: run.json agrees with the index, the
 * stores file is the one run.json names (its sha256) and meets the panel's input contract, the
 * signals file has the contract's columns, every row is well-formed, and the row counts match
 * run.json. Throws a CliError naming the file (and row and field) otherwise.
 */
export async function checkRun(duck: Duck, run: RunRef): Promise<RunFiles> {
  const runJson = path.join(run.dir, 'run.json');
  const text = await readFile(runJson, 'utf8').catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ENOENT' ? damaged(runJson, 'missing (index.json names this run, but its folder is incomplete or gone)') : new CliError(`${runJson}: ${e.message}`, 2);
  });
  let meta: unknown;
  try {
    meta = JSON.parse(text);
  } catch (e) {
    throw damaged(runJson, `not JSON (${(e as Error).message})`);
  }
  if (!isObject(meta)) throw new CliError(`${runJson}: expected an object`, 2);
  if (meta.month !== run.month) throw new CliError(`${runJson}: field "month" is ${JSON.stringify(meta.month)}, index.json says ${run.month}`, 2);
  if (meta.run_id !== run.runId) throw new CliError(`${runJson}: field "run_id" is ${JSON.stringify(meta.run_id)}, index.json says ${run.runId}`, 2);
  for (const f of ['stores', 'signals'] as const) {
    if (!Number.isSafeInteger(meta[f]) || (meta[f] as number) < 0) throw new CliError(`${runJson}: field "${f}" must be a count, got ${JSON.stringify(meta[f])}`, 2);
  }
  if (meta.stores_file === undefined) {
    throw new CliError(`${runJson}: written by an earlier storelens (its stores are not its month's panel file); publish again to rewrite the runs, then ingest`, 2);
  }
  const format = typeof meta.stores_file === 'string' && Object.hasOwn(STORES_FILES, meta.stores_file) ? STORES_FILES[meta.stores_file] : undefined;
  if (!format) throw new CliError(`${runJson}: field "stores_file" must be one of ${Object.keys(STORES_FILES).join(', ')}, got ${JSON.stringify(meta.stores_file)}`, 2);
  const sha256Field = (field: 'stores_sha256' | 'signals_sha256'): string => {
    const v = meta[field];
    if (typeof v !== 'string' || !RUN_ID.test(v)) throw new CliError(`${runJson}: field "${field}" must be 64 hex digits, got ${JSON.stringify(v)}`, 2);
    return v;
  };
  const storesSha256 = sha256Field('stores_sha256');
  // Runs written before publish kept the signals' sha256 are checked by their rows alone.
  const signalsSha256 = meta.signals_sha256 === undefined ? undefined : sha256Field('signals_sha256');
  const stores: PanelFile = { month: run.month, file: path.join(run.dir, meta.stores_file as string), name: meta.stores_file as string, format };
  const signals = path.join(run.dir, 'signals.parquet');
  await checkHash(stores.file, storesSha256);
  if (signalsSha256 !== undefined) await checkHash(signals, signalsSha256);
  const typed = await typedStores(duck, stores, 'run_stores');
  await duck.run(`DROP TABLE IF EXISTS run_stores`);
  const storesCount = typed.rows;
  await checkSchema(duck, signals, SIGNALS_SCHEMA);
  const signalsCount = await checkRows(duck, signals, signalProblems(run.month));
  if (storesCount !== meta.stores) throw damaged(stores.file, `${storesCount} rows, ${runJson} says ${String(meta.stores)}`);
  if (signalsCount !== meta.signals) throw damaged(signals, `${signalsCount} rows, ${runJson} says ${String(meta.signals)}`);
  return { stores, ...(typed.staged ? {} : { storesSelect: typed.select }), signals, stores_count: storesCount, signals_count: signalsCount };
}

/**
 * A run's stores as the contract's rows (store_months' columns, lists as JSON text, in
 * storeRows' order): its panel file checked and typed by panel/read.ts, as publish read it
 * (CSV and NDJSON staged in `table`; the contract refuses U+0000 in a text, which no database
 * column holds). Resolves to the SELECT and the number of rows.
 */
export async function typedStores(duck: Duck, stores: PanelFile, table: string): Promise<{ select: string; rows: number; staged: boolean }> {
  let checked: { select: string; rows: number; staged: boolean };
  try {
    const columns = checkColumns(stores, await readColumns(duck, stores));
    if (columns.errors.length) throw new CliError(columns.errors[0]!);
    checked = await checkFile(duck, stores, table);
  } catch (e) {
    if (e instanceof CliError) throw new CliError(e.message, 2);
    throw e;
  }
  const typed = `(${checked.select})`;
  const select =
    `SELECT store_id, domain, country, category, plan, created_month, product_count, monthly_visits, ` +
    `CAST(est_monthly_revenue_usd AS DOUBLE) AS est_monthly_revenue_usd, to_json(coalesce(apps, []::VARCHAR[]))::VARCHAR AS apps, ` +
    `to_json(${flagList(AD_COLUMNS, (c) => c.slice('ads_'.length))})::VARCHAR AS ads, to_json(${flagList(AGENTIC_COLUMNS, (c) => c)})::VARCHAR AS agentic, month FROM ${typed} c`;
  return { select, rows: toNumber(checked.rows), staged: checked.staged };
}

/**
 * The flags of `columns` that are true, as a list (`name` of each, in the columns' order): the
 * row's combination (a bit per flag, an unknown flag not set) picks its list out of a constant
 * list of every combination's: a fraction of building the list row by row.
 */
function flagList(columns: readonly string[], name: (c: string) => string): string {
  const lists = Array.from({ length: 1 << columns.length }, (_, m) => `[${columns.filter((_, k) => m & (1 << k)).map((c) => lit(name(c))).join(', ')}]::VARCHAR[]`);
  const mask = columns.map((c, k) => `CASE WHEN c.${c} THEN ${1 << k} ELSE 0 END`).join(' + ');
  return `[${lists.join(', ')}][1 + ${mask}]`;
}

/** What a file of a run folder whose run.json is there, but not the file, is told. */
const MISSING = 'missing (index.json names this run, but its folder is incomplete)';

/** A file of a run folder that is not as its run.json says, and the way out (its folder written anew). */
const damaged = (file: string, what: string) => new CliError(`${file}: ${what}; ${writeAnew(path.dirname(file))}`, 2);

/** Refuses a run folder's `file` when its sha256 is not `expected` (run.json's). */
async function checkHash(file: string, expected: string): Promise<void> {
  const sha256 = await hashFile(file).catch((e: NodeJS.ErrnoException) => {
    throw e.code === 'ENOENT' ? damaged(file, MISSING) : new CliError(`${file}: ${e.message}`, 2);
  });
  if (sha256 !== expected) throw damaged(file, `its content does not match run.json (sha256 ${sha256.slice(0, 12)}…, run.json says ${expected.slice(0, 12)}…)`);
}

async function checkSchema(duck: Duck, file: string, schema: Record<string, string>): Promise<void> {
  const found = await stat(file).catch(() => null);
  if (!found?.isFile()) throw damaged(file, MISSING);
  let cols: { column_name: string; column_type: string }[];
  try {
    cols = await duck.all(`DESCRIBE SELECT * FROM read_parquet(${lit(file)})`);
  } catch (e) {
    throw damaged(file, `not a readable Parquet file (${firstLine(e)})`);
  }
  const types = new Map(cols.map((c) => [c.column_name, c.column_type]));
  for (const [name, type] of Object.entries(schema)) {
    const got = types.get(name);
    if (got === undefined) throw damaged(file, `column "${name}" is missing`);
    if (got !== type) throw damaged(file, `column "${name}" is ${got}, expected ${type}`);
  }
}

/** A check over every row: the SQL condition that makes a row bad, and what to say about it. */
interface RowProblem {
  readonly bad: string;
  readonly field: string;
  readonly says: string;
}

const NUL_SAYS = 'contains the character U+0000, which no database column can hold';
/** Text no database stores as sent (PostgreSQL refuses U+0000): named here, not by the database. */
const noNul = (columns: readonly string[]): RowProblem[] => columns.map((c) => ({ bad: `contains(${c}, chr(0))`, field: c, says: NUL_SAYS }));

const signalProblems = (month: string): RowProblem[] => [
  { bad: `month IS DISTINCT FROM ${lit(month)}`, field: 'month', says: `is not ${month}` },
  { bad: `id IS NULL OR id = ''`, field: 'id', says: 'is empty' },
  { bad: `count(*) OVER (PARTITION BY id) > 1`, field: 'id', says: 'appears twice' },
  { bad: `store_id IS NULL OR store_id = ''`, field: 'store_id', says: 'is empty' },
  { bad: `type IS NULL OR type NOT IN (${SIGNAL_TYPES.map(lit).join(', ')})`, field: 'type', says: 'is not a signal type' },
  { bad: `strength IS NULL OR NOT (strength > 0 AND strength <= 1)`, field: 'strength', says: 'is not in (0, 1]' },
  { bad: `detail IS NULL`, field: 'detail', says: 'is empty' },
  ...noNul(['id', 'store_id', 'subject', 'detail']),
];

/** Row count of a Parquet file whose rows pass every check; else a CliError naming the first bad row (1-based). */
async function checkRows(duck: Duck, file: string, problems: readonly RowProblem[]): Promise<number> {
  const flags = problems.map((p, i) => `(${p.bad}) AS p${i}`).join(', ');
  const first = problems.map((_, i) => `min(row_n) FILTER (WHERE p${i}) AS p${i}`).join(', ');
  const [r] = await duck.all<Record<string, string | number | null>>(
    `WITH t AS (SELECT row_number() OVER () AS row_n, * FROM read_parquet(${lit(file)})), ` +
      `f AS (SELECT row_n, ${flags} FROM t) SELECT count(*) AS n, ${first} FROM f`,
  );
  for (let i = 0; i < problems.length; i++) {
    const row = r?.[`p${i}`];
    if (row !== null && row !== undefined) throw damaged(file, `row ${String(row)}: field "${problems[i]!.field}" ${problems[i]!.says}`);
  }
  return Number(r?.n ?? 0);
}

const firstLine = (e: unknown): string => String((e as Error).message ?? e).split('\n')[0]!;
