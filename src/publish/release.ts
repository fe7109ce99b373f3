/**
 * Where the live publication is. A publication is a folder `output/.releases/<id>/` holding
 * `manifest.json` and every artifact; `output/.releases/current` is a symlink to the live one,
 * switched with a single rename. A plain folder with `manifest.json` at its top also works
 * (tests, hand-made trees).
 */
import { randomBytes } from 'node:crypto';
import { link, lstat, mkdir, readdir, realpath, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';

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

/** A file of a new publication: fresh bytes, or a hard link to the same file of the live one. */
export type ReleaseFile = { path: string; bytes: Buffer | string } | { path: string; linkFrom: string };

/** Publications kept besides the live one (a reader that resolved an older one can finish). */
const KEEP_PREVIOUS = 2;

/**
 * Writes a complete publication into a staging folder, then makes it live with one atomic
 * rename of the `current` symlink. Killed at any instant, the previous publication stays whole.
 */
export async function writeRelease(outDir: string, files: ReleaseFile[], completedAt: string): Promise<string> {
  const releases = path.join(outDir, RELEASES_DIR);
  await mkdir(releases, { recursive: true });
  await removeLeftovers(releases);
  const id = `${completedAt.replace(/[-:.]/g, '')}-${randomBytes(3).toString('hex')}`;
  const staging = path.join(releases, `${id}.tmp`);
  const made = new Set<string>();
  for (const f of files) {
    const target = path.join(staging, f.path);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      await mkdir(dir, { recursive: true });
      made.add(dir);
    }
    if ('linkFrom' in f) await link(f.linkFrom, target);
    else await writeFile(target, f.bytes);
  }
  await rename(staging, path.join(releases, id));
  const tmpLink = path.join(releases, `${CURRENT_LINK}.${id}.tmp`);
  await symlink(id, tmpLink);
  await rename(tmpLink, path.join(releases, CURRENT_LINK));
  await ensureTopLinks(outDir);
  await collectGarbage(releases, id);
  return id;
}

/** `output/api`, `output/data`, `output/manifest.json` point through `current`, so paths mirror URLs. */
async function ensureTopLinks(outDir: string): Promise<void> {
  for (const name of ['api', 'data', 'manifest.json']) {
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

async function collectGarbage(releases: string, live: string): Promise<void> {
  const ids = (await readdir(releases)).filter((n) => n !== CURRENT_LINK && !n.endsWith('.tmp') && n !== live).sort();
  for (const old of ids.slice(0, Math.max(0, ids.length - KEEP_PREVIOUS))) {
    await rm(path.join(releases, old), { recursive: true, force: true });
  }
}
