/**
 * Suppression across the releases of a month. Every release stays published, so a reader holds
 * every release of a month at once, and may know which stores a correction changed: for that
 * reader, a figure any release published is known in the latest release too (its value then,
 * plus the changed stores' own contribution). Hence, for a correction:
 *
 * - it starts from every figure an earlier release of the month hid: hidden again, so no
 *   correction publishes what an earlier release protected (`carriedSuppression`);
 * - it is audited with every figure an earlier release published taken as published, at its
 *   value now (`publishedAcross`); the audit's targets are then the figures hidden in every
 *   release, and hiding again a figure published earlier protects nothing (`hideable`).
 *
 * What comparing the releases of a month reveals is then exactly the changed stores' own
 * contribution to the figures published in both. Pure: documents and aggregates in.
 */
import type { CellAgg, MonthAgg } from './aggregate.js';
import type { Published } from './published.js';
import { noExtraSuppression, type ExtraSuppression } from './build.js';
import { METRICS, type MetricDef } from './registry.js';
import { dimensionString, statId } from './text.js';
import type { Stat } from './types.js';

/** What the earlier releases of one month published, figure by figure. */
export interface EarlierReleases {
  /** the releases that published the month, oldest first (each counted once per distinct content) */
  releases: string[];
  /** stat ids whose figures at least one earlier release showed */
  shown: Set<string>;
  /** stat ids at least one earlier release hid */
  hidden: Set<string>;
  /** stat ids whose delta at least one earlier release showed */
  deltasShown: Set<string>;
  /** stat ids whose delta at least one earlier release hid */
  deltasHidden: Set<string>;
}

export const noEarlierReleases = (): EarlierReleases => ({ releases: [], shown: new Set(), hidden: new Set(), deltasShown: new Set(), deltasHidden: new Set() });

/** Adds one release's stats of the month. */
export function addRelease(e: EarlierReleases, release: string, stats: Iterable<Stat>): void {
  if (!e.releases.includes(release)) e.releases.push(release);
  for (const s of stats) {
    (s.suppressed ? e.hidden : e.shown).add(s.id);
    if (s.delta) (s.delta.suppressed ? e.deltasHidden : e.deltasShown).add(s.id);
  }
}

/**
 * What the releases of a month published, kept with each release (publication state) so that a
 * correction reads one release rather than all of them: the releases, and the ids whose flags
 * some release had beyond those of `own` (the stats of the month in the release that keeps it),
 * which hold most of them. Sorted, so the same releases keep the same bytes.
 */
export interface SavedEarlier {
  releases: string[];
  shown?: string[];
  hidden?: string[];
  deltas_shown?: string[];
  deltas_hidden?: string[];
}

const SETS = [['shown', 'shown'], ['hidden', 'hidden'], ['deltasShown', 'deltas_shown'], ['deltasHidden', 'deltas_hidden']] as const;

/** `e` as kept beside `own`, the stats of the month in the release that keeps it (and is among `e.releases`). */
export function saveEarlier(e: EarlierReleases, own: Iterable<Stat>): SavedEarlier {
  const mine = noEarlierReleases();
  addRelease(mine, '', own);
  const out: SavedEarlier = { releases: [...e.releases] };
  for (const [set, key] of SETS) {
    const beyond = [...e[set]].filter((id) => !mine[set].has(id)).sort();
    if (beyond.length) out[key] = beyond;
  }
  return out;
}

/** saveEarlier undone: what the releases `saved.releases` published, from the kept flags and `own`, the stats of the last of them. */
export function loadEarlier(saved: SavedEarlier, own: Iterable<Stat>): EarlierReleases {
  const e = noEarlierReleases();
  addRelease(e, '', own);
  e.releases = [...saved.releases];
  for (const [set, key] of SETS) for (const id of saved[key] ?? []) e[set].add(id);
  return e;
}

/** `e` with `release` and its stats of the month `own` added (a copy). */
export function withRelease(e: EarlierReleases, release: string, own: Iterable<Stat>): EarlierReleases {
  const out: EarlierReleases = { releases: [...e.releases], shown: new Set(e.shown), hidden: new Set(e.hidden), deltasShown: new Set(e.deltasShown), deltasHidden: new Set(e.deltasHidden) };
  addRelease(out, release, own);
  return out;
}

const STORES = 'active_stores';

/** The suppression a correction starts from: every figure and delta an earlier release hid, whole cells where it hid the store count. */
export function carriedSuppression(e: EarlierReleases): ExtraSuppression {
  const extra = noExtraSuppression();
  for (const id of e.hidden) {
    extra.stats.add(id);
    if (id.startsWith(`${STORES}:`) && id !== statId(STORES, 'all')) extra.cells.add(id.slice(STORES.length + 1));
  }
  for (const id of e.deltasHidden) extra.deltas.add(id);
  return extra;
}

/**
 * The month's figures as a reader holding every release knows them: the built month's, plus
 * each figure it hides that an earlier release showed, at its value now.
 */
export function publishedAcross(stats: Published, agg: MonthAgg, e: EarlierReleases): Published {
  const out: Published = new Map(stats);
  const truth = truthById(agg);
  for (const [id, s] of stats) {
    const figures = s.suppressed && e.shown.has(id);
    const delta = s.delta?.suppressed === true && e.deltasShown.has(id);
    const t = truth.get(id);
    if (!t || (!figures && !delta)) continue;
    out.set(id, {
      ...s,
      ...(figures ? { suppressed: false, value: t.m.kind === 'count' ? t.a.num : t.a.n === 0 ? 0 : t.a.num / t.a.n, numerator: t.a.num, n: t.a.n } : {}),
      delta: delta ? { ...s.delta!, suppressed: false, cohort_n: t.a.cohort_n } : s.delta,
    });
  }
  return out;
}

/**
 * The month's figures a further suppression can still protect: those published now and never
 * before. A figure an earlier release published is known whatever this release does.
 */
export function hideable(stats: Published, e: EarlierReleases | undefined): Published {
  if (!e) return stats;
  const out: Published = new Map();
  for (const [id, s] of stats) {
    const known = e.shown.has(id);
    const deltaKnown = e.deltasShown.has(id);
    out.set(id, known || (deltaKnown && s.delta) ? { ...s, suppressed: s.suppressed || known, delta: deltaKnown && s.delta ? { ...s.delta, suppressed: true } : s.delta } : s);
  }
  return out;
}

function truthById(agg: MonthAgg): Map<string, { m: MetricDef; a: CellAgg }> {
  const out = new Map<string, { m: MetricDef; a: CellAgg }>();
  for (const m of METRICS) {
    out.set(statId(m.key, 'all'), { m, a: agg.all.metrics.get(m.key)! });
    for (const [dim, cells] of agg.groups) {
      for (const c of cells) if (c.value !== null) out.set(statId(m.key, dimensionString(dim, c.value)), { m, a: c.metrics.get(m.key)! });
    }
  }
  return out;
}
