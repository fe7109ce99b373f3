/**
 * Every release, by path (core/public-paths.ts): `/releases.json`, the live release's list of
 * releases newest first, and `/releases/{id}/{latest URL path}`, an artifact exactly as release
 * `id` published it. A release folder never changes once switched in (publish/release.ts), so
 * its artifacts are cached for a year as immutable; they are streamed from the release folder
 * (file-body.ts). Only an id in the live list names a folder, and only a key in that release's
 * manifest names a file: request input never becomes a path on its own.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CONTENT_TYPES, type Manifest } from '../publish/manifest.js';
import type { ReleaseIndex } from '../publish/release-index.js';
import { manifestKeyToPath } from '../core/public-paths.js';
import { ARTIFACT_CACHE, makeArtifact, readManifest, type FileArtifact, type MemoryArtifact, type Publication } from './publication.js';

/** An artifact of a release: its URL never changes meaning. */
export const RELEASE_ARTIFACT_CACHE = 'public, max-age=31536000, immutable';

/** Manifests of releases other than the live one kept in memory (the most recently used). */
const MANIFESTS_KEPT = 16;

/** `/releases.json`: the list, newest first, each release with the path its artifacts are under. */
export function releaseListing(index: ReleaseIndex): MemoryArtifact {
  const releases = [...index.releases].reverse().map((r) => ({ ...r, path: `/releases/${r.id}` }));
  const body = Buffer.from(JSON.stringify({ releases }, null, 2) + '\n');
  const etag = `"releases-${createHash('sha256').update(body).digest('hex').slice(0, 16)}"`;
  const newest = index.releases[index.releases.length - 1];
  const lastModified = new Date(newest ? newest.completed_at : 0).toUTCString();
  const entry = { etag, last_modified: lastModified, content_type: CONTENT_TYPES.json, bytes: body.length };
  return makeArtifact('releases.json', '/releases.json', entry, body, null, ARTIFACT_CACHE);
}

/** True when `file` is a regular file (a release folder never changes once switched in). */
const isFile = (file: string): Promise<boolean> => stat(file).then((s) => s.isFile(), () => false);

/** Finds the artifacts of releases, reading each release's manifest once (a few are kept). */
export class ReleaseArtifacts {
  private readonly manifests = new Map<string, Promise<Manifest>>();
  private readonly listings = new WeakMap<Publication, MemoryArtifact>();

  /** `/releases.json` of the live publication, or null when it lists no releases. */
  listing(live: Publication): MemoryArtifact | null {
    if (live.releases === null) return null;
    let a = this.listings.get(live);
    if (a === undefined) this.listings.set(live, (a = releaseListing(live.releases)));
    return a;
  }

  /**
   * The artifact `key` of release `id` (listed by `live`), or null when that release did not
   * publish it. A file that is not in the release folder is answered without its manifest: a
   * manifest not kept in memory is read and checked whole (tens of milliseconds of the event
   * loop for a year of cards), so URLs naming no file, cycled over more releases than are kept,
   * would each cost that much.
   */
  async find(live: Publication, id: string, key: string): Promise<FileArtifact | null> {
    if (!live.releaseIds.has(id)) return null;
    const urlPath = manifestKeyToPath(key);
    if (urlPath === null) return null;
    const dir = path.join(path.dirname(live.dir), id);
    const file = path.join(dir, ...key.split('/'));
    if (id !== live.id && !(await isFile(file))) return null;
    const manifest = id === live.id ? live.manifest : await this.manifest(dir);
    const entry = Object.hasOwn(manifest.files, key) ? manifest.files[key] : undefined;
    if (entry === undefined) return null;
    return makeArtifact(`${id}/${key}`, `/releases/${id}${urlPath}`, entry, null, file, RELEASE_ARTIFACT_CACHE);
  }

  private manifest(dir: string): Promise<Manifest> {
    let m = this.manifests.get(dir);
    if (m !== undefined) this.manifests.delete(dir); // most recently used goes last
    else {
      m = readManifest(dir);
      m.catch(() => this.manifests.delete(dir)); // a failed read is tried again next time
    }
    this.manifests.set(dir, m);
    for (const old of this.manifests.keys()) {
      if (this.manifests.size <= MANIFESTS_KEPT) break;
      this.manifests.delete(old);
    }
    return m;
  }
}
