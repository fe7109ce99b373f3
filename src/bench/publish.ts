/**
 * The publish benchmark, every figure against the raw read measured in the same run (every
 * panel column of every month into a DuckDB table: what publishing cannot beat): the old floor
 * (one hand-written DuckDB statement computing the same counts, with the previous-month join),
 * `publish --all --cards none` (without and with the runs folder), one added month, a correction
 * of a past month and a no-op; then releases kept (release-storage.ts): the same correction into
 * a folder holding one release and into one holding a year of releases, and the disk a year takes.
 * Each publish runs in a process of its own (publish-child.ts), so its peak memory is its own.
 */
import { fork } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, rm, stat, symlink } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDuck, lit } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { METRICS, type MetricDef } from '../stats/registry.js';
import { monthRange } from '../core/panel-contract.js';
import { PREV_COLUMNS, registerMacros } from '../panel/aggregate.js';
import { loadPanel } from '../panel/read.js';
import type { ChildOptions, ChildResult } from './publish-child.js';
import type { PublishRun } from './publish-child.js';
import { benchReleaseStorage, correctionMonths, correctionSql, type ReleaseStorageResult } from './release-storage.js';

export interface PublishBenchOptions {
  stores: number;
  from: string;
  to: string;
  /** folder that caches the generated panel between runs */
  dataDir: string;
  /** DuckDB's memory limit in bytes for every publish and for generating the panel (spilling beyond it) */
  memoryLimit?: number;
  log: (line: string) => void;
}


export type { PublishRun };

export interface PublishBenchResult {
  stores: number;
  memoryLimit?: number;
  months: number;
  /** cells the old floor computes; null without it */
  rows: number | null;
  generateSeconds: number | null;
  /** every column of every month into a DuckDB table */
  rawSeconds: number;
  /** the CPU time of that read (every thread), like each publish's cpuSeconds */
  rawCpuSeconds: number;
  /** the old floor: one DuckDB statement (read, previous-month join, every cell); null from PUBLISHES_ONLY_FROM stores */
  floorSeconds: number | null;
  all: PublishRun;
  /** `publish --all --cards none` as the command runs it by default: also writing every month's run (stores and signals) */
  allWithRuns: PublishRun;
  /**
   * The same two publishes again in the other order (with the runs first), below PUBLISHES_ONLY_FROM
   * stores: a machine whose speed drifts over minutes favours one order; the ratio is taken over both pairs.
   */
  again: { all: PublishRun; allWithRuns: PublishRun } | null;
  /** the raw read of the month an added month reads (itself: the aggregates and store state of the month before are kept) */
  addedRawSeconds: number;
  addedRawCpuSeconds: number;
  /**
   * The same month checked and typed as the input contract says (every column, the check scan
   * included) and kept as a table: what any publish of the month does before a statistic is
   * counted, so the least an added month can cost against its raw read
   */
  addedTypedSeconds: number;
  addedTypedCpuSeconds: number;
  added: PublishRun;
  /** the raw read of the months a correction reads (the month before it to the month after: two months' aggregates change) */
  correctionRawSeconds: number;
  correctionRawCpuSeconds: number;
  /** the months a correction reads, checked and typed (as addedTypedSeconds) */
  correctionTypedSeconds: number;
  correctionTypedCpuSeconds: number;
  correction: PublishRun;
  noop: PublishRun;
  /** null from PUBLISHES_ONLY_FROM stores */
  releases: ReleaseStorageResult | null;
}

const seconds = (t0: number) => (performance.now() - t0) / 1000;

/**
 * From this many stores (the whole market is ten million) the benchmark measures the publishes
 * only: the old floor's one statement and the year of releases (a dozen publishes) would take
 * hours, and neither has a goal at that size.
 */
export const PUBLISHES_ONLY_FROM = 5_000_000;

