/**
 * One publication held in memory: the manifest of a release folder and every file it lists,
 * each with its response headers worked out once. Built completely before it is used, never
 * changed afterwards, so a request that picked one publication answers from it alone.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import type { Manifest } from '../publish/manifest.js';
import { manifestKeyToPath } from './routes.js';

export const ARTIFACT_CACHE = 'public, s-maxage=3600';

export interface Artifact {
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
  readonly body: Buffer;
  /** Flat header list of a 200 (and of a HEAD). */
  readonly okHeaders: readonly string[];
  /** Flat header list of a 304: the same validators and caching, no entity headers. */
  readonly notModifiedHeaders: readonly string[];
}

export interface Publication {
  /** Release folder name (or the folder itself for a hand-made tree). */
  readonly id: string;
  readonly dir: string;
  readonly manifest: Manifest;
  /** Public URL path → artifact; the only way a request reaches a file. */
  readonly byPath: ReadonlyMap<string, Artifact>;
  readonly totalBytes: number;
}

const manifestSchema = z.object({
  manifest_version: z.literal(1),
  completed_at: z.string(),
  latest_month: z.string().nullable(),
  files: z.record(
    z.string(),
    z.object({
      etag: z.string().regex(/^"[\x21\x23-\x7e]*"$/, 'a quoted strong ETag'),
      last_modified: z.string().refine((s) => !Number.isNaN(Date.parse(s)), 'an HTTP date'),
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
 * Loads a release folder completely: its manifest and the bytes of every public artifact it
 * lists, checked against the manifest's lengths. Rejects (and nothing changes for the caller)
 * when any file is missing or has another length.
 *
 * With `previous` (the publication being replaced), an entry whose key, strong ETag, length,
 * Last-Modified and content type are unchanged keeps the bytes already in memory: a strong
 * ETag names exactly those bytes, and a monthly publish leaves most cards untouched.
 */
export async function loadPublication(
  dir: string,
  opts: { concurrency?: number; previous?: Publication | null } = {},
): Promise<Publication> {
  const manifest = await readManifest(dir);
  const entries = Object.entries(manifest.files)
    .map(([key, entry]) => ({ key, entry, urlPath: manifestKeyToPath(key) }))
    .filter((e): e is typeof e & { urlPath: string } => e.urlPath !== null);
  const byPath = new Map<string, Artifact>();
  let totalBytes = 0;
  const toRead: typeof entries = [];
  for (const e of entries) {
    const old = opts.previous?.byPath.get(e.urlPath);
    if (old && sameEntry(old, e.key, e.entry)) {
      byPath.set(e.urlPath, old);
      totalBytes += old.body.length;
    } else {
      toRead.push(e);
    }
  }
  const concurrency = opts.concurrency ?? 64;
  for (let i = 0; i < toRead.length; i += concurrency) {
    const batch = toRead.slice(i, i + concurrency);
    const bodies = await Promise.all(batch.map(({ key }) => readArtifact(dir, key)));
    batch.forEach(({ key, entry, urlPath }, j) => {
      const body = bodies[j];
      if (body.length !== entry.bytes) {
        throw new PublicationError(`${key} has ${body.length} bytes, the manifest says ${entry.bytes}`, dir);
      }
      totalBytes += body.length;
      byPath.set(urlPath, makeArtifact(key, urlPath, entry, body));
    });
  }
  return { id: path.basename(dir), dir, manifest, byPath, totalBytes };
}

function sameEntry(old: Artifact, key: string, entry: Manifest['files'][string]): boolean {
  return (
    old.key === key &&
    old.etag === entry.etag &&
    old.body.length === entry.bytes &&
    old.lastModified === entry.last_modified &&
    old.contentType === entry.content_type
  );
}

async function readArtifact(dir: string, key: string): Promise<Buffer> {
  try {
    // Only keys of the strict public shapes get here (manifestKeyToPath): no `..`, no
    // encoded characters. Request input never names a file.
    return await readFile(path.join(dir, ...key.split('/')));
  } catch (e) {
    throw new PublicationError(`cannot read ${key} (${(e as NodeJS.ErrnoException).code ?? e})`, dir);
  }
}

function makeArtifact(
  key: string,
  urlPath: string,
  entry: Manifest['files'][string],
  body: Buffer,
): Artifact {
  const validators = [
    'Cache-Control', ARTIFACT_CACHE,
    'ETag', entry.etag,
    'Last-Modified', entry.last_modified,
    'Access-Control-Allow-Origin', '*',
  ];
  return {
    key,
    path: urlPath,
    etag: entry.etag,
    opaqueTag: entry.etag.slice(1, -1),
    lastModified: entry.last_modified,
    lastModifiedMs: Date.parse(entry.last_modified),
    contentType: entry.content_type,
    body,
    okHeaders: [
      'Content-Type', entry.content_type,
      'Content-Length', String(body.length),
      ...validators,
      'X-Content-Type-Options', 'nosniff',
    ],
    notModifiedHeaders: validators,
  };
}
