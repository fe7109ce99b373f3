/**
 * Every benchmark, each against its baseline measured in the same run, as lines of figures and
 * ratios (`storelens bench`, which `npm run bench` runs, prints them). Not a test: nothing here
 * fails a build.
 */
import os from 'node:os';
import path from 'node:path';
import { apiLines, scaleoutLines } from './api-lines.js';
import type { BENCHMARKS } from '../settings/table.js';
import { benchApi } from './api.js';
import { benchCards } from './cards.js';
import { benchIngest } from './ingest.js';
import { machineLine } from './machine.js';
import { benchRanking, type Phases } from './ranking.js';
import { REFRESH_YOUNG_GENERATION_MB } from '../accounts/refresher.js';
import { benchScaleout } from './scaleout.js';
import { ARMS, benchLearning, byScoreArm, LEARNING_PANEL, type LearningBenchResult } from './learning.js';
import { POLICIES, type Rule } from './learning-policies.js';
import { benchPublish, type PublishBenchResult, type PublishRun } from './publish.js';
import type { PhaseMemory } from './publish-child.js';
import type { ReleaseStorageResult } from './release-storage.js';
import { benchServeOnPanel } from './serve.js';
import { benchWebhooks } from './webhooks.js';

export type BenchName = (typeof BENCHMARKS)[number];

export interface BenchOptions {
  /** The publish benchmark's panel: stores, months, and the folder caching it between runs. */
  readonly stores: number;
  /** The publish benchmark's DuckDB memory limit in bytes (every publish of it, and the panel's generation); absent: DuckDB's default. */
  readonly memoryLimit?: number;
  /** The ingest benchmark's stores per month (same months and cache folder). */
  readonly ingestStores: number;
  readonly rankingAccounts: number;
  readonly from: string;
  readonly to: string;
  readonly data: string;
  readonly only: readonly BenchName[];
  /** The learning benchmark's seeds (1 to n) and hidden rules. */
  readonly learningSeeds?: number | readonly number[];
  readonly learningRules?: readonly Rule[];
  /** PostgreSQL for the api and scale-out benchmarks (their PostgreSQL runs are skipped without it). */
  readonly databaseUrl?: string;
}

const fmt = (n: number, digits = 2) => n.toFixed(digits);

