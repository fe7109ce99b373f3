/**
 * A release's change list (`/api/data/changes`, served for every release under
 * `/releases/{id}/api/data/changes`): what changed against the release before it. For each month
 * document rebuilt whose previous version was published, every figure (a stat id of that slug
 * and month, breakdown cells included) of which anything published differs (value, numerator,
 * n, null rate, suppression, month-over-month change: what the feed's correction item counts as
 * changed, pages.ts changedStats), with both sides;
 * a figure hidden on both sides (or hidden on one and absent on the other) is not listed, so the
 * list tells nothing the two releases did not publish. Months published for the first time are
 * only named. Pure: documents in, bytes out; sorted, so equal input gives equal bytes.
 */
import type { Slug, Stat, StatsDocument } from '../stats/types.js';

/** A figure as one release published it: every number of its stat. */
export type Figure = Pick<Stat, 'value' | 'numerator' | 'n' | 'null_rate' | 'suppressed' | 'delta'>;

export interface FigureChange {
  slug: Slug;
  month: string;
  /** the stat id, e.g. `active_stores:country:DE` */
  id: string;
  /** null: the figure did not exist in the release before */
  before: Figure | null;
  /** null: the figure is gone from this release */
  after: Figure | null;
}

export interface ChangeList {
  changes_version: 1;
  /** completion time of this release's run */
  completed_at: string;
  /** completion time of the release before, null for the first */
  previous_completed_at: string | null;
  /** months published for the first time (their figures are not listed) */
  months_added: string[];
  /** sorted by slug, month, id */
  changes: FigureChange[];
}

const figure = (s: Stat): Figure => ({ value: s.value, numerator: s.numerator, n: s.n, null_rate: s.null_rate, suppressed: s.suppressed, delta: s.delta });
const same = (a: Figure, b: Figure) => JSON.stringify(a) === JSON.stringify(b);
/** Published: shown on that side (a hidden or absent figure is not). */
const shown = (f: Figure | null) => f !== null && !f.suppressed;

/** The figures of one month document that changed between two versions of it. */
export function figureChanges(previous: StatsDocument, next: StatsDocument): FigureChange[] {
  const was = new Map(previous.stats.map((s) => [s.id, figure(s)]));
  const now = new Map(next.stats.map((s) => [s.id, figure(s)]));
  const out: FigureChange[] = [];
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    const before = was.get(id) ?? null;
    const after = now.get(id) ?? null;
    if (!shown(before) && !shown(after)) continue;
    if (before && after && same(before, after)) continue;
    out.push({ slug: next.slug, month: next.month, id, before, after });
  }
  return out;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The change list's bytes: pretty JSON, figures sorted by slug, month and id. */
export function renderChangeList(c: ChangeList): string {
  const sorted: ChangeList = {
    ...c,
    months_added: [...c.months_added].sort(),
    changes: [...c.changes].sort((a, b) => cmp(a.slug, b.slug) || cmp(a.month, b.month) || cmp(a.id, b.id)),
  };
  return JSON.stringify(sorted, null, 2) + '\n';
}
