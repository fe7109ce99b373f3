/**
 * The embed snippet of a stat (DESIGN.md "Decisions" → Embed snippet): the PNG card linked to
 * the stat on its page, then the attribution link and "CC BY 4.0". URLs are absolute and pinned
 * to the month, so an embedded image never changes under a reader.
 */
import { cardUrl } from '../core/public-paths.js';
import { PUBLISHER, type Slug, type Stat } from '../stats/types.js';
import { escapeHtml } from './escape.js';

export const CARD_WIDTH = 1200;
export const CARD_HEIGHT = 630;

export interface EmbedInput {
  baseUrl: string;
  slug: Slug;
  stat: Pick<Stat, 'canonical_url' | 'anchor' | 'month' | 'sentence'>;
}

/**
 * ```html
 * <a href="{canonical_url}"><img src="{card url}" width="1200" height="630" alt="{sentence}"></a>
 * <p>Source: <a href="{canonical_url}">storelens</a> · CC BY 4.0</p>
 * ```
 * Every value is HTML-escaped; the result is HTML meant to be pasted into another page.
 */
export function renderEmbedSnippet({ baseUrl, slug, stat }: EmbedInput): string {
  const href = escapeHtml(stat.canonical_url);
  const src = escapeHtml(cardUrl(baseUrl, slug, stat.month, stat.anchor));
  const alt = escapeHtml(stat.sentence);
  return (
    `<a href="${href}"><img src="${src}" width="${CARD_WIDTH}" height="${CARD_HEIGHT}" alt="${alt}"></a>\n` +
    `<p>Source: <a href="${href}">${escapeHtml(PUBLISHER)}</a> · CC BY 4.0</p>`
  );
}