/** `processEnv`: what child processes of a benchmark inherit (the api and scale-out benchmarks' storelens processes). */
export async function runBenchmarks(opts: BenchOptions, log: (line: string) => void, processEnv: Readonly<Record<string, string | undefined>> = {}): Promise<string[]> {
  const only = new Set(opts.only);
  const results: string[] = [machineLine('before')];
  log(results[0]);
  if (only.has('publish')) {
    const r = await benchPublish({ stores: opts.stores, from: opts.from, to: opts.to, dataDir: path.resolve(opts.data), memoryLimit: opts.memoryLimit, log });
    results.push(...publishLines(r));
  }
  if (only.has('serve')) {
    const r = await benchServeOnPanel(log);
    results.push(
      `serve ${r.path} (${r.bytes} bytes): 200 ${fmt(r.serve.ok, 0)} req/s vs bare node:http ${fmt(r.bare.ok, 0)} (ratio ${fmt(r.ratio.ok)}); ` +
        `304 ${fmt(r.serve.notModified, 0)} vs ${fmt(r.bare.notModified, 0)} (ratio ${fmt(r.ratio.notModified)}) (goal ≥ 0.9)`,
      `serve ${r.compressed.path} as a browser asks (${r.compressed.coding}: ${r.compressed.sentBytes} bytes of ${r.compressed.bytes}): ` +
        `first request, compressing, ${fmt(r.compressed.firstMs, 1)} ms; then ${fmt(r.compressed.reqPerSec, 0)} req/s`,
    );
  }
  if (only.has('cards')) {
    const r = await benchCards(log);
    results.push(
      `cards: ${r.cards} cards rendered in ${fmt(r.coldSeconds)} s (${fmt(r.coldPerSecond, 1)} cards/s on every core; goal ≥ 30); ` +
        `${fmt(r.cpuPerCard * 1000, 0)} ms of CPU a card, so ${fmt(r.cores / r.cpuPerCard, 1)} cards/s on ${r.cores} idle cores; ` +
        `cached re-publish ${fmt(r.cachedSeconds)} s (${fmt(r.cachedPerSecond, 1)} cards/s, ${fmt(r.cachedPerSecond / r.coldPerSecond, 1)}× faster)`,
    );
  }
  if (only.has('api')) {
    const r = await benchApi(log, { databaseUrl: opts.databaseUrl, processEnv });
    results.push(...apiLines(r, os.availableParallelism()));
  }
  if (only.has('ingest')) {
    const r = await benchIngest({ stores: opts.ingestStores, from: opts.from, to: opts.to, dataDir: path.resolve(opts.data), log });
    results.push(
      `ingest: ${r.months} months, ${r.stores.toLocaleString('en-US')} store rows and ${r.signals.toLocaleString('en-US')} signals into SQLite in ${fmt(r.ingestSeconds)} s ` +
        `(${fmt((r.stores + r.signals) / r.ingestSeconds / 1000, 0)}k rows/s); floor (one prepared statement, one transaction): ${fmt(r.floorSeconds)} s; ` +
        `ratio ${fmt(r.ratio)}× (goal ≤ 1.5×)` +
        (r.generateSeconds !== null ? `; writing the runs took ${fmt(r.generateSeconds, 1)} s` : ''),
    );
  }
  for (const databaseUrl of only.has('ranking') ? [undefined, ...(opts.databaseUrl === undefined ? [] : [opts.databaseUrl])] : []) {
    const r = await benchRanking({ accounts: opts.rankingAccounts, dataDir: path.resolve(opts.data), log, databaseUrl });
    const lat = (l: { requests: number; rps: number; p99: number; failed: number }) => `${fmt(l.rps, 0)} req/s, p99 ${fmt(l.p99, 1)} ms${l.failed ? ` (${l.failed} failed)` : ''}`;
    const phases = (p: Phases) => Object.entries(p).map(([k, ms]) => `${k} ${fmt(ms / 1000)}`).join(', ');
    // The goals are set at 200,000 and 1,000,000 accounts; other sizes are held to the nearer one, pro rata.
    const big = r.accounts > 600_000;
    const scale = r.accounts / (big ? 1_000_000 : 200_000);
    const firstGoal = big ? `goal ≤ ${fmt(20 * scale, 1)} s` : 'goal at 1,000,000 accounts ≤ 20 s';
    const refitGoal = `goal ≤ ${fmt((big ? 3 : 1.3) * scale, 1)} s`;
    results.push(
      `ranking${databaseUrl === undefined ? '' : ' (PostgreSQL)'}: ${r.accounts.toLocaleString('en-US')} accounts scored in ${fmt(r.firstSeconds)} s (${firstGoal}; ${phases(r.firstPhases)}); ` +
        `refit + re-rank after one outcome ${fmt(r.refitSeconds)} s (${refitGoal}; ${phases(r.refitPhases)}); ` +
        `GET /accounts?limit=50 (${fmt(r.pageBytes / 1024, 0)} KiB a page) at 64 connections alone: ${lat(r.alone)}; during a refit: ${lat(r.duringRefit)} (goal p99 < 20 ms)` +
        // The scoring and the refit run in this process: with V8's default young generation they are not what the re-ranking thread of `storelens api` does.
        (YOUNG_GENERATION_FLAG.test(`${process.execArgv.join(' ')} ${processEnv.NODE_OPTIONS ?? ''}`)
          ? ''
          : `; measured with V8's default young generation, not the re-ranking thread's (run it as \`npm run bench\`, or set NODE_OPTIONS=--max-semi-space-size=${REFRESH_YOUNG_GENERATION_MB / 3})`),
    );
  }
  if (only.has('webhooks')) {
    const r = await benchWebhooks(log);
    results.push(
      `webhooks: ${r.messages} deliveries to ${r.endpoints} local endpoints: ${fmt(r.oneWorker, 0)}/s with one worker, ${fmt(r.twoWorkers, 0)}/s with two; ` +
        `commit → receipt at ${r.rate} events/s: p50 ${fmt(r.latency.p50, 0)} ms, p99 ${fmt(r.latency.p99, 0)} ms, max ${fmt(r.latency.max, 0)} ms over ${r.latency.messages} messages (goal p99 < 1 s)`,
    );
  }
  if (only.has('scaleout')) {
    const runs = [await benchScaleout(undefined, processEnv, log)];
    if (opts.databaseUrl !== undefined) runs.push(await benchScaleout(opts.databaseUrl, processEnv, log));
    results.push(...scaleoutLines(runs, os.availableParallelism()));
    if (opts.databaseUrl === undefined) results.push('scaleout: PostgreSQL skipped (set DATABASE_URL to a PostgreSQL database: the api processes and the worker share a schema of their own there)');
  }
  if (only.has('learning')) {
    const r = await benchLearning({ ...LEARNING_PANEL, seeds: opts.learningSeeds ?? LEARNING_PANEL.seeds, rules: opts.learningRules }, log);
    results.push(...learningLines(r));
  }
  results.push(machineLine('after'));
  return results;
}

