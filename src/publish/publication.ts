/** The live publication as publish sees it: manifest, state and the bytes of its files. */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { manifestKey } from '../core/public-paths.js';
import type { FeedItem } from '../render/page.js';
import type { ExtraSuppression } from '../stats/build.js';
import type { SavedEarlier } from '../stats/releases.js';
import type { CellValues } from '../stats/universe.js';
import { SLUGS, type Slug, type StatsDocument } from '../stats/types.js';
import type { Manifest } from './manifest.js';
import { resolveCurrentRelease } from './release.js';

/** Bookkeeping kept beside the manifest (not served): run ids and the feed's items. */
export interface PublicationState {
  state_version: 1;
  /** slug → month → run id of the published document */
  runs: Partial<Record<Slug, Record<string, string>>>;
  feed: FeedItem[];
  /** month → what the disclosure audit suppressed beyond the rules (absent: nothing) */
  suppression?: Record<string, SavedSuppression>;
  /** month → fingerprint of the panel file it was published from (panel/fingerprint.ts) */
  fingerprints?: Record<string, string>;
  /** month → the breakdown values holding stores in it as published: their union is listed in every month */
  cells?: Record<string, CellValues>;
  /**
   * month → what every release up to this one published of it (stats/releases.ts saveEarlier),
   * for the audit of a correction; absent in states written before it was kept (then every
   * release is read once, earlier-releases.ts)
   */
  earlier?: Record<string, SavedEarlier>;
  /** the assembly key (assembly-key.ts) the publication was written with */
  assembly?: string;
}

export interface SavedSuppression {
  cells: string[];
  stats: string[];
  cohorts: string[];
  /** absent when empty (and in states written before deltas were carried across releases) */
  deltas?: string[];
}

export const saveSuppression = (x: ExtraSuppression): SavedSuppression => ({
  cells: [...x.cells].sort(), stats: [...x.stats].sort(), cohorts: [...x.cohorts].sort(), ...(x.deltas.size ? { deltas: [...x.deltas].sort() } : {}),
});
export const loadSuppression = (x: SavedSuppression): ExtraSuppression => ({ cells: new Set(x.cells), stats: new Set(x.stats), cohorts: new Set(x.cohorts), deltas: new Set(x.deltas ?? []) });

export interface Publication {
  dir: string;
  manifest: Manifest;
  state: PublicationState;
  file(p: string): string;
  read(p: string): Promise<Buffer>;
}

export const STATE_FILE = 'state.json';
export const MANIFEST_FILE = 'manifest.json';

export async function readPublication(outDir: string): Promise<Publication | null> {
  const dir = await resolveCurrentRelease(outDir);
  if (!dir) return null;
  const manifest = JSON.parse(await readFile(path.join(dir, MANIFEST_FILE), 'utf8')) as Manifest;
  const state = JSON.parse(await readFile(path.join(dir, STATE_FILE), 'utf8').catch(() => '{"state_version":1,"runs":{},"feed":[]}')) as PublicationState;
  const file = (p: string) => path.join(dir, p);
  return { dir, manifest, state, file, read: (p) => readFile(file(p)) };
}

/**
 * The base URL the publication was made with, as its documents give it (a canonical URL is
 * `{base_url}/data/{slug}#{anchor}`), or null when it publishes no document.
 */
export async function publishedBaseUrl(p: Publication | null): Promise<string | null> {
  for (const slug of p ? SLUGS : []) {
    const key = manifestKey({ kind: 'latest-json', slug });
    if (!(key in p!.manifest.files)) continue;
    const doc = JSON.parse((await p!.read(key)).toString('utf8')) as StatsDocument;
    const url = doc.stats[0]?.canonical_url;
    const at = url?.lastIndexOf(`/data/${slug}#`) ?? -1;
    if (at >= 0) return url!.slice(0, at);
  }
  return null;
}

/** Every month with a published document, ascending. */
export function publishedMonths(state: PublicationState | undefined): string[] {
  const months = new Set<string>();
  for (const runs of Object.values(state?.runs ?? {})) for (const m of Object.keys(runs ?? {})) months.add(m);
  return [...months].sort();
}
