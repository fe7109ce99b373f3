/**
 * The private runs folder (publish writes it, `ingest` reads it): per month, every store's
 * features (stores.parquet) and its month-over-month signals (signals.parquet), content-addressed
 * by a run id, so a store's whole signal history exists and an unchanged month is never rewritten.
 *
 *   <runs>/index.json                        {"runs_version":1,"months":{"2026-01":"<run-id>", …}}
 *   <runs>/<month>/<run-id>/stores.parquet   one row per store present in <month>
 *   <runs>/<month>/<run-id>/signals.parquet  the month's signals (vs the calendar-previous month)
 *   <runs>/<month>/<run-id>/run.json         {"month","run_id","stores","signals","signals_version"}
 *   <runs>/contacts/<contacts-id>/…          the contact source (contacts/source.ts), named by index.json "contacts"
 *
 * A run folder is written beside its final place and renamed in (complete or absent); index.json
 * is switched last (temporary file + rename), then the superseded runs of those months go.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';
import { SIGNALS_VERSION, signalsSql } from './signals.js';
import { AD_COLUMNS, AGENTIC_COLUMNS, previousMonth } from '../core/panel-contract.js';
import { lit, toNumber, type Duck } from './duck.js';
import { RUNS_INDEX, RUNS_VERSION } from '../core/runs-contract.js';

export interface RunsIndex {
  runs_version: 1;
  /** month → run id of its current run */
  months: Record<string, string>;
  /** The contact source's id (contacts/source.ts), when the panel has one. */
  contacts?: string;
}

export interface RunInfo {
  month: string;
  run_id: string;
  stores: number;
  signals: number;
  signals_version: string;
}

/**
 * The run id of a month: sha256 hex of JSON `{signals_version, month, panel: [sha256 of the
 * previous month's panel file or null, sha256 of this month's]}` (`panel` = hashPanel's map).
 */
