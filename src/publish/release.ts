/**
 * Where the live publication is. A publication is a folder `output/.releases/<id>/` holding
 * `manifest.json` and every artifact; `output/.releases/current` is a symlink to the live one,
 * switched with a single rename. A plain folder with `manifest.json` at its top also works
 * (tests, hand-made trees).
 *
 * Every release ever switched in is kept, unchanged, and listed in the live release's
 * `releases.json` (release-index.ts): a figure once published stays readable as it was. Every
 * file of a release is a hard link to a content-addressed blob (objects.ts): a release costs only
 * the bytes no release stored before it.
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, readFile, realpath, rename, rm, stat, symlink } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';
import { isReleaseId } from '../core/public-paths.js';
import type { Manifest } from './manifest.js';
import { collectBlobs, ObjectStore } from './objects.js';
import { nextReleaseIndex, readReleaseIndex, RELEASE_INDEX_FILE, type ReleaseDoing } from './release-index.js';

export const RELEASES_DIR = '.releases';
export const CURRENT_LINK = 'current';

/** Absolute path of the live publication's folder, or null when nothing is published. */
export async function resolveCurrentRelease(outDir: string): Promise<string | null> {
  try {
    return await realpath(path.join(outDir, RELEASES_DIR, CURRENT_LINK));
  } catch {
    try {
      await stat(path.join(outDir, 'manifest.json'));
      return path.resolve(outDir);
    } catch {
      return null;
    }
  }
}

/**
 * The publication an output folder holds, named by its first release (the oldest its live list
 * names, or the live release itself when it keeps no list), or null when nothing is published
 * there (or only by hand). It never changes while the folder is published into, whatever its path.
 */
export async function publicationId(outDir: string): Promise<string | null> {
  const dir = await realpath(path.join(outDir, RELEASES_DIR, CURRENT_LINK)).catch(() => null);
  if (dir === null) return null;
  return (await readReleaseIndex(dir))?.releases[0]?.id ?? path.basename(dir);
}

/**
 * The id of a release completed at `completedAt`: its basic ISO 8601 time and six random hex
 * digits. Chosen before the release is assembled, so its artifacts can link to themselves
 * (the feed's correction items link to the release's change list).
 */
