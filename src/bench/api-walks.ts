/**
 * GET /accounts as users walk it, for the api benchmark (api.ts): a sequence of walks, each a
 * list's first page and then the pages its `next_cursor` links lead to, over a mix of filters and
 * page sizes, some far more popular than others (a few lists are read by most callers, many by
 * few). The load generator asks for the sequence's request targets in turn (api-load.ts), and
 * the bare node:http server answers each target with the very bytes the API answered it
 * (api-profile.ts bareServer), captured while the walks were made.
 *
 * The sequence is made once per measurement, from a fixed seed: the same on every run. Every page
 * is read once while walking (which delivers its rows: the load then writes nothing), so the
 * load's answers are all 200 and what it measures is reading pages. How many of its requests the
 * executor's read cache can answer is estimated by replaying the sequence against a cache of
 * the same kind and size (`cacheable`).
 */
import { LRUCache } from 'lru-cache';
import { gunzipSync } from 'node:zlib';
import { READ_CACHE_BYTES, readCacheWeight } from '../api/executor.js';
import { type CapturedPage, capturePage } from './api-profile.js';
import { seededRandom } from '../core/random.js';

/** Filters of the walks, most popular first. `signal_type` pages are never cached (an ingest changes them). */
const FILTERS = [
  '',
  'filter=all',
  'country=US',
  'category=apparel',
  'min_score=0.5',
  'country=DE',
  'plan=grow',
  'filter=all&country=GB',
  'category=home',
  'country=FR',
  'signal_type=ad_channel_started',
  'filter=all&min_score=0.8',
  'category=beauty&country=US',
  'filter=all&category=beauty',
] as const;
/** Page sizes, most popular first (the default, 50, is sent as `limit=50`). */
const LIMITS = [50, 20, 100, 10] as const;
/** Requests of each workspace's sequence (the load generator goes round them). */
const SEQUENCE = 4_000;
/** A walk goes on to the next page with this probability (users rarely read far). */
const GO_ON = 0.6;
/** Pages a walk reads at most. */
const MAX_DEPTH = 8;

export interface Walks {
  /** Request targets (path and query) in the order the load asks for them. */
  paths: string[];
  /** The workspace (its index) each target is asked of: the load sends one of that workspace's keys. */
  groups: number[];
  /** The answer to each target of each workspace (`answerKey`), as the API gave it (gzip accepted). */
  pages: Map<string, CapturedPage>;
  /** Walks and distinct pages (over every workspace) in the sequence. */
  walks: number;
  distinct: number;
  workspaces: number;
  /** Share of the sequence's requests a read cache of the executor's size could answer (gone round twice). */
  cacheable: number;
  /** Share of the sequence's requests for pages that are never cached (signal filters). */
  uncached: number;
  /** Mean bytes of an answer over the sequence. */
  meanBytes: number;
}

/** A workspace id as long as the executor's cache keys carry. */
const WORKSPACE_ID = `ws_${'0'.repeat(20)}`;

/** Where Walks.pages keeps the answer to `target` in workspace `group`. */
export const answerKey = (group: number, target: string): string => `${group} ${target}`;

const LISTS = LIMITS.flatMap((limit) => FILTERS.map((filter) => (filter ? `${filter}&limit=${limit}` : `limit=${limit}`)));

/** One workspace's walks (list index and depth), SEQUENCE requests in all, its lists chosen with Zipf weights. */
function plannedWalks(seed: number): { list: number; depth: number }[] {
  // The list of rank r is chosen in proportion to 1 / (r + 1); each workspace ranks them its own way.
  const rnd = seededRandom(seed);
  const order = LISTS.map((_, i) => i);
  for (let i = order.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [order[i], order[j]] = [order[j]!, order[i]!];
  }
  // The first lists stay the most read everywhere: the default list, and the default list of all accounts.
  order.sort((a, b) => (a < 2 ? a : 2) - (b < 2 ? b : 2));
  const weights = order.map((_, r) => 1 / (r + 1));
  const total = weights.reduce((s, w) => s + w, 0);
  const pick = () => {
    let x = rnd() * total;
    for (let r = 0; r < order.length; r++) if ((x -= weights[r]!) < 0) return order[r]!;
    return order[order.length - 1]!;
  };
  const planned: { list: number; depth: number }[] = [];
  for (let n = 0; n < SEQUENCE; ) {
    let depth = 1;
    while (depth < MAX_DEPTH && rnd() < GO_ON) depth++;
    planned.push({ list: pick(), depth });
    n += depth;
  }
  return planned;
}

