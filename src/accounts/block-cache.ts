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

/** A version's head as a page reads it: its details generation, when it was written, its rows. */
export interface VersionHead {
  gen: number;
  createdAt: string;
  rows: number;
}

/** Heads of the versions whose blocks are kept (current or superseded when read), least recently used out first. */
const heads = new LRUCache<string, VersionHead>({ max: CACHED_BLOCKS });

/** The key of a version in the database `q` belongs to. */
export function versionKey(q: Kysely<any>, workspaceId: string, version: number): string {
  const adapter = q.getExecutor().adapter;
  let id = databases.get(adapter);
  if (id === undefined) databases.set(adapter, (id = nextDatabase++));
  return `${id} ${workspaceId} ${version}`;
}

/** The key of block `block` of a version (`versionKey`). */
export const blockKey = (version: string, block: number): string => `${version} ${block}`;

/**
 * The head of a version last read current or superseded, if any. Its state may have moved since:
 * a reader checks it in the statement that reads the page's details (accounts/ranking-reads.ts).
 */
export const cachedHead = (version: string): VersionHead | undefined => heads.get(version);

/** Keeps the head of a version read current or superseded (forget: one found otherwise). */
export const keepHead = (version: string, head: VersionHead): void => void heads.set(version, head);
export const forgetHead = (version: string): void => void heads.delete(version);

/** The block kept under `key` for the version written at `createdAt`, if any. */
export function cachedBlock(key: string, createdAt: string): DecodedBlock | undefined {
  const e = entries.get(key);
  return e === undefined || e.createdAt !== createdAt ? undefined : e.block;
}

/** Keeps `block` under `key`, the least recently used out past CACHED_BLOCKS. */
export function keepBlock(key: string, createdAt: string, block: DecodedBlock): void {
  entries.set(key, { createdAt, block });
}
