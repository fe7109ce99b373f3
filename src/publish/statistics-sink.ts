/**
 * The statistics sink, the public publication: decide which documents changed (run ids),
 * compute only those (over the aggregates kept from earlier runs), assemble every artifact, and
 * switch the new publication in atomically. Identical input rewrites nothing.
 */
import { CliError } from '../core/errors.js';
import { nextMonth, previousMonth } from '../core/panel-contract.js';
import { aliasNotes } from '../panel/contract.js';
import { storesChanged } from '../panel/fingerprint.js';
import { loadPanel, type PanelFile } from '../panel/read.js';
import { openDuck, type DuckMemory } from '../panel/duck.js';
import type { MonthAgg } from '../stats/aggregate.js';
import type { BuiltMonth } from '../stats/build.js';
import { FLOOR } from '../stats/suppression.js';
import { unionOf, universeHash, type CellValues } from '../stats/universe.js';
import { SLUGS, type Slug } from '../stats/types.js';
import { aggregateKey, readAggregates, writeAggregates } from './aggregate-cache.js';
import { dropPending, keepStates, keptStates, pendingState, stateKey } from './state-cache.js';
import { assembleArtifacts, type Assembled, type CardsMode } from './artifacts.js';
import { assemblyKey } from './assembly-key.js';
import { computeMonths, type ComputedMonths, type ComputeOptions, type Reporter, type RunsRequest } from './compute.js';
import { publicationDocuments, updatedFeed, type Documents, type FeedUpdate } from './documents.js';
import { loadSuppression, MANIFEST_FILE, publishedMonths, readPublication, saveSuppression, STATE_FILE, type Publication, type PublicationState } from './publication.js';
import { newReleaseId, writeRelease } from './release.js';
import { keptEarlier, publishedBefore } from './earlier-releases.js';
import type { EarlierReleases, SavedEarlier } from '../stats/releases.js';
import { renderChangeList } from './changes.js';
import type { ReleaseDoing } from './release-index.js';
import { pageUrl, releasePath } from '../core/public-paths.js';
import { REACH, runId } from './run-id.js';

/** What the statistics sink reads: the run's options, its panel, and where it reports. */
export interface StatisticsRun {
  input: string;
  out: string;
  /** one month, or every month of the panel */
  months: 'all' | string;
  /** without a trailing slash */
  baseUrl: string;
  cards: CardsMode;
  cardThreads?: number;
  files: PanelFile[];
  panelMonths: string[];
  /** month → sha256 of its panel file */
  hashes: ReadonlyMap<string, string>;
  report: Reporter;
  now: () => Date;
  onWarning?: (message: string) => void;
  onAudit?: (seconds: number) => void;
  /** a month far smaller than the month before is published (panel/contract.ts) */
  allowShrink?: boolean;
  /** a month sharing few store ids with the month before is published (panel/contract.ts) */
  allowNewIds?: boolean;
  /** what DuckDB may hold in memory and where it spills the rest */
  memory?: DuckMemory;
}

/** The live publication and the documents this run rebuilds. */
export interface StatisticsPlan {
  old: Publication | null;
  state: PublicationState;
  /** months published until now */
  before: string[];
  /** months this run processes (their private runs are written too) */
  candidates: string[];
  /** slug → month → run id of every document after this run */
  runs: Record<string, Record<string, string>>;
  /** `${slug}/${month}` of every document whose run id changed */
  rebuild: Set<string>;
  /** months with a document to rebuild */
  months: string[];
  /** the hash of the breakdown values the live publication lists */
  oldUniverse: string;
  /** the months whose input is new or changed (their documents' run ids changed, before any relisting) */
  changedInput: Set<string>;
}