export async function benchPublish(o: PublishBenchOptions): Promise<PublishBenchResult> {
  const panel = path.join(o.dataDir, `panel-${o.stores}-${o.from}-${o.to}`);
  const months = monthRange(o.from, o.to);
  if (months.length < 6) throw new Error(`the publish benchmark needs at least 6 months (${o.from} to ${o.to} has ${months.length})`);
  let generateSeconds: number | null = null;
  const have = await Promise.all(months.map((m) => stat(path.join(panel, `${m}.parquet`)).then(() => true, () => false)));
  if (!have.every(Boolean)) {
    o.log(`generating ${o.stores.toLocaleString('en-US')} stores × ${months.length} months as Parquet into ${panel} …`);
    const t0 = performance.now();
    // Spilling beside the panel: ten million stores do not fit the generator's tables in a small memory limit.
    const spillDir = path.join(o.dataDir, '.spill');
    const duck = await openDuck({ limitBytes: o.memoryLimit, spillDir });
    try {
      await generatePanel(duck, { out: panel, stores: o.stores, from: o.from, to: o.to, seed: 'bench', format: 'parquet' }, (m) => o.log(`generating ${m} …`));
    } finally {
      duck.close();
      await rm(spillDir, { recursive: true, force: true });
    }
    generateSeconds = seconds(t0);
  }
  const fileOf = (m: string) => path.join(panel, `${m}.parquet`);
  const files = months.map(fileOf);
  const last = months[months.length - 1];
  // The corrected month: far enough back that the correction reaches two published months after it.
  const corrected = months[months.length - 4];
  const addedNeeds = months.slice(-1);
  const correctionNeeds = months.slice(months.length - 5, months.length - 2);
  // The earlier corrections of the year of releases, then this one: each a different 2% of its month's stores.
  const corrections = correctionMonths(months, corrected).map((month, i, all) => ({ month, slice: i === all.length - 1 ? 0 : i + 1, file: '' }));

  const work = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-'));
  try {
    const duck = await openDuck({ spillDir: path.join(work, 'raw-spill') });
    let rawSeconds: number, addedRawSeconds: number, correctionRawSeconds: number;
    let rawCpuSeconds: number, addedRawCpuSeconds: number, correctionRawCpuSeconds: number;
    let addedTypedSeconds: number, addedTypedCpuSeconds: number, correctionTypedSeconds: number, correctionTypedCpuSeconds: number;
    let floorSeconds: number | null = null, rows: number | null = null;
    const publishesOnly = o.stores >= PUBLISHES_ONLY_FROM;
    try {
      // The best of two reads: the first may pay for a cold page cache or a busy moment, and a
      // raw read measured too slow would flatter every ratio. Its CPU time (this process's, only
      // DuckDB working meanwhile) is the steadier figure on a machine other work shares.
      // Each month is read into a table of its own and dropped before the next (the times
      // summed): the same work as every month in one table, without holding the whole panel,
      // which at ten million stores (130 million rows) is more than the machine's memory.
      const bestOfTwo = async (fs: string[], read: (file: string, month: string) => Promise<void>): Promise<[number, number]> => {
        let best = Infinity, bestCpu = Infinity;
        for (let i = 0; i < 2; i++) {
          let wall = 0, cpuSeconds = 0;
          for (const f of fs) {
            const t0 = performance.now();
            const cpu0 = process.cpuUsage();
            await read(f, path.basename(f, '.parquet'));
            const cpu = process.cpuUsage(cpu0);
            wall += seconds(t0);
            cpuSeconds += (cpu.user + cpu.system) / 1e6;
            await duck.run(`DROP TABLE IF EXISTS raw`);
          }
          best = Math.min(best, wall);
          bestCpu = Math.min(bestCpu, cpuSeconds);
        }
        return [best, bestCpu];
      };
      const raw = (fs: string[]) => bestOfTwo(fs, (f) => duck.run(`CREATE OR REPLACE TEMP TABLE raw AS SELECT * FROM read_parquet(${lit(f)})`));
      // The input contract's check and typing of each month (panel/read.ts), every column kept:
      // what a publish of the month does before it counts anything.
      const typed = (fs: string[]) =>
        bestOfTwo(fs, async (f, month) => {
          await loadPanel(duck, [{ month, file: f, name: path.basename(f), format: 'parquet' }]);
          await duck.run(`CREATE OR REPLACE TEMP TABLE raw AS SELECT * FROM panel`);
        });
      o.log('raw read: every column of every month into a DuckDB table, a month at a time …');
      [rawSeconds, rawCpuSeconds] = await raw(files);
      [addedRawSeconds, addedRawCpuSeconds] = await raw(addedNeeds.map(fileOf));
      [correctionRawSeconds, correctionRawCpuSeconds] = await raw(correctionNeeds.map(fileOf));
      o.log('the same months checked and typed as the input contract says …');
      [addedTypedSeconds, addedTypedCpuSeconds] = await typed(addedNeeds.map(fileOf));
      [correctionTypedSeconds, correctionTypedCpuSeconds] = await typed(correctionNeeds.map(fileOf));
      if (!publishesOnly) {
        o.log('old floor: one DuckDB statement …');
        await registerMacros(duck);
        const t0 = performance.now();
        await duck.run(`CREATE TEMP TABLE floor AS ${floorSql(files)}`);
        floorSeconds = seconds(t0);
        rows = Number((await duck.all<{ rows: string }>(`SELECT count(*) AS rows FROM floor`))[0].rows);
        await duck.run(`DROP TABLE floor`);
      }
      // The correction: 2% of the stores of one past month list one product more.
      for (const [i, c] of corrections.entries()) {
        c.file = path.join(work, `corrected-${i}-${c.month}.parquet`);
        await duck.run(correctionSql(fileOf(c.month), c.file, c.slice));
      }
    } finally {
      duck.close();
    }

    const base = { baseUrl: 'https://stats.example.com', cards: 'none' as const, memoryLimit: o.memoryLimit };
    o.log('publish --all --cards none …');
    const all = await publishInChild({ ...base, input: panel, out: path.join(work, 'out-all'), months: 'all' });
    o.log("publish --all --cards none, writing the runs folder too (the command's default) …");
    const allWithRuns = await publishInChild({ ...base, input: panel, out: path.join(work, 'out-runs'), runs: path.join(work, 'runs'), months: 'all' });
    let again: PublishBenchResult['again'] = null;
    if (!publishesOnly) {
      o.log('the same two again, in the other order: writing the runs folder …');
      const runsAgain = await publishInChild({ ...base, input: panel, out: path.join(work, 'out-runs-again'), runs: path.join(work, 'runs-again'), months: 'all' });
      o.log('… and --all --cards none without it');
      again = { allWithRuns: runsAgain, all: await publishInChild({ ...base, input: panel, out: path.join(work, 'out-all-again'), months: 'all' }) };
    }
    o.log('no-op: publish --all again …');
    const noop = await publishInChild({ ...base, input: panel, out: path.join(work, 'out-all'), months: 'all' });

    // A panel folder of links: every month but the last, published; then the last one added.
    const grown = path.join(work, 'panel');
    await mkdir(grown);
    for (const m of months.slice(0, -1)) await symlink(fileOf(m), path.join(grown, `${m}.parquet`));
    o.log(`one added month: publishing ${months[0]} to ${months[months.length - 2]} first …`);
    const out = path.join(work, 'out-monthly');
    await publishInChild({ ...base, input: grown, out, months: 'all' });
    await symlink(fileOf(last), path.join(grown, `${last}.parquet`));
    o.log(`one added month: publish --month ${last} …`);
    const added = await publishInChild({ ...base, input: grown, out, months: last });
    o.log(`a correction: publish --month ${corrected} …`);
    await rm(path.join(grown, `${corrected}.parquet`));
    await copyFile(corrections[corrections.length - 1]!.file, path.join(grown, `${corrected}.parquet`));
    const correction = await publishInChild({ ...base, input: grown, out, months: corrected });
    // out-all holds one release (the no-op wrote none).
    const releases = publishesOnly ? null : await benchReleaseStorage({ work, months, fileOf, corrected: corrections, oneRelease: path.join(work, 'out-all'), publish: publishInChild, log: o.log });
    return {
      stores: o.stores, memoryLimit: o.memoryLimit, months: months.length, rows, generateSeconds, rawSeconds, rawCpuSeconds, floorSeconds, all, allWithRuns, again,
      addedRawSeconds, addedRawCpuSeconds, addedTypedSeconds, addedTypedCpuSeconds, added,
      correctionRawSeconds, correctionRawCpuSeconds, correctionTypedSeconds, correctionTypedCpuSeconds, correction, noop, releases,
    };
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/** The child runs from dist/ (vitest runs this module from src/: the built file beside it under dist/). */
function childPath(): string {
  const here = fileURLToPath(import.meta.url);
  return here.endsWith('.ts') ? fileURLToPath(new URL('../../dist/bench/publish-child.js', import.meta.url)) : fileURLToPath(new URL('./publish-child.js', import.meta.url));
}

async function publishInChild(options: ChildOptions): Promise<PublishRun> {
  const child = fork(childPath(), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const answer = await new Promise<ChildResult | { error: string }>((resolve, reject) => {
    child.once('message', (m) => resolve(m as ChildResult | { error: string }));
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`the publish process exited (${code}) without an answer`)));
    child.send(options);
  });
  await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
  if ('error' in answer) throw new Error(`publish failed: ${answer.error}`);
  return { seconds: answer.seconds, cpuSeconds: answer.cpuSeconds, maxRssBytes: answer.maxRssBytes, phases: answer.summary.phases ?? {}, cpuPhases: answer.cpuPhases, memoryPhases: answer.memoryPhases, months: answer.summary.months };
}

