/**
 * The public URL space of the statistics (DESIGN.md "Output layout"), written once: each
 * artifact's manifest key (its path below the output folder), its URL path and its absolute
 * URL. publish writes files under these keys, serve resolves request paths to them, and the
 * renderers link to them.
 *
 *   /api/data/{slug}                          api/data/{slug}.json
 *   /api/data/{slug}/{YYYY-MM}                api/data/{slug}/{YYYY-MM}.json
 *   /api/data/{slug}/csv                      api/data/{slug}.csv
 *   /api/data/changes                         api/data/changes.json   (what this release changed)
 *   /data/{slug}                              data/{slug}.html
 *   /data/{slug}.md                           data/{slug}.md
 *   /data/rss.xml                             data/rss.xml
 *   /data/cards/{slug}/{YYYY-MM}/{anchor}.png data/cards/{slug}/{YYYY-MM}/{anchor}.png
 *
 * Every release of the publication stays addressable (publish/release.ts), under its id:
 *
 *   /releases.json                            the list of releases, newest first
 *   /releases/{id}/{latest URL path}          an artifact as that release published it,
 *                                             e.g. /releases/{id}/api/data/{slug}/{YYYY-MM}
 *
 * Pure: strings in, strings out. A request path is matched as sent but for one normalisation of
 * RFC 3986 (6.2.2.2): a percent-encoded unreserved character is that character
 * (`/data/%72ss.xml` is `/data/rss.xml`; see `normalizePublicPath`). No other escape is decoded
 * and no dot segment is resolved: every legal segment is plain ASCII, so `%2F`, `..`, an empty
 * segment or a trailing slash simply matches nothing.
 */
import { isMonth } from './month.js';

/** The public pages, each a slug in every path below (stats/types.ts re-exports them for the statistics). */
export const SLUGS = [
  'platform-stores',
  'agentic-commerce',
  'platform-apps',
  'platform-advertising',
  'platform-trends',
  'methodology',
] as const;
export type Slug = (typeof SLUGS)[number];

export type PublicArtifact =
  | { kind: 'latest-json'; slug: Slug }
  | { kind: 'month-json'; slug: Slug; month: string }
  | { kind: 'csv'; slug: Slug }
  | { kind: 'html'; slug: Slug }
  | { kind: 'markdown'; slug: Slug }
  | { kind: 'feed' }
  | { kind: 'changes' }
  | { kind: 'card'; slug: Slug; month: string; anchor: string };

const SLUG_SET: ReadonlySet<string> = new Set(SLUGS);
/** Card file names: `{anchor}.png`, the anchor being a URL-safe slug (DESIGN.md "Decisions"). */
const ANCHOR = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;
const FEED = 'rss.xml';
/** The change list's segment below `/api/data`: never a slug. */
const CHANGES = 'changes';

export const isSlug = (s: string | undefined): s is Slug => s !== undefined && SLUG_SET.has(s);

/** The artifact's manifest key, e.g. `api/data/agentic-commerce.json`. */
export function manifestKey(a: PublicArtifact): string {
  switch (a.kind) {
    case 'latest-json':
      return `api/data/${a.slug}.json`;
    case 'month-json':
      return `api/data/${a.slug}/${a.month}.json`;
    case 'csv':
      return `api/data/${a.slug}.csv`;
    case 'html':
      return `data/${a.slug}.html`;
    case 'markdown':
      return `data/${a.slug}.md`;
    case 'feed':
      return `data/${FEED}`;
    case 'changes':
      return `api/data/${CHANGES}.json`;
    case 'card':
      return `data/cards/${a.slug}/${a.month}/${a.anchor}.png`;
  }
}

/** The artifact's URL path, e.g. `/api/data/agentic-commerce`. */
export function urlPath(a: PublicArtifact): string {
  switch (a.kind) {
    case 'latest-json':
      return `/api/data/${a.slug}`;
    case 'month-json':
      return `/api/data/${a.slug}/${a.month}`;
    case 'csv':
      return `/api/data/${a.slug}/csv`;
    case 'html':
      return `/data/${a.slug}`;
    case 'changes':
      return `/api/data/${CHANGES}`;
    default:
      return `/${manifestKey(a)}`;
  }
}

/** `{baseUrl}{path}`; baseUrl without a trailing slash, e.g. `https://stats.example.com`. */
export const publicUrl = (baseUrl: string, a: PublicArtifact): string => baseUrl + urlPath(a);

/** The statistics page: `{baseUrl}/data/{slug}`. */
export const pageUrl = (baseUrl: string, slug: Slug): string => publicUrl(baseUrl, { kind: 'html', slug });

/** A stat on its page: `{baseUrl}/data/{slug}#{anchor}`. */
export const canonicalUrl = (baseUrl: string, slug: Slug, anchor: string): string => `${pageUrl(baseUrl, slug)}#${anchor}`;

