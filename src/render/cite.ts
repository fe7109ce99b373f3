/**
 * Citing a figure as a release published it: the release URLs of a page and of a stat's month
 * document (`/releases/{id}/…`, core/public-paths.ts), whose content never changes, and the
 * stat's citation pointing at them. Pure: strings in, strings out.
 */
import { releasePath, RELEASE_LIST, type Slug } from '../core/public-paths.js';
import type { Stat } from '../stats/types.js';

/** The page `/data/{slug}` as release `release` published it. */
export const releasePageUrl = (baseUrl: string, slug: Slug, release: string): string => baseUrl + releasePath(release, { kind: 'html', slug });

/** A stat on its page as release `release` published it: `{baseUrl}/releases/{id}/data/{slug}#{anchor}`. */
export const releaseStatUrl = (baseUrl: string, slug: Slug, release: string, anchor: string): string => `${releasePageUrl(baseUrl, slug, release)}#${anchor}`;

/** The month document of a stat as release `release` published it: `{baseUrl}/releases/{id}/api/data/{slug}/{month}`. */
export const releaseDocumentUrl = (baseUrl: string, slug: Slug, release: string, month: string): string =>
  baseUrl + releasePath(release, { kind: 'month-json', slug, month });

/** The list of every release: `{baseUrl}/releases.json`. */
export const releaseListUrl = (baseUrl: string): string => baseUrl + RELEASE_LIST;

/**
 * The stat's citation (stats/text.ts) with its latest URL replaced by the release's:
 * `storelens, “…” (scope), October 2026, release {id}, {release URL}. Licensed CC BY 4.0.`
 * A citation that does not carry the stat's URL gets the release and its URL appended.
 */
export function releaseCitation(stat: Pick<Stat, 'citation' | 'canonical_url'>, release: string, url: string): string {
  const named = `release ${release}, ${url}`;
  const at = stat.citation.indexOf(stat.canonical_url);
  if (stat.canonical_url === '' || at === -1) return `${stat.citation} As published in ${named}.`;
  return stat.citation.slice(0, at) + named + stat.citation.slice(at + stat.canonical_url.length);
}
