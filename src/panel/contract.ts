/**
 * The input contract's checks of a panel beyond each file's records (read.ts checks those):
 * every file's columns, checked before any work, and the size of every month. `checkPanel` runs
 * every check on every file and collects what it finds (`publish --check`).
 */
import { stat } from 'node:fs/promises';
import { closestMatch } from 'leven';
import { hashFile } from '../core/hash-file.js';
import { CliError } from '../core/errors.js';
import { ID_OVERLAP_RATIO, PANEL_COLUMNS, previousMonth, SHRINK_RATIO } from '../core/panel-contract.js';
import { ident } from '../core/sql.js';
import { openDuck, toNumber, type Duck } from './duck.js';
import { checkFile, readColumns, type PanelFile } from './read.js';
import { comparable, noHeader, wrongSeparator } from './read-errors.js';

const KNOWN = PANEL_COLUMNS.map((c) => c.name);

/** Columns a file's header names wrongly: errors refuse the run; `absent` are optional columns left out. */
export interface ColumnFindings {
  errors: string[];
  absent: string[];
}

/**
 * Checks a file's column names against the contract. A required column missing is an error; so
 * is an unknown column close to a contract column the file lacks (a misspelling: the data would
 * silently be unknown). Other unknown columns are the file's own and are ignored.
 */
export function checkColumns(f: PanelFile, columns: readonly string[]): ColumnFindings {
  const at = (column: string) => `${f.file}: ${f.format === 'csv' ? 'row 1, ' : ''}column ${column}`;
  const separated = f.format === 'csv' ? wrongSeparator(columns, 'store_id') : null;
  if (separated) return { errors: [`${f.file}: ${separated}`], absent: [] };
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const c of columns) {
    if (seen.has(c)) errors.push(`${at(c)}: the header names ${c} twice`);
    seen.add(c);
  }
  const missing = KNOWN.filter((k) => !seen.has(k));
  const byComparable = new Map(missing.map((k) => [comparable(k), k]));
  const misspelt = new Map<string, string>();
  for (const c of columns.filter((c) => !KNOWN.includes(c))) {
    const key = comparable(c);
    const near = byComparable.get(key) ?? closestMatch(key, [...byComparable.keys()], { maxDistance: key.length >= 8 ? 2 : 1 });
    const known = near === undefined ? undefined : (byComparable.get(near) ?? near);
    if (known === undefined || misspelt.has(known)) continue;
    misspelt.set(known, c);
    errors.push(`${at(JSON.stringify(c))}: unknown column, close to ${known} which is missing: rename it ${known}`);
  }
  // A first line naming no column, nor one close to a column, is a record: said once.
  const headless = f.format === 'csv' && misspelt.size === 0 ? noHeader(columns, KNOWN) : null;
  if (headless) return { errors: [`${f.file}: ${headless}`], absent: [] };
  const absent: string[] = [];
  for (const k of missing.filter((k) => !misspelt.has(k))) {
    if (PANEL_COLUMNS.find((c) => c.name === k)!.optional) absent.push(k);
    else errors.push(`${at(k)}: the required column ${k} is missing (columns: ${columns.join(', ') || 'none'})`);
  }
  return { errors, absent };
}

/** The optional columns files leave out, said once per column: `domain (2026-01.csv, 2026-02.csv)`. */
export function absentNotes(absent: ReadonlyMap<string, string[]>): string[] {
  return [...absent].map(([column, names]) => `no ${column} column (optional: unknown for those stores) in ${names.join(', ')}`);
}

/**
 * The code a deprecated or informal country code stands for, by the runtime's locale data ("UK"
 * → "GB", "DD" → "DE"), or undefined for a code that stands for itself (or that the runtime does
 * not know: a user-assigned "XX" is kept as it is).
 */
export function countryAlias(code: string): string | undefined {
  if (!/^[A-Z]{2}$/.test(code)) return undefined;
  const canonical = Intl.getCanonicalLocales(`und-${code}`)[0]!.slice('und-'.length);
  return canonical !== code ? canonical : undefined;
}

/**
 * A note for each country code of the panel that is another code's alias (countryAlias), with the
 * months that hold it (`codes`: month → the country codes holding stores in it). Such a code is
 * published as a country of its own, beside the code it stands for and under the same name.
 */
export function aliasNotes(codes: Iterable<readonly [string, Iterable<string>]>): string[] {
  const months = new Map<string, string[]>();
  for (const [month, values] of codes) {
    for (const code of values) if (countryAlias(code)) months.set(code, [...(months.get(code) ?? []), month]);
  }
  return [...months].sort(([a], [b]) => (a < b ? -1 : 1)).map(([code, ms]) => {
    const to = countryAlias(code)!;
    return `country ${code} (${ms.sort().join(', ')}) is an old or informal code for ${to}: its stores are published as a country of their own, beside ${to}'s and under the same name; write ${to} in the panel files`;
  });
}