export function signalsRunId(month: string, panel: ReadonlyMap<string, string>): string {
  const input = { signals_version: SIGNALS_VERSION, month, panel: [panel.get(previousMonth(month)) ?? null, panel.get(month) ?? null] };
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/** The runs index, or an empty one when the folder has none yet. A damaged index stops the run. */
export async function readRunsIndex(runsDir: string): Promise<RunsIndex> {
  const file = path.join(runsDir, RUNS_INDEX);
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { runs_version: 1, months: {} };
    throw e;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  const index = parsed as Partial<RunsIndex> | undefined;
  const ok =
    index?.runs_version === RUNS_VERSION &&
    typeof index.months === 'object' &&
    index.months !== null &&
    Object.values(index.months).every((v) => typeof v === 'string' && /^[0-9a-f]{64}$/.test(v)) &&
    (index.contacts === undefined || (typeof index.contacts === 'string' && /^[0-9a-f]{64}$/.test(index.contacts)));
  if (!ok) throw new CliError(`${file}: not a runs index (expected {"runs_version":1,"months":{…}}); move it away and publish again to rewrite every run`);
  return index as RunsIndex;
}

/** Folder of one month's run. */
export const runDir = (runsDir: string, month: string, runId: string): string => path.join(runsDir, month, runId);

const exists = (p: string): Promise<boolean> => stat(p).then(() => true, () => false);

/**
 * The months among `months` whose run must be written: their run id is not the one in the index,
 * or the run folder has gone. `runIds` gives each month's run id (signalsRunId).
 */
export async function staleRuns(runsDir: string, index: RunsIndex, runIds: ReadonlyMap<string, string>): Promise<string[]> {
  const out: string[] = [];
  for (const [m, id] of [...runIds].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (index.months[m] !== id || !(await exists(path.join(runDir(runsDir, m, id), 'run.json')))) out.push(m);
  }
  return out;
}

/**
 * The flags of `columns` that are true, as a list (`name` of each, in the columns' order): the
 * row's combination (a bit per flag, an unknown flag not set) picks its list out of a constant
 * list of every combination's: a fraction of building the list row by row, and no table of the
 * combinations to make and join each month (docs/publishing.md has the figures).
 */
function flagList(columns: readonly string[], name: (c: string) => string): string {
  const lists = Array.from({ length: 1 << columns.length }, (_, m) => `[${columns.filter((_, k) => m & (1 << k)).map((c) => lit(name(c))).join(', ')}]::VARCHAR[]`);
  const mask = columns.map((c, k) => `CASE WHEN c.${c} THEN ${1 << k} ELSE 0 END`).join(' + ');
  return `[${lists.join(', ')}][1 + ${mask}]`;
}

/** stores.parquet columns, in the contract's order and types, from a relation of the panel rows of `month` (in its order: no sort). */
function storesSelect(month: string, rel: string): string {
  return `SELECT CAST(${lit(month)} AS VARCHAR) AS month, CAST(c.store_id AS VARCHAR) AS store_id, CAST(c.domain AS VARCHAR) AS domain,
      CAST(c.country AS VARCHAR) AS country, CAST(c.category AS VARCHAR) AS category, CAST(c.plan AS VARCHAR) AS plan,
      CAST(c.created_month AS VARCHAR) AS created_month, CAST(c.product_count AS BIGINT) AS product_count,
      CAST(c.monthly_visits AS BIGINT) AS monthly_visits, CAST(c.est_monthly_revenue_usd AS DOUBLE) AS est_monthly_revenue_usd,
      CAST(coalesce(c.apps, []) AS VARCHAR[]) AS apps, ${flagList(AD_COLUMNS, (c) => c.slice('ads_'.length))} AS ads,
      ${flagList(AGENTIC_COLUMNS, (c) => c)} AS agentic
    FROM ${rel} c`;
}

export interface WriteRunsOptions {
  runsDir: string;
  /** months whose run to write (each with its previous month loaded in `panel` when the panel has it) */
  months: readonly string[];
  /** month → run id */
  runIds: ReadonlyMap<string, string>;
  onProgress?: (message: string) => void;
}

/**
 * Writes the run folder of one month from `cur` and `prev`, relations of the panel's typed rows
 * of the month and of the month before. `prev` is null when there is no month to compare with:
 * the month before is not in the panel or holds no stores, or this month holds none (a file of
 * no rows is no data, not a month every store left). A store absent from a known previous
 * month opened; without one, only a store created in the month did. A run
 * folder already complete (an earlier run stopped before switching the index) is kept. The
 * index is not switched here: `switchRunsIndex` does it once the publish has succeeded.
 */
export async function writeRun(duck: Duck, month: string, cur: string, prev: string | null, o: WriteRunsOptions): Promise<RunInfo> {
  const runId = o.runIds.get(month)!;
  const final = runDir(o.runsDir, month, runId);
  if (await exists(path.join(final, 'run.json'))) return JSON.parse(await readFile(path.join(final, 'run.json'), 'utf8')) as RunInfo;
  o.onProgress?.(`writing the stores and signals of ${month} to ${o.runsDir}`);
  await mkdir(path.join(o.runsDir, month), { recursive: true });
  const tmp = path.join(o.runsDir, month, `.tmp-${runId.slice(0, 16)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    // COPY answers the number of rows it wrote. The files' rows are in no particular order (the
    // contract's), so DuckDB need not keep the tables' order: each thread writes its row groups
    // as it makes them, none held back for the ones before it.
    const copy = async (select: string, file: string) => toNumber((await duck.all<{ Count: unknown }>(`COPY (${select}) TO ${lit(path.join(tmp, file))} (FORMAT parquet)`))[0].Count);
    const storesQuery = storesSelect(month, cur);
    const signalsQuery = signalsSql(month, cur, prev ?? `(SELECT * FROM ${cur} LIMIT 0)`, prev !== null);
    const [stores, signals] = await inAnyOrder(duck, async () => [await copy(storesQuery, 'stores.parquet'), await copy(signalsQuery, 'signals.parquet')]);
    const info: RunInfo = { month, run_id: runId, stores, signals, signals_version: SIGNALS_VERSION };
    await writeFile(path.join(tmp, 'run.json'), JSON.stringify(info) + '\n');
    await renameDir(tmp, final);
    return info;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/** Runs `f` with DuckDB free to produce rows in any order (its setting restored after). */
async function inAnyOrder<T>(duck: Duck, f: () => Promise<T>): Promise<T> {
  await duck.run(`SET preserve_insertion_order = false`);
  try {
    return await f();
  } finally {
    await duck.run(`RESET preserve_insertion_order`);
  }
}

/** Moves a finished run folder into place; one already there (same run id ⇒ same content) wins. */
async function renameDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if ((code === 'ENOTEMPTY' || code === 'EEXIST') && (await exists(path.join(to, 'run.json')))) return;
    throw e;
  }
}

/**
 * Points index.json at the given runs (other months keep theirs) and, when `contacts` is given,
 * at that contact source (null: none), atomically, then removes every other entry (superseded
 * runs, leftovers of interrupted writes) of those months' folders.
 */
export async function switchRunsIndex(runsDir: string, runs: ReadonlyMap<string, string>, contacts?: string | null): Promise<void> {
  if (runs.size === 0 && contacts === undefined) return;
  const index = await readRunsIndex(runsDir);
  const months = { ...index.months };
  for (const [m, id] of runs) months[m] = id;
  const sorted = Object.fromEntries(Object.entries(months).sort(([a], [b]) => (a < b ? -1 : 1)));
  const source = contacts === undefined ? index.contacts : (contacts ?? undefined);
  const next: RunsIndex = { runs_version: 1, months: sorted, ...(source ? { contacts: source } : {}) };
  const file = path.join(runsDir, RUNS_INDEX);
  await mkdir(runsDir, { recursive: true });
  const tmp = `${file}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
  await writeFile(tmp, JSON.stringify(next, null, 2) + '\n');
  await rename(tmp, file);
  for (const [m, id] of runs) {
    const dir = path.join(runsDir, m);
    for (const name of await readdir(dir).catch(() => [] as string[])) {
      if (name !== id) await rm(path.join(dir, name), { recursive: true, force: true });
    }
  }
}

/** `a` is `b` or inside it, comparing real paths (a path not yet made: its nearest existing parent's). */
export async function isWithin(a: string, b: string): Promise<boolean> {
  const [ra, rb] = await Promise.all([realish(a), realish(b)]);
  const rel = path.relative(rb, ra);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

async function realish(p: string): Promise<string> {
  let dir = path.resolve(p);
  const rest: string[] = [];
  for (;;) {
    try {
      return path.join(await realpath(dir), ...rest);
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return path.resolve(p);
      rest.unshift(path.basename(dir));
      dir = parent;
    }
  }
}
