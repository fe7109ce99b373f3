/**
 * The publication manifest: every public artifact, keyed by its path relative to the output
 * folder (which mirrors its URL path without the leading slash). `serve` resolves requests
 * through this map only.
 *
 * On disk (see publish/release.ts):
 *   output/.releases/<id>/               one complete publication (immutable once switched in)
 *   output/.releases/current -> <id>     the live one; switched with one atomic rename
 *   output/api -> .releases/current/api, output/data -> …/data, output/manifest.json -> …/manifest.json
 */
export interface ManifestEntry {
  /** Strong ETag, quoted: JSON documents `"{slug}-{month}-{run16}"`, anything else a hash of the bytes. */
  etag: string;
  /** RFC 7231 IMF-fixdate of the completion of the run that last changed the file. */
  last_modified: string;
  content_type: string;
  bytes: number;
  /** For cards: hash of the content the card was rendered from (re-render only when it changes). */
  source_hash?: string;
  /** For pages (HTML, markdown): the release they name, the one whose run last wrote them (publish/artifacts.ts). */
  release?: string;
}

export interface Manifest {
  manifest_version: 1;
  /** ISO 8601 completion time of the publish run that wrote this manifest. */
  completed_at: string;
  /** The greatest published month. */
  latest_month: string | null;
  /** path (e.g. `api/data/agentic-commerce.json`) → entry */
  files: Record<string, ManifestEntry>;
}

/**
 * Every text type names its charset: a client that does not read the feed's XML declaration
 * (Chromium shows a feed opened in a tab as text, in windows-1252 without one; Windows
 * PowerShell reads JSON without one as ISO-8859-1) still reads UTF-8. A file whose bytes are
 * unchanged keeps its ETag when only its type changes (an ETag names the bytes: a response
 * stored under it decodes to the same text either way); its manifest entry is rewritten
 * (artifacts.ts), so an upgrade moves a publication to these types at its next publish.
 */
export const CONTENT_TYPES = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  xml: 'application/rss+xml; charset=utf-8',
  png: 'image/png',
} as const;
