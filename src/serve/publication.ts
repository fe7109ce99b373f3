/**
 * One publication: the manifest of a release folder and every public file it lists, each with
 * its response headers worked out once. Documents (JSON, CSV, markdown, HTML, RSS) are held in
 * memory; share cards (`image/png`: thousands a month, most of the bytes) stay on disk, checked
 * at load by a stat (there, and of the manifest's length) and streamed on request from the
 * release folder, which is immutable once switched in. Built completely before it is used,
 * never changed afterwards, so a request that picked one publication answers from it alone.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Manifest } from '../publish/manifest.js';
import { manifestKeyToPath } from '../core/public-paths.js';
import { isImfFixdate } from '../http/conditional.js';
import { readReleaseIndex, RELEASE_INDEX_FILE, type ReleaseIndex } from '../publish/release-index.js';
import { compressible, type ContentCoding } from '../http/accept-encoding.js';

export const ARTIFACT_CACHE = 'public, s-maxage=3600';

/**
 * `Expires` beside a Cache-Control without max-age: already past, for a browser's cache.
 * `s-maxage` speaks to shared caches only, so a browser, given no freshness of its own, would
 * guess one from Last-Modified (RFC 9111 §4.2.2: Chromium takes a tenth of its age, days for a
 * month-old figure) and show a page or document superseded by a correction that long, without
 * asking. With it, a browser revalidates each time (a 304 while nothing changed); a shared
 * cache ignores Expires beside s-maxage (§5.3), so a CDN keeps its hour.
 */
export const EXPIRED = 'Thu, 01 Jan 1970 00:00:00 GMT';

/** Content types served from disk on demand rather than held in memory. */
export const ON_DISK_CONTENT_TYPES: ReadonlySet<string> = new Set(['image/png']);

interface ArtifactBase {
  /** Manifest key, e.g. `api/data/agentic-commerce.json`. */
  readonly key: string;
  /** Public URL path, e.g. `/api/data/agentic-commerce`. */
  readonly path: string;
  readonly etag: string;
  /** The ETag without quotes, for weak comparison. */
  readonly opaqueTag: string;
  readonly lastModified: string;
  readonly lastModifiedMs: number;
  readonly contentType: string;
  /** Length of the body (the manifest's `bytes`, checked at load). */
  readonly bytes: number;
  /** Flat header list of a 200 (and of a HEAD). */
  readonly okHeaders: readonly string[];
  /** Flat header list of a 304: the same validators and caching, no entity headers. */
  readonly notModifiedHeaders: readonly string[];
  /**
   * The compressed representations of a text body worth compressing (encoded-body.ts), each
   * with its own ETag; null for a card or a small body, which are only ever sent as they are
   * (and without `Vary: Accept-Encoding`).
   */
  readonly encodings: Encodings | null;
}

export type Encodings = { readonly [coding in ContentCoding]: Representation };

/** One compressed representation of an artifact: the file's bytes in a content coding. */
export interface Representation {
  readonly coding: ContentCoding;
  /** The file's ETag with `-{coding}` inside the quotes, e.g. `"…-gzip"`: strong, and another than the file's. */
  readonly etag: string;
  readonly opaqueTag: string;
  /** Flat header list of a 200 (and a HEAD) but for the value at CONTENT_LENGTH_AT, the encoded length. */
  readonly okHeaders: readonly string[];
  readonly notModifiedHeaders: readonly string[];
}

/** Index of Content-Length's value in a representation's okHeaders. */
export const CONTENT_LENGTH_AT = 5;

/** An artifact whose bytes are in memory. */
export interface MemoryArtifact extends ArtifactBase {
  readonly body: Buffer;
  readonly file: null;
}

/** An artifact read from its release folder on each (uncached) GET. */
export interface FileArtifact extends ArtifactBase {
  readonly body: null;
  /** Absolute path: the release folder joined with the manifest key (never with request input). */
  readonly file: string;
}

export type Artifact = MemoryArtifact | FileArtifact;

export interface Publication {
  /** Release folder name (or the folder itself for a hand-made tree). */
  readonly id: string;
  readonly dir: string;
  readonly manifest: Manifest;
  /** Public URL path → artifact; the only way a request reaches a file. */
  readonly byPath: ReadonlyMap<string, Artifact>;
  /** The releases up to this one (publish/release-index.ts); null for a hand-made folder. */
  readonly releases: ReleaseIndex | null;
  /** The ids of the releases listed, whose artifacts are served under `/releases/{id}` (releases.ts). */
  readonly releaseIds: ReadonlySet<string>;
  /** Length of every public artifact, in memory or on disk. */
  readonly totalBytes: number;
  /** Bytes of artifact bodies held in memory (documents; cards excluded). */
  readonly inMemoryBytes: number;
  /** Artifacts served from disk (cards) and their total length. */
  readonly onDiskFiles: number;
  readonly onDiskBytes: number;
}