/** The floor statement: read, join each store to its previous month, aggregate every cell. */
export function floorSql(files: string[]): string {
  const inputs = METRICS.map((m) => `(${m.input}) AS in_${m.key}`).join(', ');
  const aggsOf = (metrics: readonly MetricDef[]) =>
    metrics
      .map((m) => {
        const k = m.key;
        const x = m.kind === 'mean' ? `in_${k}` : `(in_${k})::INT`;
        const px = m.kind === 'mean' ? `p_in_${k}` : `(p_in_${k})::INT`;
        const both = `in_${k} IS NOT NULL AND p_in_${k} IS NOT NULL`;
        const cols = [`count(in_${k}) AS "n:${k}"`, `sum(${x}) AS "num:${k}"`, `count(p_store_id) AS "cohort:${k}"`];
        if (m.kind !== 'count') {
          cols.push(`count_if(${both}) AS "matched:${k}"`, `sum(CASE WHEN ${both} THEN ${x} END) AS "cur:${k}"`, `sum(CASE WHEN ${both} THEN ${px} END) AS "prev:${k}"`);
        }
        return cols.join(', ');
      })
      .join(',\n      ');
  const aggs = aggsOf(METRICS);
  const appAggs = aggsOf(METRICS.filter((m) => m.slug === 'platform-apps'));
  const source = `read_parquet([${files.map(lit).join(', ')}], filename = true)`;
  return `
    WITH raw AS (
      SELECT *, regexp_extract(filename, '(\\d{4}-\\d{2})\\.parquet$', 1) AS month,
        list_sort(list_distinct(string_split(apps_text, ';'))) AS apps
      FROM (SELECT * RENAME (apps AS apps_text) FROM ${source})
    ),
    p AS (SELECT *, (year(strptime(month, '%Y-%m')) * 12 + month(strptime(month, '%Y-%m')) - 1) AS mi FROM raw),
    facts AS (
      SELECT p.store_id, p.mi, p.country, p.category, p.plan, p.apps, ${inputs}
      FROM (
        SELECT p.*, q.q_store_id IS NOT NULL AS prev_present, ${PREV_COLUMNS.map((c) => `q.prev_${c}`).join(', ')}
        FROM p LEFT JOIN (SELECT store_id AS q_store_id, mi AS q_mi, ${PREV_COLUMNS.map((c) => `${c} AS prev_${c}`).join(', ')} FROM p) q
          ON q.q_mi = p.mi - 1 AND q.q_store_id = p.store_id) p
    ),
    j AS (
      SELECT c.*, pr.* FROM facts c
      LEFT JOIN (SELECT store_id AS p_store_id, mi AS p_mi, ${METRICS.map((m) => `in_${m.key} AS p_in_${m.key}`).join(', ')} FROM facts) pr
        ON pr.p_mi = c.mi - 1 AND pr.p_store_id = c.store_id
    )
    SELECT mi, country, category, plan, NULL AS app, count(*),
      ${aggs}
    FROM j GROUP BY GROUPING SETS ((mi), (mi, country), (mi, category), (mi, plan))
    UNION ALL BY NAME
    SELECT mi, app, count(*), ${appAggs}
    FROM (SELECT *, unnest(apps) AS app FROM j) GROUP BY mi, app`;
}
