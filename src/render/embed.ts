/**
 * The embed snippet of a stat (DESIGN.md "Decisions" → Embed snippet): the PNG card linked to
 * the stat on its page, then the attribution link, "CC BY 4.0" and, when the page names its
 * release, a link to the stat as that release published it (a URL whose content never changes).
 * URLs are absolute and the card is pinned to the month, so an embedded image never changes
 * under a reader.
 */
import { cardUrl } from '../core/public-paths.js';
import { PUBLISHER, type Slug, type Stat } from '../stats/types.js';
import { releaseStatUrl } from './cite.js';
import { escapeHtml } from './escape.js';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface EmbedInput {
  baseUrl: string;
  slug: Slug;
  stat: Pick<Stat, 'canonical_url' | 'anchor' | 'month' | 'sentence'>;
  /** the release the page names (page.ts); absent: the snippet links the latest page only */
  release?: string;
}

/**
 * ```html
 * <a href="{canonical_url}"><img src="{card url}" width="1200" height="630" alt="{sentence}"></a>
 * <p>Source: <a href="{canonical_url}">storelens</a> · CC BY 4.0 · <a href="{release URL}">as published in release {id}</a></p>
 * ```
 * Every value is HTML-escaped; the result is HTML meant to be pasted into another page.
 */
export function renderEmbedSnippet({ baseUrl, slug, stat, release }: EmbedInput): string {
  const href = escapeHtml(stat.canonical_url);
  const src = escapeHtml(cardUrl(baseUrl, slug, stat.month, stat.anchor));
  const alt = escapeHtml(stat.sentence);
  const pinned = release === undefined ? '' : ` · <a href="${escapeHtml(releaseStatUrl(baseUrl, slug, release, stat.anchor))}">as published in release ${escapeHtml(release)}</a>`;
  return (
    `<a href="${href}"><img src="${src}" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" alt="${alt}"></a>\n` +
    `<p>Source: <a href="${href}">${escapeHtml(PUBLISHER)}</a> · CC BY 4.0${pinned}</p>`
  );
}