/**
 * Checks every file's columns before any work: refuses the run with the first error. Returns
 * the notes on optional columns left out.
 */
export async function checkHeaders(files: readonly PanelFile[]): Promise<string[]> {
  const duck = await openDuck();
  try {
    const absent = new Map<string, string[]>();
    for (const f of files) {
      const found = checkColumns(f, await readColumns(duck, f));
      if (found.errors.length) throw new CliError(found.errors[0]);
      for (const c of found.absent) absent.set(c, [...(absent.get(c) ?? []), f.name]);
    }
    return absentNotes(absent);
  } finally {
    duck.close();
  }
}

/** One month's file and its number of stores. */
export interface MonthSize {
  file: PanelFile;
  stores: number;
}

/**
 * Every month must hold stores, and no month fewer than SHRINK_RATIO of the month before (a
 * partial delivery) unless `allowShrink`. `checked`: the months whose size against the month
 * before is checked (default: all); the month before must be in `sizes` to be compared.
 */
export function checkMonthSizes(sizes: ReadonlyMap<string, MonthSize>, allowShrink: boolean, checked?: ReadonlySet<string>): string[] {
  const found: string[] = [];
  for (const [month, { file, stores }] of [...sizes].sort(([a], [b]) => a.localeCompare(b))) {
    if (stores === 0) {
      found.push(`${file.file}: month ${month} holds no stores (a header and no records): every figure of ${month} would be suppressed`);
      continue;
    }
    const before = sizes.get(previousMonth(month));
    if (allowShrink || !before || before.stores === 0 || (checked && !checked.has(month))) continue;
    if (stores < before.stores * SHRINK_RATIO) {
      found.push(
        `${file.file}: month ${month} holds ${stores} stores, fewer than ${SHRINK_RATIO * 100}% of the ${before.stores} of ${previousMonth(month)} ` +
          '(a partial delivery?); publish it with --allow-shrink if the panel did shrink so much',
      );
    }
  }
  return found;
}

/** A month and the month before it: their stores, and the store ids they share. */
export interface MonthOverlap {
  file: PanelFile;
  stores: number;
  before: number;
  shared: number;
}

/**
 * A month sharing few of its store ids with the month before (ID_OVERLAP_RATIO of the smaller
 * month), unless `allowNewIds`: the ids were rewritten (a spreadsheet dropping leading zeros, a
 * new id scheme), and every store would read as closed and opened again — its trends gone, a
 * closing and an opening signal each, in every workspace that follows it. Null when it shares enough.
 */
export function checkIdOverlap(o: MonthOverlap, allowNewIds: boolean): string | null {
  const { file, stores, before, shared } = o;
  if (allowNewIds || stores === 0 || before === 0 || shared >= ID_OVERLAP_RATIO * Math.min(stores, before)) return null;
  const share = `${((100 * shared) / stores).toFixed(1)}%`;
  return (
    `${file.file}: month ${file.month} shares ${shared} of its ${stores} store ids with the ${before} of ${previousMonth(file.month)} (${share}): were the ids rewritten ` +
    '(leading zeros dropped by a spreadsheet, a new id scheme)? every store would read as closed and opened again, its trends and history lost; ' +
    'publish it with --allow-new-ids if the stores did change'
  );
}

/**
 * The amounts publish sums (product counts, visits, revenue) whose month total passes what it
 * counts exactly (2^53): publish refuses such a month while aggregating, when the figure of a
 * cell adds up past it. Amounts are never negative, so a cell's sum passes only if the month's
 * total does, and the whole panel's cell is the month's total: the same months refused.
 */
function amountsPastExact(totals: Record<string, unknown>, f: PanelFile): string[] {
  return AMOUNTS.flatMap((c) => {
    const total = totals[c.name] as string | null;
    try {
      if (total !== null) toNumber(total);
      return [];
    } catch {
      return [`${f.file}: month ${f.month}: the values of ${c.name} add up past what publish counts exactly (${total}): a value in the file is far too large; publish would refuse the month`];
    }
  });
}

const AMOUNTS = PANEL_COLUMNS.filter((c) => c.nonNegative);

/** One scan of a checked file's typed rows (`select`): each amount's month total (amountsPastExact) and the country codes it holds (aliasNotes). */
async function monthTotals(duck: Duck, select: string): Promise<{ totals: Record<string, unknown>; countries: string[] }> {
  const sums = AMOUNTS.map((c) => `CAST(sum(${ident(c.name)}) AS VARCHAR) AS ${ident(c.name)}`).join(', ');
  const [totals] = await duck.all<Record<string, unknown>>(`SELECT ${sums}, list(DISTINCT country) FILTER (WHERE country IS NOT NULL) AS countries FROM (${select})`);
  return { totals, countries: (totals.countries as string[] | null) ?? [] };
}