/**
 * Makes the walks against the API at `base` (`http://host:port`), over workspaces each given by
 * read keys of its own (used in turn for the walks' own reads: walkKeysNeeded of them). The
 * sequence takes each workspace's walks in turn, a page at a time.
 */
export async function userWalks(base: string, workspaceKeys: readonly (readonly string[])[]): Promise<Walks> {
  const pages = new Map<string, CapturedPage>();
  const sequences: string[][] = [];
  let walks = 0;
  for (const [g, keys] of workspaceKeys.entries()) {
    const planned = plannedWalks(37 + g);
    walks += planned.length;
    // Each list walked as deep as any walk of the sequence goes (its pages' targets, in order).
    const deepest = new Map<number, number>();
    for (const w of planned) deepest.set(w.list, Math.max(deepest.get(w.list) ?? 0, w.depth));
    const targets = new Map<number, string[]>();
    let used = 0;
    for (const [list, depth] of deepest) {
      const walk: string[] = [];
      let target: string | undefined = `/api/v1/accounts?${LISTS[list]!}`;
      while (target !== undefined && walk.length < depth) {
        const page = await capturePage(new URL(target, base).toString(), keys[used++ % keys.length]!);
        if (page.status !== 200) throw new Error(`bench: api: GET ${target} answered ${page.status}`);
        pages.set(answerKey(g, target), page);
        walk.push(target);
        const text = page.headers['content-encoding'] === 'gzip' ? gunzipSync(page.body).toString('utf8') : page.body.toString('utf8');
        const next = (JSON.parse(text) as { next_cursor: string | null }).next_cursor;
        target = next === null ? undefined : `/api/v1/accounts?${LISTS[list]!}&cursor=${encodeURIComponent(next)}`;
      }
      targets.set(list, walk);
    }
    sequences.push(planned.flatMap((w) => targets.get(w.list)!.slice(0, w.depth)));
  }
  // The workspaces' sequences interleaved, a request of each in turn.
  const paths: string[] = [];
  const groups: number[] = [];
  const length = Math.min(...sequences.map((s) => s.length));
  for (let k = 0; k < length; k++) {
    for (const [g, s] of sequences.entries()) {
      paths.push(s[k]!);
      groups.push(g);
    }
  }
  // The executor's cache (by workspace and target, each page weighing its gzipped bytes), replayed:
  // the sequence twice, the second time counted. Its keys name the operation and the workspace's id.
  const cache = new LRUCache<string, true>({ maxSize: READ_CACHE_BYTES, sizeCalculation: (_, key) => readCacheWeight(`list_accounts ${WORKSPACE_ID} ${key}`, pages.get(key)!.body.length) });
  let hits = 0;
  let uncached = 0;
  for (let round = 0; round < 2; round++) {
    paths.forEach((p, i) => {
      if (p.includes('signal_type=')) {
        if (round) uncached++;
        return;
      }
      const key = answerKey(groups[i]!, p);
      if (cache.get(key) && round) hits++;
      cache.set(key, true);
    });
  }
  const meanBytes = paths.reduce((s, p, i) => s + pages.get(answerKey(groups[i]!, p))!.body.length, 0) / paths.length;
  return { paths, groups, pages, walks, distinct: pages.size, workspaces: workspaceKeys.length, cacheable: hits / paths.length, uncached: uncached / paths.length, meanBytes };
}

/** Read keys a workspace needs for the walks' own reads (at most MAX_DEPTH pages of every list, `uses` each key). */
export const walkKeysNeeded = (uses: number): number => Math.ceil((MAX_DEPTH * LISTS.length) / uses) + 1;
