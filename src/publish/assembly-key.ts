/**
 * What every published artifact is a function of, as one hash: the documents' run ids, the
 * feed, base_url, the cards mode, and the code that assembles and renders them (this program's
 * modules and the versions of the rendering libraries). A publish whose key equals the one the
 * live publication was written with would assemble the same bytes: it stops there (a no-op in a
 * fraction of a second). Any doubt (another program version, another mode) takes the long way,
 * which compares every artifact.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FeedItem } from '../render/page.js';
import type { CardsMode } from './artifacts.js';
import type { PublicationState } from './publication.js';

/** Libraries whose output ends up in published bytes. */
const RENDERING_LIBRARIES = ['satori', '@resvg/resvg-js', '@fontsource/inter', 'feed', 'csv-stringify'];

let codeHash: Promise<string> | undefined;

/** sha256 of every module of this program (src/ or dist/, wherever this one runs from) and the libraries' versions. */
export function programHash(): Promise<string> {
  codeHash ??= (async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const hash = createHash('sha256');
    const entries = await readdir(root, { recursive: true, withFileTypes: true });
    const files = entries
      .filter((e) => e.isFile() && /\.(js|ts)$/.test(e.name))
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .sort();
    for (const file of files) hash.update(`${file}\n`).update(await readFile(path.join(root, file))).update('\n');
    const require = createRequire(import.meta.url);
    for (const name of RENDERING_LIBRARIES) hash.update(`${name}@${libraryVersion(require, name)}\n`);
    return hash.digest('hex');
  })();
  return codeHash;
}

let duckdbVersion: string | undefined;

/**
 * The key of something kept for a month between runs (its aggregates, its store state): sha256
 * of the entry's format version, this program, DuckDB's version, the month and the hashes of the
 * panel files it was made from.
 */
export async function monthCacheKey(version: number, month: string, panel: unknown): Promise<string> {
  duckdbVersion ??= libraryVersion(createRequire(import.meta.url), '@duckdb/node-api');
  const input = { version, program: await programHash(), duckdb: duckdbVersion, month, panel };
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/** The version of an installed library, as its package.json says ('unknown' when not found). */
export function libraryVersion(require: NodeJS.Require, name: string): string {
  try {
    let dir = path.dirname(require.resolve(name));
    for (;;) {
      try {
        const pkg = JSON.parse(readFileSync(path.join(dir, 'package.json'), 'utf8')) as { name?: string; version?: string };
        if (pkg.name === name) return pkg.version ?? 'unknown';
      } catch {
        // no package.json here: look further up
      }
      const parent = path.dirname(dir);
      if (parent === dir) return 'unknown';
      dir = parent;
    }
  } catch {
    return 'unknown';
  }
}

export async function assemblyKey(o: { runs: PublicationState['runs']; feed: readonly FeedItem[]; baseUrl: string; cards: CardsMode }): Promise<string> {
  const runs = Object.entries(o.runs)
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([slug, months]) => [slug, Object.entries(months ?? {}).sort(([a], [b]) => (a < b ? -1 : 1))]);
  const input = JSON.stringify({ program: await programHash(), runs, feed: o.feed, base_url: o.baseUrl, cards: o.cards });
  return createHash('sha256').update(input).digest('hex');
}
