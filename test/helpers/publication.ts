/**
 * Hand-made publications for tests: writes `out/.releases/<id>/` (manifest.json plus the
 * files it lists) and switches `out/.releases/current` to it atomically (a temp symlink
 * renamed over `current`), the way publish does. Also creates the top-level links
 * `out/api`, `out/data`, `out/manifest.json` → `.releases/current/…` when absent.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, symlink, writeFile, lstat } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPES, type Manifest, type ManifestEntry } from '../../src/publish/manifest.js';
import { SCHEMA_VERSION, LICENSE, type Slug } from '../../src/stats/types.js';

export interface FileSpec {
  body: string | Buffer;
  etag?: string;
  content_type?: string;
  last_modified?: string;
}

export interface ReleaseOptions {
  /** Release folder name; random when absent. */
  id?: string;
  completed_at?: string;
  latest_month?: string | null;
  /** Overrides of manifest entries (e.g. a wrong `bytes`), applied after the defaults. */
  manifestPatch?: Record<string, Partial<ManifestEntry>>;
}

export interface WrittenRelease {
  id: string;
  dir: string;
  manifest: Manifest;
}

const sha = (b: string | Buffer) => createHash('sha256').update(b).digest('hex');

export function contentTypeOf(key: string): string {
  const ext = key.slice(key.lastIndexOf('.') + 1) as keyof typeof CONTENT_TYPES;
  return CONTENT_TYPES[ext] ?? 'application/octet-stream';
}

/** Writes a release folder (not yet live). */
export async function writeRelease(
  outDir: string,
  files: Record<string, string | Buffer | FileSpec>,
  opts: ReleaseOptions = {},
): Promise<WrittenRelease> {
  const id = opts.id ?? `r-${Date.now()}-${randomBytes(4).toString('hex')}`;
  const completed_at = opts.completed_at ?? new Date('2025-02-03T04:05:06Z').toISOString();
  const dir = path.join(outDir, '.releases', id);
  const entries: Record<string, ManifestEntry> = {};
  for (const [key, value] of Object.entries(files)) {
    const spec: FileSpec = typeof value === 'string' || Buffer.isBuffer(value) ? { body: value } : value;
    const body = Buffer.from(spec.body);
    const file = path.join(dir, ...key.split('/'));
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, body);
    entries[key] = {
      etag: spec.etag ?? `"${sha(body).slice(0, 32)}"`,
      last_modified: spec.last_modified ?? new Date(completed_at).toUTCString(),
      content_type: spec.content_type ?? contentTypeOf(key),
      bytes: body.length,
      ...opts.manifestPatch?.[key],
    };
  }
  const manifest: Manifest = {
    manifest_version: 1,
    completed_at,
    latest_month: opts.latest_month ?? null,
    files: entries,
  };
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2));
  return { id, dir, manifest };
}

/** Points `out/.releases/current` at release `id` with one rename. */
export async function switchCurrent(outDir: string, id: string): Promise<void> {
  const releases = path.join(outDir, '.releases');
  const tmp = path.join(releases, `.current-${randomBytes(6).toString('hex')}`);
  await symlink(id, tmp);
  await rename(tmp, path.join(releases, 'current'));
  for (const name of ['api', 'data', 'manifest.json']) {
    const link = path.join(outDir, name);
    try {
      await lstat(link);
    } catch {
      await symlink(path.join('.releases', 'current', name), link);
    }
  }
}

/** Writes a release and makes it the live publication. */
export async function writePublication(
  outDir: string,
  files: Record<string, string | Buffer | FileSpec>,
  opts: ReleaseOptions = {},
): Promise<WrittenRelease> {
  const release = await writeRelease(outDir, files, opts);
  await switchCurrent(outDir, release.id);
  return release;
}

/** The ETag publish gives a JSON document: `"{slug}-{month}-{first 16 hex of the run id}"`. */
export const jsonEtag = (slug: string, month: string, runId: string) => `"${slug}-${month}-${sha(runId).slice(0, 16)}"`;

/** A minimal statistics document whose `completed_at` names the run it came from. */
export function statsDocument(slug: Slug, month: string, runId: string): FileSpec {
  const body = JSON.stringify({
    schema_version: SCHEMA_VERSION,
    slug,
    month,
    completed_at: runId,
    license: LICENSE,
    stats: [],
  });
  return { body, etag: jsonEtag(slug, month, runId) };
}

/** A 1×1 PNG, enough for content-type and byte checks. */
export const TINY_PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6300010000050001' +
    '0d0a2db40000000049454e44ae426082',
  'hex',
);

/**
 * Every kind of artifact for the given slugs and months: JSON (latest and per month), CSV,
 * HTML, markdown, RSS and one card per slug for the latest month. `runId` goes into every
 * JSON document's `completed_at` and ETag, so a test can tell releases apart.
 */
export function samplePublicationFiles(opts: {
  runId: string;
  months: string[];
  slugs?: Slug[];
}): Record<string, FileSpec> {
  const slugs = opts.slugs ?? ['agentic-commerce', 'platform-stores'];
  const months = [...opts.months].sort();
  const latest = months[months.length - 1];
  const files: Record<string, FileSpec> = {};
  for (const slug of slugs) {
    for (const month of months) files[`api/data/${slug}/${month}.json`] = statsDocument(slug, month, opts.runId);
    files[`api/data/${slug}.json`] = statsDocument(slug, latest, opts.runId);
    files[`api/data/${slug}.csv`] = { body: `metric_key,month\r\nx,${latest}\r\n# ${opts.runId}\r\n` };
    files[`data/${slug}.html`] = { body: `<!doctype html><title>${slug}</title><p>${opts.runId}</p>` };
    files[`data/${slug}.md`] = { body: `# ${slug}\n\n${opts.runId}\n` };
    files[`data/cards/${slug}/${latest}/share-all-abc123.png`] = { body: TINY_PNG };
  }
  files['data/rss.xml'] = { body: `<?xml version="1.0"?><rss version="2.0"><channel><title>${opts.runId}</title></channel></rss>` };
  return files;
}
