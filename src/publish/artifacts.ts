/**
 * Every file of a publication, with its manifest entry. A file whose ETag is unchanged is linked
 * from the live publication and keeps its Last-Modified; cards are re-rendered only when their
 * content hash changed. A page (HTML, markdown) names the release that last wrote it: rendered
 * naming the release the live page names, it is kept when nothing else in it changed; otherwise
 * it is written naming this run's release. So `/releases/{id}/data/{slug}` of the release a page
 * names serves that page byte for byte, and a page no run changes keeps its bytes and ETag.
 */
import { manifestKey, parseManifestKey } from '../core/public-paths.js';
import { pageCardInputs, cardHash, renderCards } from '../render/card.js';
import { renderCsv } from '../render/csv.js';
import { renderHtml } from '../render/html.js';
import { renderMarkdown } from '../render/markdown.js';
import type { CardInput, FeedItem } from '../render/page.js';
import { renderFeed } from '../render/rss.js';
import { PAGES } from '../stats/registry.js';
import { SLUGS, type Slug, type StatsDocument } from '../stats/types.js';
import { CONTENT_TYPES, type ManifestEntry } from './manifest.js';
import { pageModel, seriesOrder } from './pages.js';
import type { Publication } from './publication.js';
import type { Phase } from './phases.js';
import type { ReleaseFile } from './release.js';
import { bytesEtag } from './run-id.js';

export type CardsMode = 'latest' | 'all' | 'none';

export interface AssembleInput {
  docs: Map<Slug, Map<string, { doc: StatsDocument; bytes: Buffer; etag: string }>>;
  old: Publication | null;
  baseUrl: string;
  cards: CardsMode;
  /** months whose documents were rebuilt in this run */
  rebuilt: ReadonlySet<string>;
  feed: FeedItem[];
  /**
   * The bytes of this release's change list (changes.ts). Written only with a release that
   * changes something else: it names its own release, so it never counts as a change itself.
   */
  changes?: string;
  completedAt: string;
  /** the id of this run's release (chosen before assembly: the pages it rebuilds name it) */
  release: string;
  cardThreads?: number;
  progress: (message: string) => void;
  /** entered while cards render, then back to writing */
  phase?: (phase: Phase) => void;
}

export interface Assembled {
  files: ReleaseFile[];
  manifest: Record<string, ManifestEntry>;
  /** whether anything differs from the live publication */
  changed: boolean;
  written: string[];
  cardsRendered: number;
}

export async function assembleArtifacts(a: AssembleInput): Promise<Assembled> {
  const httpDate = new Date(a.completedAt).toUTCString();
  const oldFiles = a.old?.manifest.files ?? {};
  const files: ReleaseFile[] = [];
  const manifest: Record<string, ManifestEntry> = {};
  const written: string[] = [];

  const add = (path: string, bytes: Buffer | string, contentType: string, etag = bytesEtag(bytes), sourceHash?: string, release?: string) => {
    const before = oldFiles[path];
    const size = Buffer.byteLength(bytes);
    if (before && before.etag === etag && before.bytes === size && before.content_type === contentType) {
      files.push({ path, linkFrom: a.old!.file(path) });
      manifest[path] = before;
      return;
    }
    files.push({ path, bytes });
    manifest[path] = {
      etag, last_modified: httpDate, content_type: contentType, bytes: size,
      ...(sourceHash ? { source_hash: sourceHash } : {}), ...(release ? { release } : {}),
    };
    written.push(path);
  };
  /**
   * A page naming the release the live one names when that leaves it unchanged, else naming this
   * release. A page of a month the live publication does not have (`newMonth`) differs from the
   * live page whatever release it names (each page names its month), so it is rendered once.
   */
  const addPage = (path: string, render: (release: string | undefined) => string, contentType: string, newMonth: boolean) => {
    const before = oldFiles[path];
    if (before && !newMonth) {
      const kept = render(before.release);
      if (before.etag === bytesEtag(kept) && before.bytes === Buffer.byteLength(kept)) return add(path, kept, contentType, before.etag);
    }
    add(path, render(a.release), contentType, undefined, undefined, a.release);
  };

  const latestDocs = new Map<Slug, StatsDocument>();
  for (const slug of SLUGS) {
    const byMonth = a.docs.get(slug)!;
    const months = [...byMonth.keys()].sort();
    for (const m of months) {
      const d = byMonth.get(m)!;
      add(manifestKey({ kind: 'month-json', slug, month: m }), d.bytes, CONTENT_TYPES.json, d.etag);
    }
    const latest = byMonth.get(months[months.length - 1])!;
    latestDocs.set(slug, latest.doc);
    add(manifestKey({ kind: 'latest-json', slug }), latest.bytes, CONTENT_TYPES.json, latest.etag);
    const series = months.flatMap((m) => byMonth.get(m)!.doc.stats).sort(seriesOrder(slug));
    add(manifestKey({ kind: 'csv', slug }), renderCsv(series), CONTENT_TYPES.csv);
    const history = months.map((m) => byMonth.get(m)!.doc);
    const page = pageModel(latest.doc, history, a.baseUrl);
    // The live publication holds every month it published as a month document.
    const newMonth = oldFiles[manifestKey({ kind: 'month-json', slug, month: latest.doc.month })] === undefined;
    addPage(manifestKey({ kind: 'markdown', slug }), (release) => renderMarkdown({ ...page, release }), CONTENT_TYPES.md, newMonth);
    addPage(manifestKey({ kind: 'html', slug }), (release) => renderHtml({ ...page, release }), CONTENT_TYPES.html, newMonth);
  }
  add(manifestKey({ kind: 'feed' }), renderFeed({ baseUrl: a.baseUrl, items: a.feed, pageTitles: Object.fromEntries(PAGES.map((p) => [p.slug, p.title])) }), CONTENT_TYPES.xml);

  const cardsRendered = await addCards(a, add, files, manifest);
  const changesKey = manifestKey({ kind: 'changes' });
  const changed = written.length > 0 || Object.keys(oldFiles).some((p) => p !== changesKey && !(p in manifest));
  if (changed && a.changes !== undefined) add(changesKey, a.changes, CONTENT_TYPES.json);
  return { files, manifest, changed, written, cardsRendered };
}

