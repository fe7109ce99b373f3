/**
 * Releases kept, in the publish benchmark (issue 24): the same correction published into an
 * output folder holding one release and into one holding a year of monthly releases and two
 * earlier corrections (what keeping every release costs a publish: goal ≤ 1.2×), and the disk a
 * year of releases takes (distinct inodes under `.releases`: a file stored once counts once)
 * against the one release.
 */
import { lstat, mkdir, readdir, rm, symlink } from 'node:fs/promises';
import path from 'node:path';
import { lit } from '../panel/duck.js';
import type { ChildOptions, PublishRun } from './publish-child.js';

export interface ReleaseStorageResult {
  /** the correction into a folder holding one release (every month published at once) */
  intoOne: PublishRun;
  /** the same correction into a folder holding every release of a year */
  intoYear: PublishRun;
  /** releases in the year's folder after the correction: monthly ones, then corrections */
  monthly: number;
  corrections: number;
  /** bytes of distinct inodes under `.releases`: the one release, and the year */
  oneReleaseBytes: number;
  yearBytes: number;
  /** the year's latest release on its own, and every release of the year as plain copies */
  latestBytes: number;
  copiedBytes: number;
}

export interface ReleaseStorageInput {
  work: string;
  months: string[];
  fileOf: (month: string) => string;
  /** month → the corrected panel file of that month: the earlier corrections, then `measured` */
  corrected: ReadonlyArray<{ month: string; file: string }>;
  /** a folder holding every month published at once and nothing else (one release) */
  oneRelease: string;
  publish: (options: ChildOptions) => Promise<PublishRun>;
  log: (line: string) => void;
}

/**
 * The corrections the benchmark publishes: two earlier ones, then the measured one (`measured`).
 * Each changes the product count of 2% of one month's stores (a different 2% each).
 */
export function correctionMonths(months: string[], measured: string): string[] {
  const n = months.length;
  return [months[1]!, months[Math.max(2, n - 7)]!, measured];
}

/** DuckDB statement writing `source` with the product count of 2% of its stores (slice `k`) one higher. */
export function correctionSql(source: string, target: string, k: number): string {
  return `COPY (SELECT * REPLACE (CASE WHEN hash(store_id) % 50 = ${k} THEN product_count + 1 ELSE product_count END AS product_count) FROM read_parquet(${lit(source)}))
    TO ${lit(target)} (FORMAT parquet)`;
}

export async function benchReleaseStorage(x: ReleaseStorageInput): Promise<ReleaseStorageResult> {
  const base = { baseUrl: 'https://stats.example.com', cards: 'none' as const };
  const measured = x.corrected[x.corrected.length - 1]!;
  const oneReleaseBytes = await inodeBytes(path.join(x.oneRelease, '.releases'));

  // The year: the first two months at once, then one release per month, then the corrections.
  const panel = path.join(x.work, 'panel-year');
  const out = path.join(x.work, 'out-year');
  await mkdir(panel);
  const place = async (month: string, file: string) => {
    await rm(path.join(panel, `${month}.parquet`), { force: true });
    await symlink(file, path.join(panel, `${month}.parquet`));
  };
  for (const m of x.months.slice(0, 2)) await place(m, x.fileOf(m));
  x.log(`releases kept: publishing ${x.months.length - 1} monthly releases into one folder …`);
  await x.publish({ ...base, input: panel, out, months: 'all' });
  for (const m of x.months.slice(2)) {
    await place(m, x.fileOf(m));
    await x.publish({ ...base, input: panel, out, months: m });
  }
  for (const c of x.corrected.slice(0, -1)) {
    x.log(`releases kept: an earlier correction of ${c.month} …`);
    await place(c.month, c.file);
    await x.publish({ ...base, input: panel, out, months: c.month });
  }
  x.log(`releases kept: the correction of ${measured.month} into the year's folder …`);
  await place(measured.month, measured.file);
  const intoYear = await x.publish({ ...base, input: panel, out, months: measured.month });

  // The same correction into the folder holding one release: the panel as the year's ends, the
  // earlier corrections being ones that folder never published.
  const onePanel = path.join(x.work, 'panel-one');
  await mkdir(onePanel);
  for (const m of x.months) await symlink(m === measured.month ? measured.file : x.fileOf(m), path.join(onePanel, `${m}.parquet`));
  x.log(`releases kept: the same correction into a folder holding one release …`);
  const intoOne = await x.publish({ ...base, input: onePanel, out: x.oneRelease, months: measured.month });

  const releases = path.join(out, '.releases');
  const ids = (await readdir(releases)).filter((n) => n !== 'current' && !n.startsWith('.')).sort();
  const latest = path.join(releases, ids[ids.length - 1]!);
  const copies = await Promise.all(ids.map((id) => plainBytes(path.join(releases, id))));
  return {
    intoOne, intoYear, monthly: x.months.length - 1, corrections: x.corrected.length,
    oneReleaseBytes, yearBytes: await inodeBytes(releases), latestBytes: await inodeBytes(latest), copiedBytes: copies.reduce((s, n) => s + n, 0),
  };
}

/** Every regular file under `dir` with its stat (symbolic links not followed). */
async function* walk(dir: string): AsyncGenerator<{ dev: number; ino: number; size: number }> {
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p);
    else if (e.isFile()) yield await lstat(p);
  }
}

/** Bytes on disk under `dir`: the sizes of its distinct inodes (hard links counted once). */
export async function inodeBytes(dir: string): Promise<number> {
  const seen = new Map<string, number>();
  for await (const st of walk(dir)) seen.set(`${st.dev}:${st.ino}`, st.size);
  return [...seen.values()].reduce((s, n) => s + n, 0);
}

/** Bytes of every file under `dir`, each counted: what a plain copy of it takes. */
async function plainBytes(dir: string): Promise<number> {
  let total = 0;
  for await (const st of walk(dir)) total += st.size;
  return total;
}
