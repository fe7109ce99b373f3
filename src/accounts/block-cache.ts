/**
 * Decoded blocks of ranking versions kept per process (accounts/ranking-reads.ts pageRanking
 * reads through it): a page then skips reading and decoding the blocks it walks when they were
 * read before. A block row never changes once written (a version's rows are written once, in
 * whole blocks, and only ever deleted), so an entry is never stale; the reader still reads the
 * version's own row on every page, and only takes cached blocks of a version that is current or
 * superseded (not one being written or deleted), so a deleted version answers as before.
 *
 * Entries are per database (two databases of one process may hold the same workspace id and
 * version number), and carry the version's created_at, so a version number that ever came back
 * with other rows (a database restored under a running process) would not match them.
 */
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { DecodedBlock } from './blocks.js';

/** Most blocks kept (one of 256 rows is about 20 kB decoded: some 20 MB at most). */
export const CACHED_BLOCKS = 1024;

/** A database (the adapter its executor, transactions and held connections share) → its number here. */
const databases = new WeakMap<object, number>();
let nextDatabase = 1;

/** The kept blocks, least recently used out first. */
const entries = new LRUCache<string, { createdAt: string; block: DecodedBlock }>({ max: CACHED_BLOCKS });

/** The key of block `block` of a version in the database `q` belongs to. */
export function blockKey(q: Kysely<any>, workspaceId: string, version: number, block: number): string {
  const adapter = q.getExecutor().adapter;
  let id = databases.get(adapter);
  if (id === undefined) databases.set(adapter, (id = nextDatabase++));
  return `${id} ${workspaceId} ${version} ${block}`;
}

/** The block kept under `key` for the version written at `createdAt`, if any. */
export function cachedBlock(key: string, createdAt: string): DecodedBlock | undefined {
  const e = entries.get(key);
  return e === undefined || e.createdAt !== createdAt ? undefined : e.block;
}

/** Keeps `block` under `key`, the least recently used out past CACHED_BLOCKS. */
export function keepBlock(key: string, createdAt: string, block: DecodedBlock): void {
  entries.set(key, { createdAt, block });
}