/** The run's plan over `old`, the publication live in `s.out` (readPublication, read under the output folder's lock). */
export async function planStatistics(s: StatisticsRun, old: Publication | null): Promise<StatisticsPlan> {
  const state: PublicationState = old?.state ?? { state_version: 1, runs: {}, feed: [] };
  const before = publishedMonths(state);
  await refuseGoneMonths(s, before);
  // A correction of month M also reaches the months whose documents depend on M.
  const reach = Math.max(...SLUGS.map((slug) => REACH[slug]));
  const after = s.months === 'all' ? [] : [s.months];
  for (let i = 0; i < reach && after.length; i++) after.push(nextMonth(after[after.length - 1]));
  // Months published before their breakdown values were kept are rebuilt (they now list every value).
  const storedCells = state.cells ?? {};
  const unlisted = before.filter((m) => !storedCells[m]);
  const candidates = s.months === 'all' ? s.panelMonths : [...new Set([...unlisted, ...after.filter((m) => m === s.months || before.includes(m))])];
  const oldUniverse = universeHash(unionOf(before.map((m) => storedCells[m] ?? {})));
  const plan: StatisticsPlan = {
    old, state, before, candidates, oldUniverse,
    runs: structuredClone(state.runs) as Record<string, Record<string, string>>,
    rebuild: new Set(),
    months: [],
    changedInput: new Set(),
  };
  planDocuments(s, plan, candidates, oldUniverse);
  plan.months = [...new Set([...plan.rebuild].map((k) => k.slice(k.indexOf('/') + 1)))].sort();
  plan.changedInput = new Set(plan.months);
  return plan;
}

/** Gives each document of `months` its run id (listing the values hashed as `cells`); marks those whose id changed for a rebuild. */
function planDocuments(s: StatisticsRun, plan: StatisticsPlan, months: readonly string[], cells: string): void {
  for (const m of months) {
    for (const slug of SLUGS) {
      const id = runId(slug, m, s.hashes, s.baseUrl, cells);
      if (plan.state.runs[slug]?.[m] !== id) plan.rebuild.add(`${slug}/${m}`);
      (plan.runs[slug] ??= {})[m] = id;
    }
  }
}

/**
 * A publication is made from the whole panel. A published month whose file has gone would stay
 * published beside months rebuilt as if it had never been (the month after it without a
 * previous month, every month still listing its breakdown values): refused before anything is
 * written, once the panel's files pass their checks (a bad file is named first).
 */
async function refuseGoneMonths(s: StatisticsRun, published: readonly string[]): Promise<void> {
  const gone = published.filter((m) => !s.panelMonths.includes(m));
  if (!gone.length) return;
  const duck = await openDuck(s.memory);
  try {
    await loadPanel(duck, s.files);
  } finally {
    duck.close();
  }
  throw new CliError(
    `${s.input}: ${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} published in ${s.out} but no longer in the panel; ` +
      'put the file back, or publish the panel as it is now into a new output folder',
  );
}

/**
 * Nothing to build, and the live publication was assembled from exactly these documents, feed,
 * options and program: it is what this run would write.
 */
export async function isUnchanged(s: StatisticsRun, plan: StatisticsPlan): Promise<boolean> {
  return plan.months.length === 0 && plan.state.assembly !== undefined &&
    plan.state.assembly === (await assemblyKey({ runs: plan.runs, feed: plan.state.feed, baseUrl: s.baseUrl, cards: s.cards }));
}

/** The statistics computed for this run, and the aggregates to keep for the next. */
export interface BuiltStatistics {
  computed: ComputedMonths | undefined;
  /** months whose documents are rebuilt (every published month, when the listed breakdown values changed) */
  months: string[];
  aggregates: AggregateCache;
}

/**
 * Computes the months to rebuild, writing the private runs requested from the same load. A
 * breakdown value new to the publication (or gone from it) rebuilds every published month.
 */
