/**
 * The publish run: decide which documents changed (run ids), compute only those, assemble every
 * artifact, and switch the new publication in atomically. Identical input rewrites nothing.
 */
import { mkdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { CONTACTS_DATA, contactsDir, contactsToCarry, findContactsFile, pruneContactsRuns, writeContactsRun } from '../contacts/source.js';
import { CliError } from '../errors.js';
import { nextMonth, previousMonth } from '../panel/columns.js';
import { storesChanged } from '../panel/fingerprint.js';
import { listPanel, loadPanel } from '../panel/read.js';
import { openDuck } from '../panel/duck.js';
import { isWithin, readRunsIndex, signalsRunId, staleRuns, switchRunsIndex } from '../panel/runs.js';
import { manifestKey } from '../public-paths.js';
import { makeDocument, renderDocument } from '../render/json.js';
import type { FeedItem } from '../render/page.js';
import type { MonthAgg } from '../stats/aggregate.js';
import type { BuiltMonth } from '../stats/build.js';
import { FLOOR } from '../stats/suppression.js';
import { unionOf, universeHash } from '../stats/universe.js';
import { SLUGS, type Slug, type StatsDocument } from '../stats/types.js';
import { assembleArtifacts, type CardsMode } from './artifacts.js';
import { computeMonths, type ComputeOptions } from './compute.js';
import { aggregateKey, readAggregates, writeAggregates } from './aggregate-cache.js';
import { acquireLock } from './lock.js';
import { changedStats } from './pages.js';
import { loadSuppression, publishedMonths, readPublication, saveSuppression, STATE_FILE, MANIFEST_FILE, type PublicationState } from './publication.js';
import { writeRelease } from './release.js';
import { phaseClock, type Phase } from './phases.js';
import { assemblyKey } from './assembly-key.js';
import { hashPanelCached, identityOf, readHashCache, rememberedContacts, writeHashCache, type FileClock, type HashCache } from './hash-cache.js';
import { documentEtag, REACH, runId } from './run-id.js';

export interface PublishOptions {
  input: string;
  out: string;
  /** one month, or every month of the panel */
  months: 'all' | string;
  baseUrl: string;
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
}

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

export async function publish(o: PublishOptions): Promise<PublishSummary> {
  const progress = o.onProgress ?? (() => {});
  const clock = phaseClock();
  const phase = (p: Phase) => {
    clock.enter(p);
    o.onPhase?.(p);
  };
  const report = { progress, phase };
  const baseUrl = o.baseUrl.replace(/\/+$/, '');
  const files = await listPanel(o.input);
  const panelMonths = files.map((f) => f.month);
  if (o.months !== 'all' && !panelMonths.includes(o.months)) {
    throw new CliError(`--month ${o.months} is not in the panel ${o.input} (it has ${panelMonths[0]} to ${panelMonths[panelMonths.length - 1]})`);
  }
  if (o.runs !== undefined && ((await isWithin(o.runs, o.out)) || (await isWithin(o.out, o.runs)))) {
    throw new CliError(`--runs ${o.runs} and --out ${o.out} overlap: the runs folder is private and must not be inside the public output folder (nor the output inside it)`);
  }
  phase('hashing');
  progress('hashing panel files');
  const cacheRead = await readHashCache(o.out);
  const { hashes, cache: hashCache } = await hashPanelCached(files, cacheRead, o.fileClock);

  const outExisted = await stat(o.out).then(() => true, () => false);
  await mkdir(o.out, { recursive: true });
  const lock = await acquireLock(o.out);
  let wrote = false;
  let runsLock: Awaited<ReturnType<typeof acquireLock>> | undefined;
  try {
    const old = await readPublication(o.out);
    const oldState: PublicationState = old?.state ?? { state_version: 1, runs: {}, feed: [] };
    const before = publishedMonths(oldState);
    // A publication is made from the whole panel. A published month whose file has gone would
    // stay published beside months rebuilt as if it had never been (the month after it without
    // a previous month, every month still listing its breakdown values): refused before anything
    // is written, once the panel's files pass their checks (a bad file is named first).
    const gone = before.filter((m) => !panelMonths.includes(m));
    if (gone.length) {
      const duck = await openDuck();
      try {
        await loadPanel(duck, files);
      } finally {
        duck.close();
      }
      throw new CliError(
        `${o.input}: ${gone.join(', ')} ${gone.length === 1 ? 'is' : 'are'} published in ${o.out} but no longer in the panel; ` +
          'put the file back, or publish the panel as it is now into a new output folder',
      );
    }
    // A correction of month M also reaches the months whose documents depend on M.
    const reach = Math.max(...SLUGS.map((s) => REACH[s]));
    const after = o.months === 'all' ? [] : [o.months];
    for (let i = 0; i < reach && after.length; i++) after.push(nextMonth(after[after.length - 1]));
    // Months published before their breakdown values were kept are rebuilt (they now list every value).
    const storedCells = oldState.cells ?? {};
    const unlisted = before.filter((m) => !storedCells[m]);
    const candidates = o.months === 'all' ? panelMonths : [...new Set([...unlisted, ...after.filter((m) => m === o.months || before.includes(m))])];

    const runs: Record<string, Record<string, string>> = structuredClone(oldState.runs) as Record<string, Record<string, string>>;
    /** `${slug}/${month}` of every document whose run id changed */
    const rebuild = new Set<string>();
    const plan = (ms: string[], cells: string) => {
      for (const m of ms) {
        for (const slug of SLUGS) {
          const id = runId(slug, m, hashes, baseUrl, cells);
          if (oldState.runs[slug]?.[m] !== id) rebuild.add(`${slug}/${m}`);
          (runs[slug] ??= {})[m] = id;
        }
      }
    };
    const oldUniverse = universeHash(unionOf(before.map((m) => storedCells[m] ?? {})));
    plan(candidates, oldUniverse);
    let months = [...new Set([...rebuild].map((k) => k.slice(k.indexOf('/') + 1)))].sort();
    // Runs: every processed month whose run id is not the one the runs folder holds.
    const runIds = new Map(o.runs === undefined ? [] : candidates.map((m) => [m, signalsRunId(m, hashes)] as const));
    const runsIndex = o.runs === undefined ? undefined : await readRunsIndex(o.runs);
    const runMonths = o.runs === undefined ? [] : await staleRuns(o.runs, runsIndex!, runIds);
    const runsRequest = o.runs === undefined || runMonths.length === 0 ? undefined : { runsDir: o.runs, months: runMonths, runIds };
    // The contact source beside the panel (checked now, before anything is written), carried
    // into the private runs folder only: never into the public output.
    const contacts = o.runs === undefined ? undefined : await carryContacts(o.input, o.runs, runsIndex!.contacts, cacheRead, hashCache, o.fileClock);
    // One writer per runs folder too (two publishes with different --out may share it).
    if (o.runs !== undefined && (runsRequest || contacts)) {
      await mkdir(o.runs, { recursive: true });
      runsLock = await acquireLock(o.runs, 'runs folder');
    }
    // Nothing to build, no run to write, and the live publication was assembled from exactly
    // these documents, feed, options and program: it is what this run would write.
    if (months.length === 0 && !runsRequest && !contacts && oldState.assembly !== undefined &&
        oldState.assembly === (await assemblyKey({ runs, feed: oldState.feed, baseUrl, cards: o.cards }))) {
      clock.stop();
      return unchangedSummary(o.out, before[before.length - 1] ?? null, clock.totals());
    }
    const saved = new Map(Object.entries(oldState.suppression ?? {}).map(([m, x]) => [m, loadSuppression(x)]));
    const kept = before.filter((m) => !months.includes(m));
    const known = unionOf(before.filter((m) => !months.includes(m)).map((m) => storedCells[m] ?? {}));
    // Aggregates kept from earlier runs (read for the months a computation builds and the months before them).
    const aggregateKeys = new Map(await Promise.all(panelMonths.map(async (m) => [m, await aggregateKey(m, hashes)] as const)));
    const cached = new Map<string, MonthAgg>();
    const aggregated = new Map<string, MonthAgg>();
    const fingerprinted = new Map<string, string>();
    const compute = async (ms: string[], options: ComputeOptions) => {
      const wanted = new Set(ms.flatMap((m) => [m, previousMonth(m)]));
      const keys = [...aggregateKeys].filter(([m]) => wanted.has(m) && !cached.has(m) && !aggregated.has(m));
      for (const [m, kept] of await readAggregates(o.out, new Map(keys))) {
        cached.set(m, kept.agg);
        fingerprinted.set(m, kept.fingerprint);
      }
      const c = await computeMonths(files, ms, baseUrl, report, { ...options, published: saved, cached: new Map([...cached, ...aggregated]) });
      for (const [m, agg] of c.aggregated) aggregated.set(m, agg);
      // The fingerprint of a month built from kept aggregates is the one kept with them.
      for (const [m, f] of c.fingerprints) fingerprinted.set(m, f);
      return { ...c, fingerprints: new Map([...fingerprinted].filter(([m]) => ms.includes(m))) };
    };
    let computed = months.length || runsRequest ? await compute(months, { known, listedAs: kept.length ? oldUniverse : undefined, runs: runsRequest }) : undefined;
    if (computed?.relisted) {
      // A breakdown value new to the publication (or gone from it): every published month lists
      // the new set of rows, a correction of each, built together so deltas and audits agree.
      const runsWritten = computed.runs;
      months = [...new Set([...months, ...kept])].sort();
      progress(`the listed breakdown values changed: rebuilding ${months.length} month(s)`);
      computed = { ...(await compute(months, { known: computed.universe })), runs: runsWritten };
    }
    if (computed && months.length) plan(months, universeHash(computed.universe));
    /** Points the runs index at the new runs: only once the publication itself has succeeded. */
    const switchRuns = async () => {
      if (o.runs === undefined || (!runsRequest && !contacts)) return;
      if (contacts?.data) {
        progress(`writing the contact source to ${o.runs}`);
        await writeContactsRun(o.runs, contacts.data);
      }
      progress('switching the runs index');
      await switchRunsIndex(o.runs, new Map(runMonths.map((m) => [m, runIds.get(m)!])), contacts ? contacts.id : undefined);
      if (contacts) await pruneContactsRuns(o.runs, contacts.id);
    };
    phase('writing');
    const built: Map<string, BuiltMonth> = computed?.built ?? new Map();
    if (computed) o.onAudit?.(computed.auditSeconds);
    const suppression = { ...oldState.suppression };
    const fingerprints = { ...oldState.fingerprints };
    for (const [m, f] of computed?.fingerprints ?? []) {
      const was = oldState.fingerprints?.[m];
      const changedStores = was === undefined ? 0 : storesChanged(was, f);
      if (before.includes(m) && changedStores > 0 && changedStores < FLOOR) {
        o.onWarning?.(
          `the correction of ${m} changes the records of about ${changedStores} store(s), fewer than ${FLOOR}: ` +
            `whoever compares this release of ${m} with the previous one can read those stores' own figures from the differences in the totals`,
        );
      }
      fingerprints[m] = f;
    }
    for (const [m, x] of computed?.extras ?? []) {
      if (!months.includes(m)) continue;
      if (x.cells.size + x.stats.size + x.cohorts.size > 0) suppression[m] = saveSuppression(x);
      else delete suppression[m];
    }
    const cells = Object.fromEntries(Object.entries(storedCells).filter(([m]) => before.includes(m)));
    for (const [m, v] of computed?.cells ?? []) cells[m] = v;
    const completedAt = o.now().toISOString();

    // Every published document: rebuilt ones fresh, the rest as they are.
    const allMonths = [...new Set([...before, ...months])].sort();
    const docs = new Map<Slug, Map<string, { doc: StatsDocument; bytes: Buffer; etag: string }>>();
    const feed: FeedItem[] = [...oldState.feed];
    const corrections: string[] = [];
    for (const slug of SLUGS) {
      const bySlug = new Map<string, { doc: StatsDocument; bytes: Buffer; etag: string }>();
      for (const m of allMonths) {
        const path = manifestKey({ kind: 'month-json', slug, month: m });
        const b = rebuild.has(`${slug}/${m}`) ? built.get(m) : undefined;
        const bytes = b ? Buffer.from(renderDocument(makeDocument(slug, m, completedAt, b.stats.get(slug)!))) : await old!.read(path);
        const doc = JSON.parse(bytes.toString('utf8')) as StatsDocument;
        bySlug.set(m, { doc, bytes, etag: documentEtag(slug, m, runs[slug][m]) });
      }
      docs.set(slug, bySlug);
    }
    for (const m of months) {
      if (!before.includes(m)) continue;
      const changed: Partial<Record<Slug, string[]>> = {};
      for (const slug of SLUGS) {
        if (!rebuild.has(`${slug}/${m}`)) continue;
        const previous = JSON.parse((await old!.read(manifestKey({ kind: 'month-json', slug, month: m }))).toString('utf8')) as StatsDocument;
        const ids = changedStats(previous, docs.get(slug)!.get(m)!.doc);
        if (ids.length) changed[slug] = ids;
      }
      const slugs = SLUGS.filter((s) => changed[s]);
      if (slugs.length === 0) continue;
      corrections.push(m);
      feed.push({ kind: 'correction', month: m, completed_at: completedAt, guid: `correction:${m}:${completedAt}`, slugs, changed });
    }
    const releases = months.filter((m) => !before.includes(m));
    for (const m of releases) feed.push({ kind: 'release', month: m, completed_at: completedAt, guid: `release:${m}`, slugs: [...SLUGS] });

    const artifacts = await assembleArtifacts({ docs, old, baseUrl, cards: o.cards, rebuilt: new Set(months), feed, completedAt, cardThreads: o.cardThreads, progress, phase });
    const latest = allMonths[allMonths.length - 1] ?? null;
    const summary: PublishSummary = {
      out: o.out,
      changed: artifacts.changed,
      release: null,
      completed_at: artifacts.changed ? completedAt : null,
      latest_month: latest,
      months: artifacts.changed ? months : [],
      releases: artifacts.changed ? releases : [],
      corrections: artifacts.changed ? corrections : [],
      slugs: [...SLUGS],
      stats: 0,
      suppressed: 0,
      cards_rendered: artifacts.cardsRendered,
      files_written: artifacts.changed ? artifacts.written : [],
      runs: runMonths,
      phases: {},
    };
    if (artifacts.changed) {
      for (const key of rebuild) {
        const [slug, m] = key.split('/') as [Slug, string];
        for (const st of docs.get(slug)!.get(m)!.doc.stats) {
          summary.stats += 1;
          if (st.suppressed) summary.suppressed += 1;
        }
      }
    }
    if (!artifacts.changed) {
      await switchRuns();
      clock.stop();
      summary.phases = clock.totals();
      return summary;
    }

    const state: PublicationState = {
      state_version: 1,
      runs,
      feed,
      ...(Object.keys(suppression).length ? { suppression: sortedKeys(suppression) } : {}),
      ...(Object.keys(fingerprints).length ? { fingerprints: sortedKeys(fingerprints) } : {}),
      ...(Object.keys(cells).length ? { cells: sortedKeys(cells) } : {}),
      assembly: await assemblyKey({ runs, feed, baseUrl, cards: o.cards }),
    };
    progress('switching the publication in');
    summary.release = await writeRelease(
      o.out,
      [
        ...artifacts.files,
        { path: MANIFEST_FILE, bytes: JSON.stringify({ manifest_version: 1, completed_at: completedAt, latest_month: latest, files: artifacts.manifest }, null, 2) + '\n' },
        { path: STATE_FILE, bytes: JSON.stringify(state, null, 2) + '\n' },
      ],
      completedAt,
    );
    wrote = true;
    await switchRuns();
    await writeHashCache(o.out, hashCache, cacheRead);
    await writeAggregates(o.out, new Map([...aggregated].map(([m, agg]) => [m, { key: aggregateKeys.get(m)!, agg, fingerprint: fingerprinted.get(m)! }])), new Set(aggregateKeys.values()));
    clock.stop();
    summary.phases = clock.totals();
    return summary;
  } finally {
    await runsLock?.release();
    await lock.release();
    if (!outExisted && !wrote) await rm(o.out, { recursive: true, force: true });
  }
}

function unchangedSummary(out: string, latest: string | null, phases: PublishSummary['phases']): PublishSummary {
  return {
    out, changed: false, release: null, completed_at: null, latest_month: latest, months: [], releases: [], corrections: [],
    slugs: [...SLUGS], stats: 0, suppressed: 0, cards_rendered: 0, files_written: [], runs: [], phases,
  };
}

/**
 * contactsToCarry, skipping the read and check of a contact file whose identity is the one
 * remembered with the id the runs index already names (and whose folder is there).
 */
async function carryContacts(input: string, runsDir: string, current: string | undefined, read: HashCache, next: HashCache, now?: FileClock): ReturnType<typeof contactsToCarry> {
  const file = await findContactsFile(input);
  if (!file) return contactsToCarry(input, runsDir, current);
  const known = await rememberedContacts(read, file);
  if (known !== undefined && known === current && (await stat(path.join(contactsDir(runsDir, known), CONTACTS_DATA)).then(() => true, () => false))) {
    next.contacts = read.contacts;
    return undefined;
  }
  const before = await identityOf(file, now);
  const carried = await contactsToCarry(input, runsDir, current);
  const id = carried ? carried.id : (current ?? null);
  const after = await identityOf(file, now);
  if (id !== null && after.identity === before.identity && after.settled) next.contacts = { file: path.resolve(file), identity: before.identity, id };
  return carried;
}

const sortedKeys = <T>(o: Record<string, T>): Record<string, T> => Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : 1)));