/** The flag that gives this process the re-ranking thread's young generation (accounts/refresher.ts). */
const YOUNG_GENERATION_FLAG = /--max-semi-space-size[= ]\d+/;

const GIB = 1024 ** 3;

/** Each publish against the raw read of what it needs, with its peak memory and phases. */
function publishLines(r: PublishBenchResult): string[] {
  const phases = (p: Record<string, number>) => Object.entries(p).map(([k, s]) => `${k} ${fmt(s)}`).join(', ');
  // What grows is DuckDB's (the resident set less JavaScript's) or JavaScript's (heap and Buffers).
  const memory = (p: Record<string, PhaseMemory>) => Object.entries(p).map(([k, m]) => `${k} ${fmt(m.rssBytes / GIB)} GiB (${fmt(m.jsBytes / GIB)})`).join(', ');
  // Beside the wall-clock ratio, the CPU time of the publish against the raw read's (every thread
  // of each process): on a machine other work shares, the steadier of the two.
  const run = (label: string, x: PublishRun, raw: number, goal: string, rawCpu: number) =>
    `publish: ${label}: ${fmt(x.seconds)} s, ${fmt(x.seconds / raw, 1)}× its raw read (${fmt(raw)} s; goal ${goal}); ` +
    `CPU ${fmt(x.cpuSeconds)} s, ${fmt(x.cpuSeconds / rawCpu, 1)}× the raw read's (${fmt(rawCpu)} s); peak RSS ${fmt(x.maxRssBytes / GIB)} GiB; ` +
    `${phases(x.phases)} (CPU: ${phases(x.cpuPhases)}; peak RSS, of it JavaScript's: ${memory(x.memoryPhases)})`;
  return [
    `publish: ${r.stores.toLocaleString('en-US')} stores × ${r.months} months${r.rows !== null ? ` (${r.rows.toLocaleString('en-US')} cells)` : ''}: raw read of every column ${fmt(r.rawSeconds)} s; ` +
      (r.floorSeconds !== null
        ? `old floor (one DuckDB statement) ${fmt(r.floorSeconds)} s, ${fmt(r.floorSeconds / r.rawSeconds, 1)}× the raw read`
        : `publishes only at this size (no old floor, no year of releases)`) +
      (r.generateSeconds !== null ? `; generating the panel took ${fmt(r.generateSeconds, 1)} s` : ''),
    run('--all --cards none', r.all, r.rawSeconds, '≤ 3×, peak RSS ≤ 2 GiB', r.rawCpuSeconds) +
      `; the disclosure audit adds ${fmt((100 * (r.all.phases.auditing ?? 0)) / Math.max(r.all.seconds - (r.all.phases.auditing ?? 0), 1e-9), 1)}% to the rest (goal ≤ 20%)`,
    run("--all --cards none, also writing the runs folder (the command's default)", r.allWithRuns, r.rawSeconds, r.stores >= 10_000_000 ? '≤ 6×, peak RSS ≤ 8 GiB' : 'none', r.rawCpuSeconds) +
      `; ${runsRatio(r)}` +
      (r.memoryLimit !== undefined ? `; DuckDB memory limit ${fmt(r.memoryLimit / GIB)} GiB` : ''),
    run('one added month', r.added, r.addedRawSeconds, '≤ 2×', r.addedRawCpuSeconds) + typedFloor(r.addedTypedSeconds, r.addedTypedCpuSeconds, r.addedRawSeconds, r.addedRawCpuSeconds),
    run('a correction of a past month', r.correction, r.correctionRawSeconds, '≤ 3×', r.correctionRawCpuSeconds) +
      typedFloor(r.correctionTypedSeconds, r.correctionTypedCpuSeconds, r.correctionRawSeconds, r.correctionRawCpuSeconds),
    `publish: no-op: ${fmt(r.noop.seconds)} s (goal ≤ 1 s), ${fmt(r.noop.seconds / r.rawSeconds, 2)}× the raw read; peak RSS ${fmt(r.noop.maxRssBytes / GIB)} GiB; ` +
      Object.entries(r.noop.phases).map(([p, s]) => `${p} ${fmt(s)}`).join(', '),
    ...(r.releases ? releaseLines(r.releases) : []),
  ];
}

