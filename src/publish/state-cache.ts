/**
 * The store state of the panel's last month (panel/aggregate.ts's stateSql: what the month after
 * reads of it, for its trends, cohorts and signals), kept from the run that read that month, so
 * the monthly run that adds the next month reads only the new month's panel file: the month
 * before it comes from its kept aggregates (aggregate-cache.ts) and this state.
 *
 * A state is a function of its month's panel file and the program: the key is the hash of those,
 * with DuckDB's version. It lives in the output folder's private `.cache/state/` as
 * `<key>.parquet`, written during the run beside its place (`.tmp`) and moved in only with a new
 * release; every other entry is removed then. An entry that cannot be read is never used: the
 * month's panel file is read instead.
 */
import { mkdir, rename, rm, rmdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { monthCacheKey } from './assembly-key.js';
import { CACHE_DIR, pruneCacheFolder, tmpBeside } from './hash-cache.js';

const FOLDER = 'state';
const VERSION = 1;

/** The key of a month's state: program, DuckDB, and the hash of its panel file. */
export function stateKey(month: string, hashes: ReadonlyMap<string, string>): Promise<string> {
  return monthCacheKey(VERSION, month, hashes.get(month) ?? null);
}

const folder = (outDir: string) => path.join(outDir, CACHE_DIR, FOLDER);
const fileOf = (outDir: string, key: string) => path.join(folder(outDir), `${key}.parquet`);

/** The kept states among these months (month → key): month → file. */
export async function keptStates(outDir: string, keys: ReadonlyMap<string, string>): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const [month, key] of keys) {
    const file = fileOf(outDir, key);
    if (await stat(file).then((s) => s.isFile(), () => false)) out.set(month, file);
  }
  return out;
}

/** Where this run writes the state of a month (moved in by keepStates). */
export async function pendingState(outDir: string, key: string): Promise<{ file: string; key: string }> {
  await mkdir(folder(outDir), { recursive: true });
  return { file: tmpBeside(fileOf(outDir, key)), key };
}

/**
 * Moves in the state this run wrote (`pending`, when it wrote one) and removes every other entry
 * but those whose key is in `keep`.
 */
export async function keepStates(outDir: string, pending: { file: string; key: string } | undefined, keep: ReadonlySet<string>): Promise<void> {
  const wrote = pending !== undefined && (await stat(pending.file).then(() => true, () => false));
  if (wrote) await rename(pending.file, fileOf(outDir, pending.key));
  const kept = new Set([...keep, ...(wrote ? [pending.key] : [])]);
  await pruneCacheFolder(folder(outDir), kept);
}

/** Removes what a run that switched nothing in wrote (the folder too when that leaves it empty). */
export async function dropPending(pending: { file: string } | undefined): Promise<void> {
  if (!pending) return;
  await rm(pending.file, { force: true });
  await rmdir(path.dirname(pending.file)).catch(() => {});
}
