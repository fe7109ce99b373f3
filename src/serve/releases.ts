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
import { CONTENT_TYPES, type Manifest, type ManifestEntry } from '../publish/manifest.js';
import type { ReleaseIndex } from '../publish/release-index.js';
import { manifestKeyToPath } from '../core/public-paths.js';
import { ARTIFACT_CACHE, makeArtifact, readManifest, type FileArtifact, type MemoryArtifact, type Publication } from './publication.js';

/** An artifact of a release: its URL never changes meaning. */
export const RELEASE_ARTIFACT_CACHE = 'public, max-age=31536000, immutable';

/**
 * Entries held in memory for the releases other than the live one, in all: each release kept
 * counts one, plus each of its entries that differs from the live manifest's (`ReleaseFiles`
 * below). A correction rewrites a few hundred files of thousands, so forty releases of
 * a publication of 2,600 files hold about 12,000; a manifest held whole would be 2,600 each.
 */
export const RELEASE_ENTRIES_KEPT = 100_000;

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

type ManifestFiles = Manifest['files'];

/**
 * A release's manifest as far as it differs from the live one: the entries the live manifest
 * lacks or lists with other headers, and null for each live key the release lacks. Releases of
 * one publication share nearly every entry (a file a release left unchanged keeps its entry), so
 * this is a few entries where the manifest is thousands.
 */
interface ReleaseFiles {
  readonly live: ManifestFiles;
  readonly differs: ReadonlyMap<string, ManifestEntry | null>;
}

const own = (files: ManifestFiles, key: string): ManifestEntry | undefined => (Object.hasOwn(files, key) ? files[key] : undefined);

/** Entries that answer alike: the headers of a response are all serve reads of one (publication.ts makeArtifact). */
const sameHeaders = (a: ManifestEntry, b: ManifestEntry): boolean =>
  a.etag === b.etag && a.last_modified === b.last_modified && a.content_type === b.content_type && a.bytes === b.bytes;

function releaseFiles(release: ManifestFiles, live: ManifestFiles): ReleaseFiles {
  const differs = new Map<string, ManifestEntry | null>();
  for (const key of Object.keys(release)) {
    const entry = release[key];
    const l = own(live, key);
    if (l === undefined || !sameHeaders(l, entry)) differs.set(key, entry);
  }
  for (const key of Object.keys(live)) if (!Object.hasOwn(release, key)) differs.set(key, null);
  return { live, differs };
}

/** The entry of `key` in the release's manifest, or undefined when it lists none. */
function releaseEntry(files: ReleaseFiles, key: string): ManifestEntry | undefined {
  const d = files.differs.get(key);
  return d === undefined ? own(files.live, key) : (d ?? undefined);
}

interface Kept {
  readonly files: Promise<ReleaseFiles>;
  /** What it counts against RELEASE_ENTRIES_KEPT: one, and its differing entries once read. */
  size: number;
}

/**
 * Finds the artifacts of releases. A release's manifest is read and checked whole once, and
 * kept as its differences from the live manifest (the most recently used, up to `entriesKept`
 * entries in all), so a crawler walking every release, URL by URL, reads each manifest once
 * rather than once a request. A new live publication starts the set afresh.
 */
export class ReleaseArtifacts {
  private readonly listings = new WeakMap<Publication, MemoryArtifact>();
  /** Release folder → its differences from `keptFor`, most recently used last. */
  private kept = new Map<string, Kept>();
  private keptFor: ManifestFiles | null = null;
  private keptSize = 0;

  constructor(private readonly entriesKept = RELEASE_ENTRIES_KEPT) {}

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
   * loop for a year of cards), so URLs naming no file, cycled over many releases, would each
   * cost that much.
   */
  async find(live: Publication, id: string, key: string): Promise<FileArtifact | null> {
    if (!live.releaseIds.has(id)) return null;
    const urlPath = manifestKeyToPath(key);
    if (urlPath === null) return null;
    const dir = path.join(path.dirname(live.dir), id);
    const file = path.join(dir, ...key.split('/'));
    let entry: ManifestEntry | undefined;
    if (id === live.id) entry = own(live.manifest.files, key);
    else if (!(await isFile(file))) return null;
    else entry = releaseEntry(await this.files(live.manifest.files, dir), key);
    if (entry === undefined) return null;
    return makeArtifact(`${id}/${key}`, `/releases/${id}${urlPath}`, entry, null, file, RELEASE_ARTIFACT_CACHE);
  }

  /** Entries held now for releases other than the live one (what RELEASE_ENTRIES_KEPT bounds). */
  get entriesHeld(): number {
    return this.keptSize;
  }

  private files(live: ManifestFiles, dir: string): Promise<ReleaseFiles> {
    if (this.keptFor !== live) {
      this.kept = new Map();
      this.keptFor = live;
      this.keptSize = 0;
    }
    let k = this.kept.get(dir);
    if (k !== undefined) {
      this.kept.delete(dir); // most recently used goes last
      this.kept.set(dir, k);
      return k.files;
    }
    const kept: Kept = { files: readManifest(dir).then((m) => releaseFiles(m.files, live)), size: 1 };
    this.kept.set(dir, kept);
    this.keptSize += 1;
    kept.files.then(
      (f) => {
        if (this.kept.get(dir) !== kept) return; // dropped meanwhile (another live publication, or evicted)
        kept.size += f.differs.size;
        this.keptSize += f.differs.size;
        this.trim();
      },
      () => {
        if (this.kept.get(dir) !== kept) return;
        this.kept.delete(dir); // a failed read is tried again next time
        this.keptSize -= kept.size;
      },
    );
    this.trim();
    return kept.files;
  }

  /** Drops the least recently used releases beyond the bound (the most recent one stays, whatever its size). */
  private trim(): void {
    for (const [dir, k] of this.kept) {
      if (this.keptSize <= this.entriesKept || this.kept.size <= 1) break;
      this.kept.delete(dir);
      this.keptSize -= k.size;
    }
  }
}
