/**
 * The record of every release: each release folder holds `releases.json`, the list of every
 * release switched in up to and including itself (oldest first). It is written in the staging
 * folder with the rest of the release, so the rename of `current` that makes a release live makes
 * its list live too: killed at any instant, the live list names exactly the releases that were
 * ever live, each a whole folder (a release folder renamed but never switched in is in no list,
 * and the next publish removes it). `serve` answers `/releases.json` from the live list.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';

export const RELEASE_INDEX_FILE = 'releases.json';

/** One release: when it was switched in and what it did. */
export interface ReleaseRecord {
  id: string;
  /** ISO 8601 completion time of the publish run */
  completed_at: string;
  /** months published for the first time */
  months_added: string[];
  /** months already published whose figures changed */
  months_corrected: string[];
  /** methodology versions of the figures this release publishes */
  methodology_versions: string[];
  /** versions new in this release or gone from it, against the release before */
  methodology_changes: string[];
  /** the RSS items this release added */
  feed_items: Array<{ guid: string; link: string }>;
  /** absolute URL of this release's change list (`/releases/{id}/api/data/changes`); absent for releases published before change lists */
  changes?: string;
  /** true for a release published before releases were recorded: what it did is not known */
  unrecorded?: true;
}

export interface ReleaseIndex {
  index_version: 1;
  /** oldest first */
  releases: ReleaseRecord[];
}

/** The list kept in a release folder, or null when the folder has none (published before lists were kept). */
export async function readReleaseIndex(dir: string): Promise<ReleaseIndex | null> {
  const text = await readFile(path.join(dir, RELEASE_INDEX_FILE), 'utf8').catch((e: NodeJS.ErrnoException) => {
    if (e.code === 'ENOENT') return null;
    throw e;
  });
  return text === null ? null : (JSON.parse(text) as ReleaseIndex);
}

/** What a publish run did, from which the record of its release is made. */
export type ReleaseDoing = Omit<ReleaseRecord, 'id' | 'completed_at' | 'methodology_changes' | 'unrecorded'>;

/** The list after `id` is switched in: `previous` (the live release's list) and the new record. */
export function nextReleaseIndex(previous: ReleaseIndex | null, live: { id: string; completedAt: string } | null, id: string, completedAt: string, doing: ReleaseDoing): ReleaseIndex {
  const releases = previous ? [...previous.releases] : [];
  // The live release of an output folder published before lists were kept starts the list.
  if (!previous && live) {
    releases.push({ id: live.id, completed_at: live.completedAt, months_added: [], months_corrected: [], methodology_versions: [], methodology_changes: [], feed_items: [], unrecorded: true });
  }
  const before = releases[releases.length - 1];
  const was = new Set(before && !before.unrecorded ? before.methodology_versions : doing.methodology_versions);
  const now = new Set(doing.methodology_versions);
  const methodology_changes = [...new Set([...now, ...was])].filter((v) => now.has(v) !== was.has(v)).sort();
  releases.push({
    id, completed_at: completedAt, months_added: doing.months_added, months_corrected: doing.months_corrected,
    methodology_versions: doing.methodology_versions, methodology_changes, feed_items: doing.feed_items,
    ...(doing.changes ? { changes: doing.changes } : {}),
  });
  return { index_version: 1, releases };
}