/**
 * What the months a publish reads cost checked and typed as the input contract says, against their
 * raw read: the least any publish of them can cost before it counts a statistic.
 */
export function typedFloor(seconds: number, cpuSeconds: number, raw: number, rawCpu: number): string {
  return `; the same months checked and typed as the input contract says, before any statistic: ${fmt(seconds)} s, ${fmt(seconds / raw, 1)}× the raw read (CPU ${fmt(cpuSeconds / rawCpu, 1)}×)`;
}

/**
 * The default publish against `--all` alone: over both pairs when the benchmark ran them in both
 * orders (the sums of their times), each pair's ratio beside it.
 */
export function runsRatio(r: Pick<PublishBenchResult, 'all' | 'allWithRuns' | 'again'>): string {
  const pairs = [{ all: r.all, allWithRuns: r.allWithRuns }, ...(r.again ? [r.again] : [])];
  const sum = (f: (p: (typeof pairs)[number]) => number) => pairs.reduce((a, p) => a + f(p), 0);
  const wall = sum((p) => p.allWithRuns.seconds) / sum((p) => p.all.seconds);
  const cpu = sum((p) => p.allWithRuns.cpuSeconds) / sum((p) => p.all.cpuSeconds);
  const each = pairs.map((p) => `${fmt(p.allWithRuns.seconds)} s vs ${fmt(p.all.seconds)} s`).join(', then with the runs first ');
  return `${fmt(wall)}× --all --cards none without the runs (goal ≤ 1.25×${pairs.length > 1 ? '; both orders, sums of' : ';'} ${each}; CPU time ${fmt(cpu)}×)`;
}

const MIB = 1024 ** 2;

/** Keeping every release: a correction into a year of releases against one release, and the disk a year takes. */
function releaseLines(r: ReleaseStorageResult): string[] {
  const phases = (x: PublishRun) => Object.entries(x.phases).map(([p, s]) => `${p} ${fmt(s)}`).join(', ');
  const year = `${r.monthly} monthly releases + ${r.corrections} corrections`;
  const mib = (n: number) => `${fmt(n / MIB, 1)} MiB (${n.toLocaleString('en-US')} bytes)`;
  return [
    `publish: releases kept: a correction into a folder holding ${r.monthly} monthly releases + ${r.corrections - 1} earlier corrections: ${fmt(r.intoYear.seconds)} s (${phases(r.intoYear)}); ` +
      `the same correction into a folder holding one release: ${fmt(r.intoOne.seconds)} s (${phases(r.intoOne)}); ratio ${fmt(r.intoYear.seconds / r.intoOne.seconds)}× (goal ≤ 1.2×)`,
    `publish: releases kept: disk under .releases (distinct inodes) for ${year}: ${mib(r.yearBytes)}, ${fmt(r.yearBytes / r.oneReleaseBytes)}× one release (${mib(r.oneReleaseBytes)}); ` +
      `the year's latest release alone ${mib(r.latestBytes)} (${fmt(r.yearBytes / r.latestBytes)}×); every release as a plain copy ${mib(r.copiedBytes)} (${fmt(r.copiedBytes / r.latestBytes)}×)`,
  ];
}