/** A stat's share card, pinned to its month. */
export const cardUrl = (baseUrl: string, slug: Slug, month: string, anchor: string): string =>
  publicUrl(baseUrl, { kind: 'card', slug, month, anchor });

/** Why a public path names nothing; each reason has a fixed detail text (see serve/problem.ts). */
export type NotFoundReason = 'no-such-path' | 'unknown-slug' | 'malformed-month' | 'trailing-slash';

export type Resolution = { key: string } | { reason: NotFoundReason };

/** A percent-escape; decoded only when it encodes an unreserved character (RFC 3986 2.3). */
const ESCAPE = /%[0-9A-Fa-f]{2}/g;
const UNRESERVED = /^[A-Za-z0-9._~-]$/;

/**
 * The path (query string removed) as the public surface matches it: each percent-encoded
 * unreserved character (letters, digits, `-`, `.`, `_`, `~`) decoded, once; any other escape
 * (`%2F`, `%00`, `%25`) left as it is. Equivalent URLs by RFC 3986 (what a cache or a CDN that
 * normalises takes as one) thus answer the same. Request input still never names a file: the
 * result is only looked up among the publication's URL paths, and a decoded `%2e%2e` is a `..`
 * segment, which names nothing.
 */
export function normalizePublicPath(path: string): string {
  if (path.indexOf('%') === -1) return path;
  return path.replace(ESCAPE, (escape) => {
    const c = String.fromCharCode(Number.parseInt(escape.slice(1), 16));
    return UNRESERVED.test(c) ? c : escape;
  });
}

/** The path of a request target (`req.url`) as the public surface matches it: no query string, normalised. */
export function publicRequestPath(url: string): string {
  const q = url.indexOf('?');
  return normalizePublicPath(q === -1 ? url : url.slice(0, q));
}

/**
 * True when the path (query string removed, normalised) belongs to the public statistics
 * surface. So does a path that names a public prefix but for its slashes (`//api/data/…`,
 * `/api/data\…`, as a client joining URLs by hand sends them): it matches no resource, and
 * answers the public 404 rather than the site's.
 */
export function isPublicPath(path: string): boolean {
  if (hasPublicPrefix(path)) return true;
  if (path.charCodeAt(1) !== 47 && !path.includes('\\')) return false;
  const slashes = path.replace(/\\/g, '/').replace(/^\/+/, '/');
  return hasPublicPrefix(slashes);
}

function hasPublicPrefix(path: string): boolean {
  if (path.startsWith('/releases')) return path === RELEASE_LIST || path.length === 9 || path.charCodeAt(9) === 47;
  if (path.startsWith('/data')) return path.length === 5 || path.charCodeAt(5) === 47; // '/'
  if (path.startsWith('/api/data')) return path.length === 9 || path.charCodeAt(9) === 47;
  return false;
}

/** The artifact a URL path (no query string) names, or why it names none. */
export function parseUrlPath(path: string): PublicArtifact | { reason: NotFoundReason } {
  if (path.length > 1 && path.endsWith('/')) return { reason: 'trailing-slash' };
  const parts = path.split('/'); // ['', 'api', 'data', …] or ['', 'data', …]
  if (parts[1] === 'api' && parts[2] === 'data') return parseApi(parts.slice(3));
  if (parts[1] === 'data') return parseData(parts.slice(2));
  return { reason: 'no-such-path' };
}

/**
 * Maps a public URL path (no query string) to the manifest key it names. Whether the key is
 * published is the manifest's business; this only decides the shape.
 */
export function resolvePublicPath(path: string): Resolution {
  const a = parseUrlPath(path);
  return 'reason' in a ? a : { key: manifestKey(a) };
}

function parseApi(rest: string[]): PublicArtifact | { reason: NotFoundReason } {
  const [slug, second] = rest;
  if (rest.length === 0 || rest.length > 2) return { reason: 'no-such-path' };
  if (rest.length === 1 && slug === CHANGES) return { kind: 'changes' };
  if (!isSlug(slug)) return { reason: 'unknown-slug' };
  if (second === undefined) return { kind: 'latest-json', slug };
  if (second === 'csv') return { kind: 'csv', slug };
  if (!isMonth(second)) return { reason: 'malformed-month' };
  return { kind: 'month-json', slug, month: second };
}

function parseData(rest: string[]): PublicArtifact | { reason: NotFoundReason } {
  if (rest.length === 1) {
    const name = rest[0]!;
    if (name === FEED) return { kind: 'feed' };
    const markdown = name.endsWith('.md');
    const slug = markdown ? name.slice(0, -3) : name;
    if (!isSlug(slug)) return { reason: 'unknown-slug' };
    return { kind: markdown ? 'markdown' : 'html', slug };
  }
  if (rest.length === 4 && rest[0] === 'cards') {
    const [, slug, month, file] = rest as [string, string, string, string];
    if (!isSlug(slug)) return { reason: 'unknown-slug' };
    if (!isMonth(month)) return { reason: 'malformed-month' };
    if (!file.endsWith('.png') || !ANCHOR.test(file.slice(0, -4))) return { reason: 'no-such-path' };
    return { kind: 'card', slug, month, anchor: file.slice(0, -4) };
  }
  return { reason: 'no-such-path' };
}