export async function buildStatistics(s: StatisticsRun, plan: StatisticsPlan, runsRequest: RunsRequest | undefined): Promise<BuiltStatistics> {
  const storedCells = plan.state.cells ?? {};
  const kept = plan.before.filter((m) => !plan.months.includes(m));
  const known = unionOf(kept.map((m) => storedCells[m] ?? {}));
  const aggregates = await aggregateCache(s, plan, { shrinkChecked: plan.changedInput, allowShrink: s.allowShrink ?? false, allowNewIds: s.allowNewIds ?? false });
  let months = plan.months;
  let computed = months.length || runsRequest ? await aggregates.compute(months, { known, listedAs: kept.length ? plan.oldUniverse : undefined, runs: runsRequest }) : undefined;
  if (computed?.relisted) {
    // Every published month lists the new set of rows: a correction of each, built together so
    // deltas and audits agree.
    const runsWritten = computed.runs;
    months = [...new Set([...months, ...kept])].sort();
    s.report.progress(`the listed breakdown values changed: rebuilding ${months.length} month(s)`);
    computed = { ...(await aggregates.compute(months, { known: computed.universe })), runs: runsWritten };
  }
  if (computed && months.length) planDocuments(s, plan, months, universeHash(computed.universe));
  return { computed, months, aggregates };
}

interface AggregateCache {
  /** computeMonths, taking the aggregates kept from earlier runs for the months it builds and the months before them */
  compute(months: string[], options: ComputeOptions): Promise<ComputedMonths>;
  /**
   * Keeps the months aggregated in this run (aggregate-cache.ts), dropping aggregates of panel
   * files gone or changed, and the last month's store state (state-cache.ts).
   */
  keep(): Promise<void>;
  /** Removes what this run wrote for keeping (a run that switches nothing in keeps nothing). */
  discard(): Promise<void>;
  /** what the releases published of each month read for the audits (publishedBefore) */
  earlier: ReadonlyMap<string, EarlierReleases>;
}

async function aggregateCache(s: StatisticsRun, plan: StatisticsPlan, sizes: ComputeOptions['sizes']): Promise<AggregateCache> {
  const { state } = plan;
  const published = new Map(Object.entries(state.suppression ?? {}).map(([m, x]) => [m, loadSuppression(x)]));
  const keys = new Map(await Promise.all(s.panelMonths.map(async (m) => [m, await aggregateKey(m, s.hashes)] as const)));
  const cached = new Map<string, MonthAgg>();
  const aggregated = new Map<string, MonthAgg>();
  const fingerprinted = new Map<string, string>();
  const earlier = new Map<string, EarlierReleases>();
  const releasesRead = new Set<string>();
  // The last month's state is kept for the run that adds the month after it; the states kept
  // stand for the months read only as the month before another.
  const stateKeys = new Map(await Promise.all(s.panelMonths.map(async (m) => [m, await stateKey(m, s.hashes)] as const)));
  const kept = await keptStates(s.out, stateKeys);
  const last = s.panelMonths[s.panelMonths.length - 1];
  const pending = last === undefined || kept.has(last) ? undefined : await pendingState(s.out, stateKeys.get(last)!);
  const states = { kept, keep: pending && { month: last, file: pending.file } };
  return {
    async compute(ms, options) {
      const wanted = new Set(ms.flatMap((m) => [m, previousMonth(m)]));
      const unread = [...wanted].filter((m) => !releasesRead.has(m));
      for (const m of unread) releasesRead.add(m);
      for (const [m, e] of await publishedBefore(s.out, plan.old, unread)) {
        earlier.set(m, e);
        releasesRead.add(m);
      }
      const toRead = [...keys].filter(([m]) => wanted.has(m) && !cached.has(m) && !aggregated.has(m));
      for (const [m, kept] of await readAggregates(s.out, new Map(toRead))) {
        cached.set(m, kept.agg);
        fingerprinted.set(m, kept.fingerprint);
      }
      let c: Awaited<ReturnType<typeof computeMonths>>;
      try {
        c = await computeMonths(s.files, ms, s.baseUrl, s.report, { ...options, published, earlier, sizes, memory: s.memory, cached: new Map([...cached, ...aggregated]), states });
      } catch (e) {
        // A run that stops leaves nothing behind: the state written for the month after goes too.
        await dropPending(pending);
        throw e;
      }
      for (const [m, agg] of c.aggregated) aggregated.set(m, agg);
      // The fingerprint of a month built from kept aggregates is the one kept with them.
      for (const [m, f] of c.fingerprints) fingerprinted.set(m, f);
      return { ...c, fingerprints: new Map([...fingerprinted].filter(([m]) => ms.includes(m))) };
    },
    async keep() {
      await writeAggregates(s.out, new Map([...aggregated].map(([m, agg]) => [m, { key: keys.get(m)!, agg, fingerprint: fingerprinted.get(m)! }])), new Set(keys.values()));
      await keepStates(s.out, pending, new Set(last === undefined ? [] : [stateKeys.get(last)!]));
    },
    discard: () => dropPending(pending),
    earlier,
  };
}

