/**
 * What the earlier releases published, month by month: the audit of a correction takes it as
 * published too (stats/releases.ts). Each release keeps it in its state (for every month, what
 * every release up to it published), so a correction reads the live release alone; a publication
 * whose live state does not keep it (published before it was kept) is read release by release,
 * once, from the release folders the output folder keeps (release.ts).
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import { manifestKey, SLUGS } from '../core/public-paths.js';
import { addRelease, loadEarlier, noEarlierReleases, saveEarlier, withRelease, type EarlierReleases, type SavedEarlier } from '../stats/releases.js';
import type { Stat, StatsDocument } from '../stats/types.js';
import { publishedMonths, type Publication } from './publication.js';
import { readReleaseIndex } from './release-index.js';
import { RELEASES_DIR, resolveCurrentRelease } from './release.js';

const monthJson = (slug: (typeof SLUGS)[number], month: string) => manifestKey({ kind: 'month-json', slug, month });

/**
 * month → what the releases of `old` published of it, for `months` (months no release published
 * are absent). From the live release's state when it keeps them; otherwise every published month
 * is read from every release, so that the release this run makes can keep them all.
 */
export async function publishedBefore(outDir: string, old: Publication | null, months: Iterable<string>): Promise<Map<string, EarlierReleases>> {
  const out = new Map<string, EarlierReleases>();
  if (old === null) return out;
  const kept = old.state.earlier;
  const published = publishedMonths(old.state);
  const wanted = [...months].filter((m) => published.includes(m));
  if (kept === undefined || wanted.some((m) => kept[m] === undefined)) return readEarlierReleases(outDir, published);
  for (const m of wanted) {
    const own: Stat[] = [];
    for (const slug of SLUGS) {
      if (old.state.runs[slug]?.[m] === undefined) continue;
      own.push(...(JSON.parse((await old.read(monthJson(slug, m))).toString('utf8')) as StatsDocument).stats);
    }
    out.set(m, loadEarlier(kept[m], own));
  }
  return out;
}

/**
 * What the release `release` keeps of every month it publishes (`own`, month → its stats there):
 * `read` (publishedBefore's, for the months it read), or for a month not read (its documents
 * unchanged) what the live state kept, with this release added. Undefined when the live state
 * kept nothing and a published month was not read: the next correction reads every release.
 */
export function keptEarlier(
  own: ReadonlyMap<string, readonly Stat[]>,
  release: string,
  published: readonly string[],
  read: ReadonlyMap<string, EarlierReleases>,
  saved: Readonly<Record<string, SavedEarlier>> | undefined,
): Record<string, SavedEarlier> | undefined {
  const out: Record<string, SavedEarlier> = {};
  for (const [m, stats] of [...own].sort(([a], [b]) => (a < b ? -1 : 1))) {
    const before = read.get(m) ?? (!published.includes(m) ? noEarlierReleases() : saved?.[m] && loadEarlier(saved[m], stats));
    if (before === undefined) return undefined;
    out[m] = saveEarlier(withRelease(before, release, stats), stats);
  }
  return out;
}

/** month → what the releases of `outDir` published of it, each release's files read (months no release published are absent). */
export async function readEarlierReleases(outDir: string, months: Iterable<string>): Promise<Map<string, EarlierReleases>> {
  const out = new Map<string, EarlierReleases>();
  const live = await resolveCurrentRelease(outDir);
  if (!live) return out;
  const index = await readReleaseIndex(live);
  // A folder published before lists were kept (or made by hand) is its only release.
  const releases = index ? index.releases.map((r) => ({ id: r.id, dir: path.join(outDir, RELEASES_DIR, r.id) })) : [{ id: path.basename(live), dir: live }];
  // A file shared by several releases (one inode) is read once.
  const seen = new Set<string>();
  for (const month of months) {
    for (const r of releases) {
      for (const slug of SLUGS) {
        const file = path.join(r.dir, monthJson(slug, month));
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
