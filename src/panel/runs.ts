/**
 * The private runs folder (publish writes it, `ingest` reads it): per month, every store's
 * features (the month's panel file as it was published) and its month-over-month signals
 * (signals.parquet), content-addressed by a run id, so a store's whole signal history exists and
 * an unchanged month is never rewritten.
 *
 *   <runs>/index.json                        {"runs_version":1,"months":{"2026-01":"<run-id>", …},"publication":"<release id>"}
 *   <runs>/<month>/<run-id>/stores.<format>  a copy of <month>'s panel file (csv, parquet or ndjson), one row per store
 *   <runs>/<month>/<run-id>/signals.parquet  the month's signals (vs the calendar-previous month)
 *   <runs>/<month>/<run-id>/run.json         {"month","run_id","stores","signals","signals_version","stores_file","stores_sha256","signals_sha256"}
 *   <runs>/contacts/<contacts-id>/…          the contact source (contacts/source.ts), named by index.json "contacts"
 *
 * The stores are the panel file itself, not a typed copy: publish would otherwise encode every
 * row of every month a second time, and ingest types the file with the code publish reads it
 * with (panel/read.ts), so both see the same rows.
 *
 * A run folder is written beside its final place and renamed in (complete or absent); index.json
 * is switched last (temporary file + rename), then the superseded runs of those months go.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, realpath, rename, rm, stat, writeFile } from 'node:fs/promises';
import { pipeline } from 'node:stream/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';
import { hashFile } from '../core/hash-file.js';
import { isReleaseId } from '../core/public-paths.js';
import { SIGNALS_VERSION, signalsSql } from './signals.js';
import { previousMonth } from '../core/panel-contract.js';
import { lit, toNumber, type Duck } from './duck.js';
import type { PanelFile } from './read.js';
import { RUNS_INDEX, RUNS_VERSION, writeAnew } from '../core/runs-contract.js';

export interface RunsIndex {
  runs_version: 1;
  /** month → run id of its current run */
  months: Record<string, string>;
  /** The contact source's id (contacts/source.ts), when the panel has one. */
  contacts?: string;
  /**
   * The publication whose publish wrote the folder (its output folder's first release id,
   * publish/release.ts publicationId): publish writes no other publication's runs into it.
   * Absent in folders written before it was kept (the next publish that writes records it).
   */
  publication?: string;
}