/**
 * A month file with the bytes of an earlier month's (`hashes`: month → sha256 of its file): that
 * month's delivery sent again under the next one's name passes every other check (its stores
 * were all created by then) and would publish the earlier month's figures as its own. Warned, not
 * refused: a panel of only attributes that did not change (no visits, no counts) repeats itself.
 */
export function repeatedMonths(files: readonly PanelFile[], hashes: ReadonlyMap<string, string>): string[] {
  const first = new Map<string, PanelFile>();
  const found: string[] = [];
  for (const f of files) {
    const hash = hashes.get(f.month);
    if (hash === undefined) continue;
    const earlier = first.get(hash);
    if (earlier === undefined) first.set(hash, f);
    else found.push(`${f.file}: the same bytes as ${earlier.name} (sha256 ${hash.slice(0, 12)}…): ${earlier.month}'s file delivered again as ${f.month}? every figure of ${f.month} is ${earlier.month}'s; if ${f.month}'s own file differs, put it there and publish again`);
  }
  return found;
}

/** The sha256 of each file that has the size of another (only those can repeat one), by month. */
async function hashesOfSameSize(files: readonly PanelFile[]): Promise<Map<string, string>> {
  const sizes = await Promise.all(files.map((f) => stat(f.file).then((s) => s.size)));
  const hashes = new Map<string, string>();
  for (const [i, f] of files.entries()) {
    if (sizes.filter((size) => size === sizes[i]).length > 1) hashes.set(f.month, await hashFile(f.file));
  }
  return hashes;
}

/**
 * checkIdOverlap of a checked month (`select`, its typed rows) against the month before, whose
 * ids the previous call kept (`before`: its stores, undefined when it was not checked); keeps
 * this month's ids for the next.
 */
async function idsMoved(duck: Duck, f: PanelFile, select: string, stores: number, before: number | undefined, allowNewIds: boolean): Promise<string | null> {
  let found: string | null = null;
  if (before !== undefined && !allowNewIds) {
    const [{ shared }] = await duck.all<{ shared: unknown }>(`SELECT count(*) AS shared FROM (${select}) c SEMI JOIN ids_before b ON b.store_id = c.store_id`);
    found = checkIdOverlap({ file: f, stores, before, shared: toNumber(shared) }, allowNewIds);
  }
  await duck.run(`CREATE OR REPLACE TEMP TABLE ids_before AS SELECT store_id FROM (${select})`);
  return found;
}

/** What `checkPanel` found: refusals (`findings`), notes, and each month's stores. */
export interface PanelCheck {
  findings: string[];
  notes: string[];
  months: { month: string; file: string; stores: number | null }[];
}

/**
 * Runs every input check on every file, writing nothing: each file's columns, then its records
 * (the first bad record of each file), then the size of every month against the month before.
 */
export async function checkPanel(files: readonly PanelFile[], allowShrink: boolean, allowNewIds = false): Promise<PanelCheck> {
  const findings: string[] = [];
  const absent = new Map<string, string[]>();
  const sizes = new Map<string, MonthSize>();
  const countries: Array<[string, string[]]> = [];
  const duck: Duck = await openDuck();
  try {
    for (const f of files) {
      try {
        const found = checkColumns(f, await readColumns(duck, f));
        for (const c of found.absent) absent.set(c, [...(absent.get(c) ?? []), f.name]);
        findings.push(...found.errors);
        if (found.errors.length) continue;
        const { select, rows } = await checkFile(duck, f, 'checked');
        sizes.set(f.month, { file: f, stores: rows });
        const moved = await idsMoved(duck, f, select, rows, sizes.get(previousMonth(f.month))?.stores, allowNewIds);
        if (moved) findings.push(moved);
        const scanned = await monthTotals(duck, select);
        findings.push(...amountsPastExact(scanned.totals, f));
        countries.push([f.month, scanned.countries]);
        await duck.run('DROP TABLE IF EXISTS checked');
      } catch (e) {
        if (!(e instanceof CliError)) throw e;
        findings.push(e.message);
      }
    }
  } finally {
    duck.close();
  }
  findings.push(...checkMonthSizes(sizes, allowShrink));
  return {
    findings,
    notes: [...absentNotes(absent), ...aliasNotes(countries), ...repeatedMonths(files, await hashesOfSameSize(files))],
    months: files.map((f) => ({ month: f.month, file: f.file, stores: sizes.get(f.month)?.stores ?? null })),
  };
}