/** The artifact a manifest key names, or null when the key is not a public artifact. */
export function parseManifestKey(key: string): PublicArtifact | null {
  let m: RegExpExecArray | null;
  let a: PublicArtifact | null = null;
  if ((m = /^api\/data\/([^/]+)\.json$/.exec(key)) && isSlug(m[1])) a = { kind: 'latest-json', slug: m[1] };
  else if ((m = /^api\/data\/([^/]+)\/([^/]+)\.json$/.exec(key)) && isSlug(m[1])) a = { kind: 'month-json', slug: m[1], month: m[2]! };
  else if ((m = /^api\/data\/([^/]+)\.csv$/.exec(key)) && isSlug(m[1])) a = { kind: 'csv', slug: m[1] };
  else if ((m = /^data\/([^/]+)\.html$/.exec(key)) && isSlug(m[1])) a = { kind: 'html', slug: m[1] };
  else if ((m = /^data\/([^/]+)\.md$/.exec(key)) && isSlug(m[1])) a = { kind: 'markdown', slug: m[1] };
  else if (key === `data/${FEED}`) a = { kind: 'feed' };
  else if (key === `api/data/${CHANGES}.json`) a = { kind: 'changes' };
  else if ((m = /^data\/cards\/([^/]+)\/([^/]+)\/([^/]+)\.png$/.exec(key)) && isSlug(m[1])) a = { kind: 'card', slug: m[1], month: m[2]!, anchor: m[3]! };
  if (a === null) return null;
  // Only a key that the URL space gives back names an artifact (a malformed month or anchor does not).
  const back = parseUrlPath(urlPath(a));
  return 'reason' in back || manifestKey(back) !== key ? null : back;
}

/**
 * The public URL path of a manifest key, or null when the key is not a public artifact (e.g.
 * `data/{slug}.html` is reachable only as `/data/{slug}`). A key is served only when
 * `resolvePublicPath(manifestKeyToPath(key))` gives the key back.
 */
export function manifestKeyToPath(key: string): string | null {
  const a = parseManifestKey(key);
  return a && urlPath(a);
}

/** A release id: the completion time of its run (basic ISO 8601, milliseconds) and six hex digits. */
export const RELEASE_ID = /^\d{8}T\d{9}Z-[0-9a-f]{6}$/;
export const isReleaseId = (s: string): boolean => RELEASE_ID.test(s);

/** The list of releases. */
export const RELEASE_LIST = '/releases.json';
const RELEASE_PREFIX = '/releases/';

/** The URL path of an artifact as release `id` published it: `/releases/{id}{urlPath}`. */
export const releasePath = (id: string, a: PublicArtifact): string => `${RELEASE_PREFIX}${id}${urlPath(a)}`;

/**
 * What a path under `/releases` names: the list, or a release's artifact (its release id and
 * manifest key; whether that release published it is its manifest's business), or why nothing.
 * The id must be a release id exactly, so no request reaches outside the releases folder.
 */
export function parseReleasePath(path: string): { list: true } | { release: string; key: string } | { reason: NotFoundReason } {
  if (path === RELEASE_LIST) return { list: true };
  if (!path.startsWith(RELEASE_PREFIX)) return { reason: 'no-such-path' };
  const slash = path.indexOf('/', RELEASE_PREFIX.length);
  if (slash === -1) return { reason: path.endsWith('/') ? 'trailing-slash' : 'no-such-path' };
  const id = path.slice(RELEASE_PREFIX.length, slash);
  if (!isReleaseId(id)) return { reason: 'no-such-path' };
  const r = resolvePublicPath(path.slice(slash));
  return 'reason' in r ? r : { release: id, key: r.key };
}

const TEMPLATES: Readonly<Record<PublicArtifact['kind'], string>> = {
  'latest-json': '/api/data/{slug}',
  'month-json': '/api/data/{slug}/{month}',
  csv: '/api/data/{slug}/csv',
  changes: '/api/data/changes',
  html: '/data/{slug}',
  markdown: '/data/{slug}.md',
  feed: '/data/rss.xml',
  card: '/data/cards/{slug}/{month}/{anchor}.png',
};

/**
 * The route a public path (no query string) takes, as a template: what metrics and log lines
 * name a request by (a bounded set, never the path itself); `unmatched` when it names nothing.
 */
export function publicRouteTemplate(path: string): string {
  if (path.startsWith('/releases')) {
    const r = parseReleasePath(path);
    return 'reason' in r ? 'unmatched' : 'list' in r ? RELEASE_LIST : '/releases/{release}/…';
  }
  const a = parseUrlPath(path);
  return 'reason' in a ? 'unmatched' : TEMPLATES[a.kind];
}