/** Per rule, per round the mean over seeds of each arm, then each arm's figures after the last round. */
export function learningLines(r: LearningBenchResult): string[] {
  const outcomes = r.rounds * 25;
  const lines = [
    `learning: seeds ${r.seeds.join(', ')}, rounds of 25 outcomes worked from the list GET /accounts answers; per round (0 = before any outcome) the mean E-P@50 ` +
      'of the next 50 unworked accounts in the list\'s order, and of the 50 best-scored (under a rule of conjunctions E-P@50 is P@50)',
  ];
  for (const rule of r.rules) {
    for (const arm of ARMS) {
      lines.push(`learning: ${rule}, ${arm.padEnd(20)} in the list's order ${r.mean[rule]![arm].listed.map((x) => fmt(x)).join(' ')}`);
      lines.push(`learning: ${rule}, ${arm.padEnd(20)} by score            ${r.mean[rule]![arm].ep.map((x) => fmt(x)).join(' ')}`);
    }
  }
  const iv = (x: { mean: number; low: number; high: number }) => `${fmt(x.mean)} [${fmt(x.low)}, ${fmt(x.high)}]`;
  for (const rule of r.rules) {
    for (const arm of ARMS) {
      const f = r.final[rule]![arm];
      lines.push(
        `learning: after ${outcomes} outcomes, ${rule}, ${arm}: E-P@50 in the list's order ${iv(f.listed)} (mean [95% interval]), worst seed ${fmt(f.listed.worst)}; ` +
          `of every account ${iv(f.listedOfAll)}, worst seed ${fmt(f.listedOfAll.worst)}; ` +
          `wins among the ${outcomes} worked ${iv(f.wins)}; E-P@50 by score ${iv(f.ep)}, worst seed ${fmt(f.ep.worst)}; NDCG@50 ${iv(f.ndcg)}; ` +
          `before any outcome ρ(position, score) outside explore rows ${fmt(f.rho.mean)} (lowest ${fmt(f.rho.worst)}); rounds where the list by score would have worked other accounts: ${f.reordered}`,
      );
    }
  }
  lines.push("learning: goals after 200 outcomes, both policies, every rule: in the list's order ≥ 0.7 on average and ≥ 0.5 for every seed; wins ≥ the same policy's on the list by score; ρ ≥ 0.9 before any outcome");
  // Each policy's figures against those goals, met or not, on these seeds.
  const verdict = (ok: boolean) => (ok ? 'met' : 'NOT MET');
  const signed = (x: number) => (x >= 0 ? '+' : '−') + fmt(Math.abs(x), 1);
  for (const rule of r.rules) {
    for (const policy of POLICIES) {
      const f = r.final[rule]![policy];
      const same = r.final[rule]![byScoreArm(policy)];
      const paired = f.winsOverByScore ? ` (seed by seed ${signed(f.winsOverByScore.mean)} [${signed(f.winsOverByScore.low)}, ${signed(f.winsOverByScore.high)}])` : '';
      const wins = `wins ${fmt(f.wins.mean, 1)} against ${fmt(same.wins.mean, 1)} by score${paired}: ${verdict(f.wins.mean >= same.wins.mean)}`;
      lines.push(
        `learning: goals, ${rule}, ${policy}: in the list's order ${fmt(f.listed.mean)} (worst seed ${fmt(f.listed.worst)}): ${verdict(f.listed.mean >= 0.7 && f.listed.worst >= 0.5)}; ` +
          `${wins}; ρ ${fmt(f.rho.worst)} at the lowest: ${verdict(f.rho.worst >= 0.9)}`,
      );
    }
  }
  return lines;
}