/** The bookkeeping of the audit, the panel files and the listed values that the new publication keeps (publication.ts). */
interface KeptState {
  suppression: NonNullable<PublicationState['suppression']>;
  fingerprints: NonNullable<PublicationState['fingerprints']>;
  cells: Record<string, CellValues>;
}

/**
 * The live publication's bookkeeping with the rebuilt months' own. A correction that changes
 * fewer than FLOOR stores' records is published with a warning: comparing the two releases
 * reads those stores' figures.
 */
function keptState(s: StatisticsRun, plan: StatisticsPlan, built: BuiltStatistics): KeptState {
  const { state, before } = plan;
  const suppression = { ...state.suppression };
  const fingerprints = { ...state.fingerprints };
  for (const [m, f] of built.computed?.fingerprints ?? []) {
    const was = state.fingerprints?.[m];
    const changedStores = was === undefined ? 0 : storesChanged(was, f);
    if (before.includes(m) && changedStores > 0 && changedStores < FLOOR) {
      s.onWarning?.(
        `the correction of ${m} changes the records of about ${changedStores} store(s), fewer than ${FLOOR}: ` +
          `whoever compares the releases of ${m} can read those stores' own contribution to every figure published in both ` +
          '(and nothing else: every figure an earlier release hid stays hidden)',
      );
    }
    fingerprints[m] = f;
  }
  for (const [m, x] of built.computed?.extras ?? []) {
    if (!built.months.includes(m)) continue;
    if (x.cells.size + x.stats.size + x.cohorts.size + x.deltas.size > 0) suppression[m] = saveSuppression(x);
    else delete suppression[m];
  }
  const cells = Object.fromEntries(Object.entries(state.cells ?? {}).filter(([m]) => before.includes(m)));
  for (const [m, v] of built.computed?.cells ?? []) cells[m] = v;
  for (const note of aliasNotes([...(built.computed?.cells ?? [])].map(([m, v]) => [m, v.country ?? []] as const))) s.onWarning?.(note);
  return { suppression, fingerprints, cells };
}

/** Every artifact of the new publication, and what changed against the live one. */
export interface AssembledStatistics extends FeedUpdate {
  completedAt: string;
  /** the id the release gets if switched in (chosen first: its feed items link to its change list) */
  release: string;
  /** the greatest published month */
  latest: string | null;
  docs: Documents;
  kept: KeptState;
  /** what every release up to this one published of each month, for the state (keptEarlier) */
  earlier: Record<string, SavedEarlier> | undefined;
  artifacts: Assembled;
}