const manifestSchema = z.object({
  manifest_version: z.literal(1),
  completed_at: z.string(),
  latest_month: z.string().nullable(),
  files: z.record(
    z.string(),
    z.object({
      etag: z.string().regex(/^"[\x21\x23-\x7e]*"$/, 'a quoted strong ETag'),
      // Written as it is into Last-Modified: Date.parse would also take `… GMT (\n)`.
      last_modified: z.string().refine(isImfFixdate, 'an HTTP date (IMF-fixdate, e.g. "Sun, 06 Nov 1994 08:49:37 GMT")'),
      content_type: z.string().min(1).regex(/^[\x20-\x7e]+$/),
      bytes: z.number().int().nonnegative(),
      source_hash: z.string().optional(),
    }),
  ),
});

export class PublicationError extends Error {
  constructor(message: string, readonly dir: string) {
    super(`${dir}: ${message}`);
    this.name = 'PublicationError';
  }
}

/** Reads `dir/manifest.json`; throws PublicationError when it is missing or invalid. */
export async function readManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(path.join(dir, 'manifest.json'), 'utf8');
  } catch (e) {
    throw new PublicationError(`cannot read manifest.json (${(e as NodeJS.ErrnoException).code ?? e})`, dir);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new PublicationError('manifest.json is not valid JSON', dir);
  }
  const parsed = manifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new PublicationError(`manifest.json: ${issue.path.join('.')}: ${issue.message}`, dir);
  }
  return parsed.data as Manifest;
}

/**
 * Loads a release folder: its manifest, the bytes of every public document it lists and a
 * stat of every card, each checked against the manifest's length. Rejects (and nothing
 * changes for the caller) when any file is missing or has another length.
 *
 * With `previous` (the publication being replaced), a document whose key, strong ETag,
 * length, Last-Modified and content type are unchanged keeps the bytes already in memory: a
 * strong ETag names exactly those bytes. A card is always stat'ed in the new folder (the old
 * folder may be garbage-collected by a later publish), and keeps its old artifact only when
 * it is the same file.
 */
export async function loadPublication(
  dir: string,
  opts: { concurrency?: number; previous?: Publication | null } = {},
): Promise<Publication> {
  const manifest = await readManifest(dir);
  const byPath = new Map<string, Artifact>();
  let inMemoryBytes = 0;
  let onDiskFiles = 0;
  let onDiskBytes = 0;
  const toRead: Entry[] = [];
  const toStat: Entry[] = [];
  for (const [key, entry] of Object.entries(manifest.files)) {
    const urlPath = manifestKeyToPath(key);
    if (urlPath === null) continue;
    const e = { key, entry, urlPath };
    if (ON_DISK_CONTENT_TYPES.has(entry.content_type)) {
      toStat.push(e);
      continue;
    }
    const old = opts.previous?.byPath.get(urlPath);
    if (old && old.body !== null && sameEntry(old, key, entry)) {
      byPath.set(urlPath, old);
      inMemoryBytes += old.bytes;
    } else {
      toRead.push(e);
    }
  }
  const concurrency = opts.concurrency ?? 64;
  await forEachLimit(toRead, concurrency, async ({ key, entry, urlPath }) => {
    const body = await readArtifact(dir, key);
    if (body.length !== entry.bytes) {
      throw new PublicationError(`${key} has ${body.length} bytes, the manifest says ${entry.bytes}`, dir);
    }
    inMemoryBytes += body.length;
    byPath.set(urlPath, makeArtifact(key, urlPath, entry, body, null));
  });
  await forEachLimit(toStat, concurrency, async ({ key, entry, urlPath }) => {
    const file = artifactFile(dir, key);
    await checkFile(dir, key, file, entry.bytes);
    const old = opts.previous?.byPath.get(urlPath);
    byPath.set(
      urlPath,
      old && old.file === file && sameEntry(old, key, entry) ? old : makeArtifact(key, urlPath, entry, null, file),
    );
    onDiskFiles++;
    onDiskBytes += entry.bytes;
  });
  const index = await readReleaseIndex(dir).catch((e) => {
    throw new PublicationError(`cannot read ${RELEASE_INDEX_FILE} (${(e as NodeJS.ErrnoException).code ?? e})`, dir);
  });
  return {
    id: path.basename(dir),
    dir,
    manifest,
    byPath,
    releases: index,
    releaseIds: new Set(index?.releases.map((r) => r.id)),
    totalBytes: inMemoryBytes + onDiskBytes,
    inMemoryBytes,
    onDiskFiles,
    onDiskBytes,
  };
}