/** `{slug}/{month}` of a card's manifest key; undefined for any other key. */
function cardOf(key: string): string | undefined {
  const a = parseManifestKey(key);
  return a?.kind === 'card' ? `${a.slug}/${a.month}` : undefined;
}

/** Cards of the target months (latest, or all), plus kept cards of months that did not change. */
async function addCards(
  a: AssembleInput,
  add: (path: string, bytes: Buffer, contentType: string, etag?: string, sourceHash?: string) => void,
  files: ReleaseFile[],
  manifest: Record<string, ManifestEntry>,
): Promise<number> {
  const oldFiles = a.old?.manifest.files ?? {};
  const monthsWithCards = new Set<string>();
  for (const p of Object.keys(oldFiles)) {
    const card = cardOf(p);
    if (card) monthsWithCards.add(card);
  }
  // Months whose cards may be (re)rendered, and months whose kept cards must be re-checked
  // because their documents were rebuilt (a card whose content did not change is kept even
  // with --cards none; one that changed is re-rendered, or dropped with --cards none).
  const render = new Set<string>();
  const check = new Set<string>();
  for (const slug of SLUGS) {
    const months = [...a.docs.get(slug)!.keys()].sort();
    const chosen = a.cards === 'all' ? months : a.cards === 'latest' ? months.slice(-1) : [];
    for (const m of chosen) render.add(`${slug}/${m}`);
    for (const m of months) if (a.rebuilt.has(m) && monthsWithCards.has(`${slug}/${m}`)) check.add(`${slug}/${m}`);
    if (a.cards !== 'none') for (const key of check) render.add(key);
  }

  const queue: Array<{ path: string; card: CardInput; hash: string }> = [];
  for (const key of [...new Set([...render, ...check])].sort()) {
    const [slug, month] = key.split('/') as [Slug, string];
    const byMonth = a.docs.get(slug)!;
    const history = [...byMonth.keys()].sort().map((m) => byMonth.get(m)!.doc);
    for (const card of pageCardInputs(pageModel(byMonth.get(month)!.doc, history, a.baseUrl))) {
      const path = manifestKey({ kind: 'card', slug, month, anchor: card.anchor });
      const hash = cardHash(card);
      const before = oldFiles[path];
      if (before?.source_hash === hash) {
        files.push({ path, linkFrom: a.old!.file(path) });
        manifest[path] = before;
      } else if (render.has(key)) {
        queue.push({ path, card, hash });
      }
    }
  }
  // Cards of months that were neither chosen nor rebuilt stay as they are.
  for (const [path, entry] of Object.entries(oldFiles)) {
    const card = cardOf(path);
    if (!card || render.has(card) || check.has(card)) continue;
    files.push({ path, linkFrom: a.old!.file(path) });
    manifest[path] = entry;
  }
  if (queue.length) {
    a.phase?.('cards');
    a.progress(`rendering ${queue.length} cards`);
    const pngs = await renderCards(
      queue.map((q) => q.card),
      { threads: a.cardThreads, onProgress: (done, total) => a.progress(`rendering cards ${done}/${total}`) },
    );
    queue.forEach((q, i) => add(q.path, pngs[i], CONTENT_TYPES.png, undefined, q.hash));
    a.phase?.('writing');
  }
  return queue.length;
}
