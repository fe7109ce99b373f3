/**
 * The private runs sink: every processed month's stores (its panel file) and signals (panel/runs.ts),
 * kept in the runs folder beside (never inside) the public output. The months whose run is not
 * the one the folder holds are written from the statistics' own DuckDB load (compute.ts); the
 * runs index is pointed at them only once the publication itself has succeeded.
 */
import { rm, rmdir } from 'node:fs/promises';
import path from 'node:path';
import { isWithin, readRunsIndex, runDir, signalsRunId, staleRuns, switchRunsIndex } from '../panel/runs.js';
import { CliError } from '../core/errors.js';
import { pruneContactSources, writeContactSource, type CarriedContacts } from './contacts-sink.js';
import type { RunsRequest } from './compute.js';
import { acquireLock, makeFolder } from './lock.js';

export interface PrivateRuns {
  runsDir: string;
  /** months whose run is written in this run (their run id is not the one the index names) */
  months: string[];
  /** month → run id, for every month this publish processes */
  runIds: ReadonlyMap<string, string>;
  /** what compute.ts writes from its load; undefined: every run is current */
  request: RunsRequest | undefined;
  /** the contact source's id the runs index names now */
  contacts: string | undefined;
  /** the publication of the output folder (release.ts publicationId; null: nothing published there yet) */
  publication: string | null;
  /** the output folder, for messages */
  out: string;
}

/** Refuses a runs folder inside the public output folder, or the output inside it. */
export async function checkRunsFolder(runsDir: string | undefined, out: string): Promise<void> {
  if (runsDir !== undefined && ((await isWithin(runsDir, out)) || (await isWithin(out, runsDir)))) {
    throw new CliError(`--runs ${runsDir} and --out ${out} overlap: the runs folder is private and must not be inside the public output folder (nor the output inside it)`);
  }
}

/** The runs of `months` (the months this publish processes) that the runs folder does not hold yet. */
export async function planPrivateRuns(runsDir: string, months: readonly string[], hashes: ReadonlyMap<string, string>, out: string, publication: string | null): Promise<PrivateRuns> {
  const runIds = new Map(months.map((m) => [m, signalsRunId(m, hashes)] as const));
  const index = await readRunsIndex(runsDir);
  const stale = await staleRuns(runsDir, index, runIds);
  return { runsDir, months: stale, runIds, request: stale.length === 0 ? undefined : { runsDir, months: stale, hashes }, contacts: index.contacts, publication, out };
}

/**
 * One writer per runs folder too, taken only when something is written there. Two output
 * folders publishing the same panel may share a runs folder (neither writes anything the other
 * did not); a publish that would write into the runs of another publication is refused (exit 2),
 * so the runs the API ingests never mix two panels (a trial --out beside the default --runs). A
 * runs folder (and its parents) this publish created is removed again on release when it holds
 * nothing: a refused publish leaves the folders as they were.
 */
export async function lockRunsFolder(runs: PrivateRuns | undefined, contacts: CarriedContacts | undefined): Promise<Awaited<ReturnType<typeof acquireLock>> | undefined> {
  if (runs === undefined || (!runs.request && !contacts)) return undefined;
  const created = await makeFolder(runs.runsDir, 'runs folder');
  const lock = await acquireLock(runs.runsDir, 'runs folder');
  const owner = await readRunsIndex(runs.runsDir).then((index) => index.publication, () => undefined);
  if (owner !== undefined && owner !== runs.publication) {
    await lock.release();
    throw new CliError(
      `--runs ${runs.runsDir} holds the stores and signals of another publication (first released ${owner}), not of --out ${runs.out} (${runs.publication === null ? 'nothing published there yet' : `first released ${runs.publication}`}): ` +
        `writing this panel's runs there would mix two panels in what the API ingests; give --out ${runs.out} a runs folder of its own with --runs, or move ${runs.runsDir} away to start it afresh`,
    );
  }
  return {
    release: async () => {
      await lock.release();
      if (created === undefined) return;
      // From the runs folder up to the first folder mkdir made, each while it is empty.
      const top = path.resolve(created);
      for (let dir = path.resolve(runs.runsDir); ; dir = path.dirname(dir)) {
        if (!(await rmdir(dir).then(() => true, () => false)) || dir === top || path.dirname(dir) === dir) break;
      }
    },
  };
}

/**
 * Removes the runs this publish wrote (or found left by one that stopped) for its months, none of
 * which index.json names: called when the publication did not succeed, holding the runs lock.
 */
export async function discardRuns(runs: PrivateRuns): Promise<void> {
  // Read again: a publish that failed after switching the index (pruning old contact sources) keeps what it names.
  const named = (await readRunsIndex(runs.runsDir).catch(() => null))?.months;
  if (!named) return;
  for (const month of runs.months) {
    if (named[month] === runs.runIds.get(month)) continue;
    await rm(runDir(runs.runsDir, month, runs.runIds.get(month)!), { recursive: true, force: true });
    await rmdir(path.join(runs.runsDir, month)).catch(() => {}); // only when no other run is in it
  }
}

/**
 * Points the runs index at the runs written and at the contact source carried (its data
 * written first, older sources pruned after): only once the publication itself has succeeded
 * (`release`, the release it switched in, or null when it switched none in).
 */
export async function switchRunsFolder(runs: PrivateRuns | undefined, contacts: CarriedContacts | undefined, release: string | null, progress: (message: string) => void): Promise<void> {
  if (runs === undefined || (!runs.request && !contacts)) return;
  if (contacts) await writeContactSource(runs.runsDir, contacts, progress);
  progress('switching the runs index');
  // A first publish's publication is named by the release it has just switched in.
  const publication = runs.publication ?? release;
  await switchRunsIndex(runs.runsDir, new Map(runs.months.map((m) => [m, runs.runIds.get(m)!])), contacts ? contacts.id : undefined, publication);
  if (contacts) await pruneContactSources(runs.runsDir, contacts);
}
