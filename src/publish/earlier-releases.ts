/**
 * What the earlier releases published, month by month, read from the release folders the
 * output folder keeps (release.ts): the audit of a correction takes it as published too
 * (stats/releases.ts). A file shared by several releases (one inode) is read once.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { manifestKey, SLUGS } from '../core/public-paths.js';
import { addRelease, noEarlierReleases, type EarlierReleases } from '../stats/releases.js';
import type { StatsDocument } from '../stats/types.js';
import { readReleaseIndex } from './release-index.js';
import { RELEASES_DIR, resolveCurrentRelease } from './release.js';

/** month → what the releases of `outDir` published of it (months no release published are absent). */
export async function readEarlierReleases(outDir: string, months: Iterable<string>): Promise<Map<string, EarlierReleases>> {
  const out = new Map<string, EarlierReleases>();
  const live = await resolveCurrentRelease(outDir);
  if (!live) return out;
  const index = await readReleaseIndex(live);
  // A folder published before lists were kept (or made by hand) is its only release.
  const releases = index ? index.releases.map((r) => ({ id: r.id, dir: path.join(outDir, RELEASES_DIR, r.id) })) : [{ id: path.basename(live), dir: live }];
  const seen = new Set<string>();
  for (const month of months) {
    for (const r of releases) {
      for (const slug of SLUGS) {
        const file = path.join(r.dir, manifestKey({ kind: 'month-json', slug, month }));
        const st = await stat(file).catch((e: NodeJS.ErrnoException) => {
          if (e.code === 'ENOENT') return null;
          throw e;
        });
        if (!st) continue;
        const e = out.get(month) ?? noEarlierReleases();
        out.set(month, e);
        const inode = `${st.dev}:${st.ino}`;
        const fresh = !seen.has(inode);
        seen.add(inode);
        addRelease(e, r.id, fresh ? (JSON.parse(await readFile(file, 'utf8')) as StatsDocument).stats : []);
      }
    }
  }
  return out;
}