export async function assembleStatistics(s: StatisticsRun, plan: StatisticsPlan, built: BuiltStatistics): Promise<AssembledStatistics> {
  s.report.phase('writing');
  if (built.computed) s.onAudit?.(built.computed.auditSeconds);
  const kept = keptState(s, plan, built);
  const completedAt = s.now().toISOString();
  const release = newReleaseId(completedAt);
  const changesPath = releasePath(release, { kind: 'changes' });
  // Every published document: rebuilt ones fresh, the rest as they are.
  const allMonths = [...new Set([...plan.before, ...built.months])].sort();
  const input = { months: allMonths, rebuild: plan.rebuild, built: built.computed?.built ?? new Map<string, BuiltMonth>(), runs: plan.runs, old: plan.old, completedAt };
  const docs = await publicationDocuments(input);
  const own = new Map(allMonths.map((m) => [m, SLUGS.flatMap((slug) => docs.get(slug)?.get(m)?.doc.stats ?? [])]));
  const earlier = keptEarlier(own, release, plan.before, built.aggregates.earlier, plan.state.earlier);
  const feed = await updatedFeed(plan.state.feed, built.months, plan.before, docs, input, changesPath);
  const changes = renderChangeList({
    changes_version: 1, completed_at: completedAt, previous_completed_at: plan.old?.manifest.completed_at ?? null, months_added: feed.releases, changes: feed.changes,
  });
  const artifacts = await assembleArtifacts({
    docs, old: plan.old, baseUrl: s.baseUrl, cards: s.cards, rebuilt: new Set(built.months), feed: feed.feed, changes, completedAt, release,
    cardThreads: s.cardThreads, progress: s.report.progress, phase: s.report.phase,
  });
  return { ...feed, completedAt, release, latest: allMonths[allMonths.length - 1] ?? null, docs, kept, earlier, artifacts };
}

/** Stats, and suppressed stats, in the documents rebuilt. */
export function countStats(plan: StatisticsPlan, docs: Documents): { stats: number; suppressed: number } {
  const count = { stats: 0, suppressed: 0 };
  for (const key of plan.rebuild) {
    const [slug, m] = key.split('/') as [Slug, string];
    for (const st of docs.get(slug)!.get(m)!.doc.stats) {
      count.stats += 1;
      if (st.suppressed) count.suppressed += 1;
    }
  }
  return count;
}

/** Writes the new publication, its manifest and its state, and switches it in; returns the release. */
export async function switchPublication(s: StatisticsRun, plan: StatisticsPlan, a: AssembledStatistics): Promise<string> {
  const state: PublicationState = {
    state_version: 1,
    runs: plan.runs,
    feed: a.feed,
    ...(Object.keys(a.kept.suppression).length ? { suppression: sortedKeys(a.kept.suppression) } : {}),
    ...(Object.keys(a.kept.fingerprints).length ? { fingerprints: sortedKeys(a.kept.fingerprints) } : {}),
    ...(Object.keys(a.kept.cells).length ? { cells: sortedKeys(a.kept.cells) } : {}),
    ...(a.earlier ? { earlier: a.earlier } : {}),
    assembly: await assemblyKey({ runs: plan.runs, feed: a.feed, baseUrl: s.baseUrl, cards: s.cards }),
  };
  s.report.progress('switching the publication in');
  const manifest = { manifest_version: 1, completed_at: a.completedAt, latest_month: a.latest, files: a.artifacts.manifest };
  return writeRelease(
    s.out,
    [
      ...a.artifacts.files,
      { path: MANIFEST_FILE, bytes: JSON.stringify(manifest, null, 2) + '\n' },
      { path: STATE_FILE, bytes: JSON.stringify(state, null, 2) + '\n' },
    ],
    a.completedAt,
    releaseDoing(s, plan, a),
    a.release,
  );
}

/** What this release does, for the list of releases (release-index.ts). */
function releaseDoing(s: StatisticsRun, plan: StatisticsPlan, a: AssembledStatistics): ReleaseDoing {
  const versions = new Set<string>();
  for (const bySlug of a.docs.values()) for (const { doc } of bySlug.values()) for (const st of doc.stats) versions.add(st.methodology_version);
  // The items this run added to the feed, linked as the feed links them (render/rss.ts).
  const added = a.feed.slice(plan.state.feed.length);
  return {
    months_added: [...a.releases],
    months_corrected: [...a.corrections],
    methodology_versions: [...versions].sort(),
    feed_items: added.map((item) => ({ guid: item.guid, link: item.slugs[0] ? pageUrl(s.baseUrl, item.slugs[0]) : s.baseUrl + '/' })),
    changes: s.baseUrl + releasePath(a.release, { kind: 'changes' }),
  };
}

const sortedKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
