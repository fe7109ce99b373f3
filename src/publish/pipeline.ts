/**
 * The publish run: hash the panel, then orchestrate the sinks that take it. The statistics sink
 * (statistics-sink.ts) switches in the public publication; the private runs (runs-sink.ts) and
 * the contact source (contacts-sink.ts) go to the runs folder, switched only once the
 * publication has succeeded. Identical input rewrites nothing.
 */
import { rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';
import { checkHeaders, repeatedMonths } from '../panel/contract.js';
import { listPanel } from '../panel/read.js';
import { SLUGS, type Slug } from '../stats/types.js';
import type { CardsMode } from './artifacts.js';
import { carryContacts } from './contacts-sink.js';
import { hashPanelCached, readHashCache, writeHashCache, type FileClock } from './hash-cache.js';
import { acquireLock, makeFolder } from './lock.js';
import { phaseClock, type Phase } from './phases.js';
import { PORT } from '../core/defaults.js';
import { manifestKey } from '../core/public-paths.js';
import { publishedBaseUrl, readPublication, type Publication } from './publication.js';
import { checkOutputFolder, publicationId } from './release.js';
import { checkRunsFolder, discardRuns, lockRunsFolder, planPrivateRuns, switchRunsFolder } from './runs-sink.js';
import { assembleStatistics, buildStatistics, countStats, isUnchanged, planStatistics, switchPublication, type AssembledStatistics, type StatisticsPlan, type StatisticsRun } from './statistics-sink.js';

export interface PublishOptions {
  input: string;
  out: string;
  /** one month, or every month of the panel */
  months: 'all' | string;
  /**
   * The public base URL. Absent: the one the publication in `out` was made with, or
   * DEFAULT_BASE_URL for a new one. One month (`months`) is published only at the publication's
   * own base URL: its documents and those after it would otherwise name another than the rest.
   */
  baseUrl?: string;
  cards: CardsMode;
  /**
   * The private runs folder (panel/runs.ts): every processed month's store features and signals.
   * Never inside `out` (nor `out` inside it). Absent: no runs are written (programmatic callers).
   */
  runs?: string;
  now: () => Date;
  /** the clock panel and contact files' change times are compared with (hash-cache.ts); default Date.now */
  fileClock?: FileClock;
  onProgress?: (message: string) => void;
  /** called as each phase of the run starts (phases.ts): a progress display can time them */
  onPhase?: (phase: Phase) => void;
  /** worker threads for cards (default: one per core) */
  cardThreads?: number;
  /** warnings for the operator (a correction that touches fewer than FLOOR stores) */
  onWarning?: (message: string) => void;
  /** seconds spent building under the protection rule (for the benchmark) */
  onAudit?: (seconds: number) => void;
  /** publish a month holding far fewer stores than the month before (panel/contract.ts) */
  allowShrink?: boolean;
  /** publish a month sharing few store ids with the month before (panel/contract.ts) */
  allowNewIds?: boolean;
  /**
   * Bytes of memory the panel's DuckDB database may hold (absent: DuckDB's default, 80% of the
   * machine's). Whatever the limit, what does not fit spills to SPILL_DIR in the output folder.
   */
  memoryLimit?: number;
}

/** Where DuckDB spills (inside the output folder, private like the rest of .cache): emptied before and after each run. */
export const SPILL_DIR = '.cache/spill';

/** Where the checked contact source waits for the runs folder (contacts/source.ts), emptied like SPILL_DIR. */
export const CARRY_DIR = '.cache/carry';

export interface PublishSummary {
  out: string;
  changed: boolean;
  release: string | null;
  completed_at: string | null;
  latest_month: string | null;
  /** months whose documents were (re)built in this run */
  months: string[];
  /** months published for the first time */
  releases: string[];
  /** months already published whose figures changed */
  corrections: string[];
  slugs: Slug[];
  stats: number;
  suppressed: number;
  cards_rendered: number;
  files_written: string[];
  /** months whose run (stores and signals) was written to the runs folder in this run */
  runs: string[];
  /** seconds spent in each phase of the run (phases.ts), for scripts and the benchmark */
  phases: Partial<Record<Phase, number>>;
}

/** Where a publication is served when nothing says otherwise (`serve`'s default port). */
export const DEFAULT_BASE_URL = `http://localhost:${PORT}`;

/** The run's base URL, without a trailing slash (PublishOptions.baseUrl); `old` is the live publication. */
async function runBaseUrl(o: PublishOptions, old: Publication | null): Promise<string> {
  const live = await publishedBaseUrl(old);
  const wanted = (o.baseUrl ?? live ?? DEFAULT_BASE_URL).replace(/\/+$/, '');
  if (o.months !== 'all' && live !== null && wanted !== live) {
    throw new CliError(
      `--base-url ${wanted}: ${o.out} is published at ${live}, and --month ${o.months} would rebuild that month and the months after it at ${wanted} beside the others at ${live}; ` +
        `leave --base-url out (or give ${live}) to correct the month, or republish every month with --all to move the publication to ${wanted}`,
    );
  }
  return wanted;
}

export async function publish(o: PublishOptions): Promise<PublishSummary> {
  const clock = phaseClock();
  const report = {
    progress: o.onProgress ?? (() => {}),
    phase: (p: Phase) => {
      clock.enter(p);
      o.onPhase?.(p);
    },
  };
  const files = await listPanel(o.input);
  const panelMonths = files.map((f) => f.month);
  if (o.months !== 'all' && !panelMonths.includes(o.months)) {
    throw new CliError(`--month ${o.months} is not in the panel ${o.input} (it has ${panelMonths[0]} to ${panelMonths[panelMonths.length - 1]})`);
  }
  await checkRunsFolder(o.runs, o.out);
  await checkOutputFolder(o.out);
  // Every file's columns, before any work (a misspelt column would publish its figures as unknown).
  for (const note of await checkHeaders(files)) o.onWarning?.(note);
  report.phase('hashing');
  report.progress('hashing panel files');
  const cacheRead = await readHashCache(o.out);
  const { hashes, cache: hashCache } = await hashPanelCached(files, cacheRead, o.fileClock);
  for (const note of repeatedMonths(files, hashes)) o.onWarning?.(note);
  const spillDir = path.join(o.out, SPILL_DIR);
  const memory = { limitBytes: o.memoryLimit, spillDir };
  const finish = (summary: Omit<PublishSummary, 'phases'>): PublishSummary => {
    clock.stop();
    return { ...summary, phases: clock.totals() };
  };

  const carryDir = path.join(o.out, CARRY_DIR);
  return intoOutputFolder(o.out, [spillDir, carryDir], async (wrote) => {
    const old = await readPublication(o.out);
    const s: StatisticsRun = { ...o, baseUrl: await runBaseUrl(o, old), files, panelMonths, hashes, report, memory };
    const plan = await planStatistics(s, old);
    // The runs folder's sinks: what they write is decided (and the contacts file checked) before anything is written.
    const runs = o.runs === undefined ? undefined : await planPrivateRuns(o.runs, plan.candidates, hashes, o.out, await publicationId(o.out));
    const contacts = runs && (await carryContacts(o.input, runs.runsDir, runs.contacts, cacheRead, hashCache, o.fileClock, { dir: carryDir, limitBytes: o.memoryLimit }));
    const runsLock = await lockRunsFolder(runs, contacts);
    let switched = false;
    try {
      if (!runs?.request && !contacts && (await isUnchanged(s, plan))) return finish(unchangedSummary(o.out, plan.before[plan.before.length - 1] ?? null));
      const built = await buildStatistics(s, plan, runs?.request);
      const assembled = await assembleStatistics(s, plan, built);
      const release = assembled.artifacts.changed ? await switchPublication(s, plan, assembled) : null;
      if (release !== null) wrote();
      const cardless = release === null ? 0 : missingCards(assembled);
      if (cardless) {
        o.onWarning?.(
          `${cardless} stat(s) of ${assembled.latest} have no share card (--cards none): the embed snippets on their pages point at images that answer 404 until a publish with --cards latest renders them`,
        );
      }
      await switchRunsFolder(runs, contacts, release, report.progress);
      switched = true;
      // The caches are kept with a new release only: a run that changes nothing touches nothing.
      if (release !== null) {
        await writeHashCache(o.out, hashCache, cacheRead);
        await built.aggregates.keep();
      } else {
        await built.aggregates.discard();
      }
      return finish(summaryOf(o.out, plan, built.months, assembled, release, runs?.months ?? []));
    } finally {
      // A refused or failed publish takes back the runs it wrote: the runs folder stays as it was.
      if (!switched && runs) await discardRuns(runs);
      await runsLock?.release();
    }
  });
}

/**
 * Runs `f` holding the output folder's lock, with the scratch folders (DuckDB's spill, the
 * carried contacts) empty before and removed after. An output folder this run created is removed
 * again unless `f` reported (`wrote`) that a publication was switched in.
 */
async function intoOutputFolder<T>(out: string, scratch: string[], f: (wrote: () => void) => Promise<T>): Promise<T> {
  const existed = await stat(out).then(() => true, () => false);
  await makeFolder(out, 'output folder');
  const lock = await acquireLock(out);
  let wrote = false;
  try {
    // A run killed while spilling left its spill files: only the lock's holder uses the folders.
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
    return await f(() => (wrote = true));
  } finally {
    for (const dir of scratch) await rm(dir, { recursive: true, force: true });
    await lock.release();
    if (!existed && !wrote) await rm(out, { recursive: true, force: true });
  }
}

/** Stats of the latest month whose share card the publication lacks (left out by `--cards none`). */
function missingCards(a: AssembledStatistics): number {
  let missing = 0;
  for (const slug of a.latest === null ? [] : SLUGS) {
    for (const s of a.docs.get(slug)?.get(a.latest!)?.doc.stats ?? []) {
      if (!(manifestKey({ kind: 'card', slug, month: a.latest!, anchor: s.anchor }) in a.artifacts.manifest)) missing++;
    }
  }
  return missing;
}

function summaryOf(out: string, plan: StatisticsPlan, months: string[], a: AssembledStatistics, release: string | null, runs: string[]): Omit<PublishSummary, 'phases'> {
  const changed = a.artifacts.changed;
  const counted = changed ? countStats(plan, a.docs) : { stats: 0, suppressed: 0 };
  return {
    out,
    changed,
    release,
    completed_at: changed ? a.completedAt : null,
    latest_month: a.latest,
    months: changed ? months : [],
    releases: changed ? a.releases : [],
    corrections: changed ? a.corrections : [],
    slugs: [...SLUGS],
    ...counted,
    cards_rendered: a.artifacts.cardsRendered,
    files_written: changed ? a.artifacts.written : [],
    runs,
  };
}

function unchangedSummary(out: string, latest: string | null): Omit<PublishSummary, 'phases'> {
  return {
    out, changed: false, release: null, completed_at: null, latest_month: latest, months: [], releases: [], corrections: [],
    slugs: [...SLUGS], stats: 0, suppressed: 0, cards_rendered: 0, files_written: [], runs: [],
  };
}