export const newReleaseId = (completedAt: string): string => `${completedAt.replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;

/** A file of a new publication: fresh bytes, or the same bytes as a file of the live one. */
export type ReleaseFile = { path: string; bytes: Buffer | string } | { path: string; linkFrom: string };

/**
 * Writes a complete publication, with the list of releases that ends with it, into a staging
 * folder, then makes it live with one atomic rename of the `current` symlink. Killed at any
 * instant, the previous publication and its list stay whole and live; each file is linked from
 * its blob, and blobs no listed release links any more are removed after the switch (or when
 * staging fails, with the staging folder).
 */
export async function writeRelease(outDir: string, files: ReleaseFile[], completedAt: string, doing: ReleaseDoing, id = newReleaseId(completedAt)): Promise<string> {
  const releases = path.join(outDir, RELEASES_DIR);
  await mkdir(releases, { recursive: true });
  await removeLeftovers(releases);
  const live = await liveRelease(outDir);
  const index = nextReleaseIndex(live?.index ?? null, live && { id: live.id, completedAt: live.completedAt }, id, completedAt, doing);
  files = [...files, { path: RELEASE_INDEX_FILE, bytes: JSON.stringify(index, null, 2) + '\n' }];
  const staging = path.join(releases, `${id}.tmp`);
  try {
    await stageFiles(await ObjectStore.open(releases), staging, files);
  } catch (e) {
    // A run that fails while staging (a full disk) takes back what it wrote: the staging folder,
    // and the blobs only it linked. The live release links every blob it needs.
    // Best effort: the failure itself is what the run reports.
    await rm(staging, { recursive: true, force: true })
      .then(() => collectBlobs(releases))
      .catch(() => {});
    throw e;
  }
  await rename(staging, path.join(releases, id));
  const tmpLink = path.join(releases, `${CURRENT_LINK}.${id}.tmp`);
  await symlink(id, tmpLink);
  await rename(tmpLink, path.join(releases, CURRENT_LINK));
  await ensureTopLinks(outDir);
  await collectGarbage(releases, new Set(index.releases.map((r) => r.id)));
  await collectBlobs(releases);
  return id;
}

/** Links every file into the staging folder from its blob (written first when new). */
async function stageFiles(store: ObjectStore, staging: string, files: ReleaseFile[]): Promise<void> {
  const made = new Set<string>();
  for (const f of files) {
    const target = path.join(staging, f.path);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    await link('linkFrom' in f ? await store.adopt(f.linkFrom) : await store.put(f.bytes), target);
  }
}

/** The live release of `.releases` (not a hand-made folder), with its list of releases. */
async function liveRelease(outDir: string): Promise<{ id: string; completedAt: string; index: Awaited<ReturnType<typeof readReleaseIndex>> } | null> {
  const dir = await realpath(path.join(outDir, RELEASES_DIR, CURRENT_LINK)).catch(() => null);
  if (dir === null) return null;
  const manifest = JSON.parse(await readFile(path.join(dir, 'manifest.json'), 'utf8')) as { completed_at: string };
  return { id: path.basename(dir), completedAt: manifest.completed_at, index: await readReleaseIndex(dir) };
}

/** What publish keeps at the top of the output folder: links through `current`, so paths mirror URLs. */
const TOP_LINKS = ['api', 'data', 'manifest.json'] as const;

/**
 * Refuses an output folder whose `api`, `data` or `manifest.json` publish did not make, before
 * any work: the switch replaces them with links, and `--out .` beside a project's own `data/`
 * (the panel itself, often) would delete it. They are publish's when they are links, or when the
 * folder is a publication made by hand (a storelens manifest at its top, served as it is).
 */
export async function checkOutputFolder(outDir: string): Promise<void> {
  const foreign: string[] = [];
  for (const name of TOP_LINKS) {
    const st = await lstat(path.join(outDir, name)).catch(() => null);
    if (st !== null && !st.isSymbolicLink()) foreign.push(name);
  }
  if (foreign.length === 0 || (await isHandMadePublication(outDir))) return;
  const what = foreign.map((name) => path.join(outDir, name)).join(', ');
  throw new CliError(
    `--out ${outDir} already holds ${what}, which publish did not write: publish puts links named ${TOP_LINKS.join(', ')} at the top of the output folder (replacing what is there), so give it a folder of its own`,
  );
}

/** True when `outDir/manifest.json` is a plain file holding a publication manifest. */
async function isHandMadePublication(outDir: string): Promise<boolean> {
  const file = path.join(outDir, 'manifest.json');
  const st = await lstat(file).catch(() => null);
  if (st === null || !st.isFile()) return false;
  try {
    const m = JSON.parse(await readFile(file, 'utf8')) as Partial<Manifest> | null;
    return m !== null && m.manifest_version === 1 && typeof m.files === 'object' && m.files !== null;
  } catch {
    return false;
  }
}

/** `output/api`, `output/data`, `output/manifest.json` point through `current`, so paths mirror URLs. */
async function ensureTopLinks(outDir: string): Promise<void> {
  for (const name of TOP_LINKS) {
    const at = path.join(outDir, name);
    const st = await lstat(at).catch(() => null);
    if (st?.isSymbolicLink()) continue;
    if (st) await rm(at, { recursive: true, force: true }); // a plain folder from a hand-made tree
    await symlink(path.join(RELEASES_DIR, CURRENT_LINK, name), at);
  }
}

async function removeLeftovers(releases: string): Promise<void> {
  for (const name of await readdir(releases)) {
    if (name.endsWith('.tmp')) await rm(path.join(releases, name), { recursive: true, force: true });
  }
}

/**
 * Removes the release folders the live list does not name: one renamed by a run killed before
 * its switch (never live), or one an earlier version of publish kept besides the live release.
 */
async function collectGarbage(releases: string, listed: ReadonlySet<string>): Promise<void> {
  for (const name of await readdir(releases)) {
    if (isReleaseId(name) && !listed.has(name)) await rm(path.join(releases, name), { recursive: true, force: true });
  }
}
