/**
 * The public URL space and its mapping onto manifest paths (DESIGN.md "Output layout").
 * Pure: strings in, strings out. Nothing here touches the file system; a URL names a manifest
 * key, and only a key present in the live manifest is ever served.
 *
 *   /api/data/{slug}                        → api/data/{slug}.json
 *   /api/data/{slug}/{YYYY-MM}              → api/data/{slug}/{YYYY-MM}.json
 *   /api/data/{slug}/csv                    → api/data/{slug}.csv
 *   /data/{slug}                            → data/{slug}.html
 *   /data/{slug}.md                         → data/{slug}.md
 *   /data/rss.xml                           → data/rss.xml
 *   /data/cards/{slug}/{YYYY-MM}/{anchor}.png → data/cards/{slug}/{YYYY-MM}/{anchor}.png
 *
 * Paths are matched raw (never percent-decoded): every legal segment is plain ASCII, so an
 * encoded character, `..`, an empty segment or a trailing slash simply matches nothing.
 */
import { SLUGS, type Slug } from '../stats/types.js';

const SLUG_SET: ReadonlySet<string> = new Set(SLUGS);
const MONTH = /^\d{4}-(0[1-9]|1[0-2])$/;
/** Card file names: `{anchor}.png`, the anchor being a URL-safe slug (DESIGN.md "Decisions"). */
const ANCHOR = /^[A-Za-z0-9][A-Za-z0-9_-]*$/;

export const isSlug = (s: string): s is Slug => SLUG_SET.has(s);
export const isMonth = (s: string): boolean => MONTH.test(s);

/** Why a public path names nothing; each reason has a fixed detail text (see problem.ts). */
export type NotFoundReason = 'no-such-path' | 'unknown-slug' | 'malformed-month' | 'trailing-slash';

export type Resolution = { key: string } | { reason: NotFoundReason };

/** True when the path (query string already removed) belongs to the public statistics surface. */
export function isPublicPath(path: string): boolean {
  if (path.startsWith('/data')) return path.length === 5 || path.charCodeAt(5) === 47; // '/'
  if (path.startsWith('/api/data')) return path.length === 9 || path.charCodeAt(9) === 47;
  return false;
}

/**
 * Maps a public URL path (no query string) to the manifest key it names. Whether the key is
 * published is the manifest's business; this only decides the shape.
 */
export function resolvePublicPath(path: string): Resolution {
  if (path.length > 1 && path.endsWith('/')) return { reason: 'trailing-slash' };
  const parts = path.split('/'); // ['', 'api', 'data', …] or ['', 'data', …]
  if (parts[1] === 'api' && parts[2] === 'data') return resolveApi(parts.slice(3));
  if (parts[1] === 'data') return resolveData(parts.slice(2));
  return { reason: 'no-such-path' };
}

function resolveApi(rest: string[]): Resolution {
  const [slug, second] = rest;
  if (rest.length === 0 || rest.length > 2) return { reason: 'no-such-path' };
  if (!isSlug(slug)) return { reason: 'unknown-slug' };
  if (rest.length === 1) return { key: `api/data/${slug}.json` };
  if (second === 'csv') return { key: `api/data/${slug}.csv` };
  if (!isMonth(second)) return { reason: 'malformed-month' };
  return { key: `api/data/${slug}/${second}.json` };
}

function resolveData(rest: string[]): Resolution {
  if (rest.length === 1) {
    const name = rest[0];
    if (name === 'rss.xml') return { key: 'data/rss.xml' };
    const slug = name.endsWith('.md') ? name.slice(0, -3) : name;
    if (!isSlug(slug)) return { reason: 'unknown-slug' };
    return { key: name.endsWith('.md') ? `data/${slug}.md` : `data/${slug}.html` };
  }
  if (rest.length === 4 && rest[0] === 'cards') {
    const [, slug, month, file] = rest;
    if (!isSlug(slug)) return { reason: 'unknown-slug' };
    if (!isMonth(month)) return { reason: 'malformed-month' };
    if (!file.endsWith('.png') || !ANCHOR.test(file.slice(0, -4))) return { reason: 'no-such-path' };
    return { key: `data/cards/${slug}/${month}/${file}` };
  }
  return { reason: 'no-such-path' };
}

/**
 * The inverse: the public URL path of a manifest key, or null when the key is not a public
 * artifact (e.g. `data/{slug}.html` is reachable only as `/data/{slug}`). A key is served only
 * when `resolvePublicPath(manifestKeyToPath(key))` gives the key back.
 */
export function manifestKeyToPath(key: string): string | null {
  let path: string | null = null;
  let m: RegExpExecArray | null;
  if ((m = /^api\/data\/([^/]+)\.json$/.exec(key))) path = `/api/data/${m[1]}`;
  else if ((m = /^api\/data\/([^/]+)\/([^/]+)\.json$/.exec(key))) path = `/api/data/${m[1]}/${m[2]}`;
  else if ((m = /^api\/data\/([^/]+)\.csv$/.exec(key))) path = `/api/data/${m[1]}/csv`;
  else if ((m = /^data\/([^/]+)\.html$/.exec(key))) path = `/data/${m[1]}`;
  else if (/^data\/[^/]+\.md$/.test(key) || key === 'data/rss.xml' || /^data\/cards\/[^/]+\/[^/]+\/[^/]+\.png$/.test(key)) {
    path = `/${key}`;
  }
  if (path === null) return null;
  const back = resolvePublicPath(path);
  return 'key' in back && back.key === key ? path : null;
}
