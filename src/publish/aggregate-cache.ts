/**
 * Each month's aggregates (stats/aggregate.ts's MonthAgg: every metric × every cell), kept from
 * the run that computed them, so the next run aggregates only the months whose input changed:
 * one added month aggregates that month, not also the month before it (whose aggregates the
 * audit and the deltas need), and a correction aggregates only the months it reaches.
 *
 * A month's aggregates are a function of its panel file, the previous month's (trends and
 * matched cohorts compare the two) and the program: the key is the hash of those three, with
 * DuckDB's version. They live gzipped in the output folder's private `.cache/aggregates/`, written
 * only by a run holding the output's lock, after its release; entries no month of the panel
 * names any more are removed then. A damaged entry is ignored (the month is aggregated again).
 */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import { previousMonth } from '../core/month.js';
import type { DimensionName } from '../core/panel-contract.js';
import type { Cell, CellAgg, MonthAgg } from '../stats/aggregate.js';
import { monthCacheKey } from './assembly-key.js';
import { CACHE_DIR, pruneCacheFolder, tmpBeside } from './hash-cache.js';

const FOLDER = 'aggregates';
const VERSION = 2;

/** The key of a month's aggregates: program, DuckDB, and the hashes of its panel file and the previous month's. */
export function aggregateKey(month: string, hashes: ReadonlyMap<string, string>): Promise<string> {
  return monthCacheKey(VERSION, month, [hashes.get(previousMonth(month)) ?? null, hashes.get(month) ?? null]);
}

const fileOf = (outDir: string, key: string) => path.join(outDir, CACHE_DIR, FOLDER, `${key}.json.gz`);

interface StoredCell {
  value: string | null;
  stores: number;
  cohort: number;
  metrics: [string, CellAgg][];
}
interface StoredAgg {
  month: string;
  /** the month's fingerprint (panel/fingerprint.ts), for correction warnings of the months built from this entry */
  fingerprint: string;
  hasPrior: boolean;
  all: StoredCell;
  groups: [DimensionName, StoredCell[]][];
}

const storeCell = (c: Cell): StoredCell => ({ value: c.value, stores: c.stores, cohort: c.cohort, metrics: [...c.metrics] });
const loadCell = (c: StoredCell): Cell => ({ value: c.value, stores: c.stores, cohort: c.cohort, metrics: new Map(c.metrics) });

/** A month's kept aggregates and its panel file's fingerprint. */
export interface KeptMonth {
  agg: MonthAgg;
  fingerprint: string;
}

/** The cached aggregates of these months (month → key), where present and readable. */
export async function readAggregates(outDir: string, keys: ReadonlyMap<string, string>): Promise<Map<string, KeptMonth>> {
  const out = new Map<string, KeptMonth>();
  for (const [month, key] of keys) {
    try {
      const stored = JSON.parse((await promisify(gunzip)(await readFile(fileOf(outDir, key)))).toString('utf8')) as StoredAgg;
      if (stored.month !== month || typeof stored.fingerprint !== 'string') continue;
      const agg: MonthAgg = { month, hasPrior: stored.hasPrior, all: loadCell(stored.all), groups: new Map(stored.groups.map(([d, cells]) => [d, cells.map(loadCell)])) };
      out.set(month, { agg, fingerprint: stored.fingerprint });
    } catch {
      // absent or damaged: aggregated again
    }
  }
  return out;
}

/**
 * Stores the aggregates computed by this run (month → key and aggregates), and removes every
 * entry whose key is not in `keep`. Each file is written whole (a temporary name, then renamed).
 */
export async function writeAggregates(outDir: string, computed: ReadonlyMap<string, KeptMonth & { key: string }>, keep: ReadonlySet<string>): Promise<void> {
  const dir = path.join(outDir, CACHE_DIR, FOLDER);
  await mkdir(dir, { recursive: true });
  for (const { key, agg, fingerprint } of computed.values()) {
    const stored: StoredAgg = { month: agg.month, fingerprint, hasPrior: agg.hasPrior, all: storeCell(agg.all), groups: [...agg.groups].map(([d, cells]) => [d, cells.map(storeCell)]) };
    const tmp = tmpBeside(fileOf(outDir, key));
    await writeFile(tmp, await promisify(gzip)(JSON.stringify(stored)));
    await rename(tmp, fileOf(outDir, key));
  }
  await pruneCacheFolder(dir, keep);
}