type ManifestFile = Manifest['files'][string];
interface Entry {
  key: string;
  entry: ManifestFile;
  urlPath: string;
}

/** Runs `fn` over `items`, at most `limit` at a time; rejects with the first failure. */
async function forEachLimit<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  let failed = false;
  const worker = async () => {
    while (!failed && next < items.length) {
      const item = items[next++];
      try {
        await fn(item);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
}

function sameEntry(old: Artifact, key: string, entry: ManifestFile): boolean {
  return (
    old.key === key &&
    old.etag === entry.etag &&
    old.bytes === entry.bytes &&
    old.lastModified === entry.last_modified &&
    old.contentType === entry.content_type
  );
}

/**
 * Only keys of the strict public shapes get here (manifestKeyToPath): no `..`, no encoded
 * characters. Request input never names a file.
 */
function artifactFile(dir: string, key: string): string {
  return path.join(path.resolve(dir), ...key.split('/'));
}

async function readArtifact(dir: string, key: string): Promise<Buffer> {
  try {
    return await readFile(artifactFile(dir, key));
  } catch (e) {
    throw new PublicationError(`cannot read ${key} (${(e as NodeJS.ErrnoException).code ?? e})`, dir);
  }
}

/** The cheap check of an on-disk artifact: a regular file of the manifest's length. */
async function checkFile(dir: string, key: string, file: string, bytes: number): Promise<void> {
  let s;
  try {
    s = await stat(file);
  } catch (e) {
    throw new PublicationError(`cannot read ${key} (${(e as NodeJS.ErrnoException).code ?? e})`, dir);
  }
  if (!s.isFile()) throw new PublicationError(`${key} is not a regular file`, dir);
  if (s.size !== bytes) throw new PublicationError(`${key} has ${s.size} bytes, the manifest says ${bytes}`, dir);
}

export function makeArtifact(key: string, urlPath: string, entry: ManifestFile, body: Buffer, file: null, cacheControl?: string): MemoryArtifact;
export function makeArtifact(key: string, urlPath: string, entry: ManifestFile, body: null, file: string, cacheControl?: string): FileArtifact;
export function makeArtifact(
  key: string,
  urlPath: string,
  entry: ManifestFile,
  body: Buffer | null,
  file: string | null,
  cacheControl = ARTIFACT_CACHE,
): Artifact {
  const encoded = compressible(entry.content_type, entry.bytes);
  const validators = (etag: string) => [
    'Cache-Control', cacheControl,
    ...(cacheControl.includes('max-age=') ? [] : ['Expires', EXPIRED]), // (`s-maxage=` is not `max-age=`)
    'ETag', etag,
    'Last-Modified', entry.last_modified,
    // The body depends on Accept-Encoding (any representation of it, this one too): a shared
    // cache keeps one response per coding asked for.
    ...(encoded ? ['Vary', 'Accept-Encoding'] : []),
    'Access-Control-Allow-Origin', '*',
    // A script on another origin reads the ETag to revalidate with (Last-Modified it reads anyway).
    'Access-Control-Expose-Headers', 'ETag',
  ];
  const representation = (coding: ContentCoding): Representation => {
    const etag = `${entry.etag.slice(0, -1)}-${coding}"`;
    const notModifiedHeaders = validators(etag);
    return {
      coding,
      etag,
      opaqueTag: etag.slice(1, -1),
      // CONTENT_LENGTH_AT: the length's value, set per response.
      okHeaders: ['Content-Type', entry.content_type, 'Content-Encoding', coding, 'Content-Length', '', ...notModifiedHeaders, 'X-Content-Type-Options', 'nosniff'],
      notModifiedHeaders,
    };
  };
  const notModifiedHeaders = validators(entry.etag);
  // One object shape for both kinds, so the request path's property reads stay monomorphic.
  return {
    key,
    path: urlPath,
    etag: entry.etag,
    opaqueTag: entry.etag.slice(1, -1),
    lastModified: entry.last_modified,
    lastModifiedMs: Date.parse(entry.last_modified),
    contentType: entry.content_type,
    bytes: entry.bytes,
    okHeaders: [
      'Content-Type', entry.content_type,
      'Content-Length', String(entry.bytes),
      ...notModifiedHeaders,
      'X-Content-Type-Options', 'nosniff',
    ],
    notModifiedHeaders,
    encodings: encoded ? { br: representation('br'), gzip: representation('gzip') } : null,
    body,
    file,
  } as Artifact;
}
