/**
 * The documents of a publication and its feed: documents rebuilt in this run fresh, the rest as
 * the live publication has them; a release item for each month published for the first time,
 * a correction item for each published month whose figures changed.
 */
import { manifestKey } from '../core/public-paths.js';
import { makeDocument, renderDocument } from '../render/json.js';
import type { FeedItem } from '../render/page.js';
import type { BuiltMonth } from '../stats/build.js';
import { SLUGS, type Slug, type StatsDocument } from '../stats/types.js';
import type { AssembleInput } from './artifacts.js';
import { figureChanges, type FigureChange } from './changes.js';
import { changedStats } from './pages.js';
import type { Publication } from './publication.js';
import { documentEtag } from './run-id.js';

export type Documents = AssembleInput['docs'];

export interface DocumentsInput {
  /** every month published after this run, ascending */
  months: readonly string[];
  /** `${slug}/${month}` of every document rebuilt */
  rebuild: ReadonlySet<string>;
  built: ReadonlyMap<string, BuiltMonth>;
  /** slug → month → run id of every document */
  runs: Record<string, Record<string, string>>;
  old: Publication | null;
  completedAt: string;
}

/** Every published document, by slug and month, with its bytes and ETag. */
export async function publicationDocuments(d: DocumentsInput): Promise<Documents> {
  const docs: Documents = new Map();
  for (const slug of SLUGS) {
    const bySlug = new Map<string, { doc: StatsDocument; bytes: Buffer; etag: string }>();
    for (const m of d.months) {
      const b = d.rebuild.has(`${slug}/${m}`) ? d.built.get(m) : undefined;
      const bytes = b ? Buffer.from(renderDocument(makeDocument(slug, m, d.completedAt, b.stats.get(slug)!))) : await d.old!.read(monthJson(slug, m));
      const doc = JSON.parse(bytes.toString('utf8')) as StatsDocument;
      bySlug.set(m, { doc, bytes, etag: documentEtag(slug, m, d.runs[slug][m]) });
    }
    docs.set(slug, bySlug);
  }
  return docs;
}

export interface FeedUpdate {
  feed: FeedItem[];
  releases: string[];
  corrections: string[];
  /** the figures of the months corrected of which anything published changed (changes.ts) */
  changes: FigureChange[];
}

/**
 * The feed after this run: `feed` (the live one) and an item for each month of `rebuilt` first
 * published now (`before`: the months published until now), or whose published figures changed;
 * a correction item links to `changesPath`, the change list of this run's release.
 */
export async function updatedFeed(feed: readonly FeedItem[], rebuilt: readonly string[], before: readonly string[], docs: Documents, d: Pick<DocumentsInput, 'rebuild' | 'old' | 'completedAt'>, changesPath?: string): Promise<FeedUpdate> {
  const next = [...feed];
  const corrections: string[] = [];
  const figures: FigureChange[] = [];
  for (const m of rebuilt) {
    if (!before.includes(m)) continue;
    const changed: Partial<Record<Slug, string[]>> = {};
    for (const slug of SLUGS) {
      if (!d.rebuild.has(`${slug}/${m}`)) continue;
      const previous = JSON.parse((await d.old!.read(monthJson(slug, m))).toString('utf8')) as StatsDocument;
      const current = docs.get(slug)!.get(m)!.doc;
      const ids = changedStats(previous, current);
      if (ids.length) changed[slug] = ids;
      figures.push(...figureChanges(previous, current));
    }
    const slugs = SLUGS.filter((s) => changed[s]);
    if (slugs.length === 0) continue;
    corrections.push(m);
    next.push({ kind: 'correction', month: m, completed_at: d.completedAt, guid: `correction:${m}:${d.completedAt}`, slugs, changed, ...(changesPath ? { changes: changesPath } : {}) });
  }
  const releases = rebuilt.filter((m) => !before.includes(m));
  for (const m of releases) next.push({ kind: 'release', month: m, completed_at: d.completedAt, guid: `release:${m}`, slugs: [...SLUGS] });
  return { feed: next, releases, corrections, changes: figures };
}

const monthJson = (slug: Slug, month: string) => manifestKey({ kind: 'month-json', slug, month });