export interface RunInfo {
  month: string;
  run_id: string;
  stores: number;
  signals: number;
  signals_version: string;
  /** `stores.csv`, `stores.parquet` or `stores.ndjson`: the month's panel file, copied */
  stores_file: string;
  /** sha256 hex of that file (the panel file's, as the run id names it) */
  stores_sha256: string;
  /** sha256 hex of signals.parquet (absent in runs written before it was kept: ingest then checks its rows alone) */
  signals_sha256?: string;
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
    (index.contacts === undefined || (typeof index.contacts === 'string' && /^[0-9a-f]{64}$/.test(index.contacts))) &&
    (index.publication === undefined || (typeof index.publication === 'string' && isReleaseId(index.publication)));
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

export interface WriteRunsOptions {
  runsDir: string;
  /** months whose run to write (each with its previous month loaded in `panel` when the panel has it) */
  months: readonly string[];
  /** month → sha256 hex of its panel file: each run's id is made of them (signalsRunId), and its stores file is checked against its own */
  hashes: ReadonlyMap<string, string>;
  onProgress?: (message: string) => void;
}

/**
 * Writes the run folder of one month: `panel`, the month's panel file, copied as its stores; its
 * signals from `cur` and `prev`, relations of the panel's typed rows of the month (`stores` of
 * them) and of the month before. `prev` is null when there is no month to compare with:
 * the month before is not in the panel or holds no stores, or this month holds none (a file of
 * no rows is no data, not a month every store left). A store absent from a known previous
 * month opened; without one, only a store created in the month did. A run
 * folder already complete (an earlier run stopped before switching the index) is kept. The
 * index is not switched here: `switchRunsIndex` does it once the publish has succeeded.
 */
export async function writeRun(duck: Duck, panel: PanelFile, stores: number, cur: string, prev: string | null, o: WriteRunsOptions): Promise<RunInfo> {
  const month = panel.month;
  const runId = signalsRunId(month, o.hashes);
  const final = runDir(o.runsDir, month, runId);
  if (await exists(path.join(final, 'run.json'))) return JSON.parse(await readFile(path.join(final, 'run.json'), 'utf8')) as RunInfo;
  o.onProgress?.(`writing the stores and signals of ${month} to ${o.runsDir}`);
  await mkdir(path.join(o.runsDir, month), { recursive: true });
  const tmp = path.join(o.runsDir, month, `.tmp-${runId.slice(0, 16)}-${process.pid}-${randomBytes(4).toString('hex')}`);
  await mkdir(tmp);
  try {
    const storesFile = `stores.${panel.format}`;
    const sha256 = await copyChecked(panel.file, path.join(tmp, storesFile), o.hashes.get(month)!);
    // COPY answers the number of rows it wrote. The signals are in no particular order (the
    // contract's), so DuckDB need not keep the tables' order: each thread writes its row groups
    // as it makes them, none held back for the ones before it.
    const signalsQuery = signalsSql(month, cur, prev ?? `(SELECT * FROM ${cur} LIMIT 0)`, prev !== null);
    const signals = await inAnyOrder(duck, async () => toNumber((await duck.all<{ Count: unknown }>(`COPY (${signalsQuery}) TO ${lit(path.join(tmp, 'signals.parquet'))} (FORMAT parquet)`))[0].Count));
    const signalsSha256 = await hashFile(path.join(tmp, 'signals.parquet'));
    const info: RunInfo = { month, run_id: runId, stores, signals, signals_version: SIGNALS_VERSION, stores_file: storesFile, stores_sha256: sha256, signals_sha256: signalsSha256 };
    await writeFile(path.join(tmp, 'run.json'), JSON.stringify(info) + '\n');
    await renameDir(tmp, final);
    return info;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

/**
 * Copies `from` to `to`, hashing the bytes on the way: a file that is no longer the one the run
 * id was made of (`expected`, its sha256 when publish started) stops the run rather than giving
 * the run other stores than its statistics. Resolves to the sha256.
 */
async function copyChecked(from: string, to: string, expected: string): Promise<string> {
  const hash = createHash('sha256');
  const source = createReadStream(from);
  source.on('data', (chunk) => hash.update(chunk));
  await pipeline(source, createWriteStream(to, { flags: 'wx' }));
  const got = hash.digest('hex');
  if (got !== expected) throw new CliError(`${from}: changed while publish was running (sha256 ${got.slice(0, 12)}…, ${expected.slice(0, 12)}… when it started); publish again`);
  return got;
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

/**
 * Moves a finished run folder into place; one already there (same run id ⇒ same content) wins.
 * A folder there without its run.json (one is renamed into place whole) was left incomplete.
 */
async function renameDir(from: string, to: string): Promise<void> {
  try {
    await rename(from, to);
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== 'ENOTEMPTY' && code !== 'EEXIST') throw e;
    if (await exists(path.join(to, 'run.json'))) return;
    throw new CliError(`${to}: a run folder without its run.json (incomplete: a copy that stopped?); ${writeAnew(to)}`, 2);
  }
}

/**
 * Points index.json at the given runs (other months keep theirs) and, when `contacts` is given,
 * at that contact source (null: none), and names `publication` as the folder's (absent: the
 * one it names stays), atomically, then removes every other entry (superseded runs, leftovers
 * of interrupted writes) of those months' folders.
 */
export async function switchRunsIndex(runsDir: string, runs: ReadonlyMap<string, string>, contacts?: string | null, publication?: string | null): Promise<void> {
  if (runs.size === 0 && contacts === undefined) return;
  const index = await readRunsIndex(runsDir);
  const months = { ...index.months };
  for (const [m, id] of runs) months[m] = id;
  const sorted = Object.fromEntries(Object.entries(months).sort(([a], [b]) => (a < b ? -1 : 1)));
  const source = contacts === undefined ? index.contacts : (contacts ?? undefined);
  const owner = publication ?? index.publication;
  const next: RunsIndex = { runs_version: 1, months: sorted, ...(source ? { contacts: source } : {}), ...(owner ? { publication: owner } : {}) };
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
