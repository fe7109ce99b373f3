/**
 * Content hashes of panel files, remembered by file identity (device, inode, size, mtime and
 * ctime, to the nanosecond): a file whose identity is unchanged is not read again. Run ids
 * still come from content hashes; the cache only saves re-reading bytes it has hashed. It lives
 * in the output folder's private `.cache/` (never served), written only by a run holding the
 * output's lock, with a new release (a run that changes nothing touches nothing); a damaged or
 * foreign cache is ignored and rewritten.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { PanelFile } from '../panel/read.js';
import { hashFile } from '../core/hash-file.js';

export const CACHE_DIR = '.cache';

/** A temporary name beside `file` (written, then renamed onto it). */
export const tmpBeside = (file: string): string => `${file}.${randomBytes(6).toString('hex')}.tmp`;

/** Removes every entry of a cache folder but those whose key (the name up to its first dot) is in `keep`, and every temporary file. */
export async function pruneCacheFolder(dir: string, keep: ReadonlySet<string>): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    if (name.endsWith('.tmp') || !keep.has(name.slice(0, name.indexOf('.')))) await rm(path.join(dir, name), { force: true });
  }
}
const FILE = 'panel-hashes.json';
const VERSION = 1;

interface Entry {
  /** `${dev}:${ino}:${size}:${mtimeNs}:${ctimeNs}` */
  identity: string;
  sha256: string;
}

export interface HashCache {
  version: number;
  /** absolute path of a panel file → its identity and content hash */
  files: Record<string, Entry>;
  /** the contact source beside the panel: its identity and the contacts id it checked to (contacts/source.ts) */
  contacts?: { file: string; identity: string; id: string };
}

/**
 * A file changed within this long of its last change may change again with the same times on
 * a file system with coarse timestamps: its hash is used but not remembered (git's "racily
 * clean" rule).
 */
const SETTLED_NS = 2_000_000_000n;

/** The clock a file's change time is compared with, in milliseconds (tests pass one ahead of the file system's). */
export type FileClock = () => number;

export async function identityOf(file: string, now: FileClock = Date.now): Promise<{ identity: string; settled: boolean }> {
  const s = await stat(file, { bigint: true });
  const changed = s.mtimeNs > s.ctimeNs ? s.mtimeNs : s.ctimeNs;
  return { identity: `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`, settled: BigInt(now()) * 1_000_000n - changed > SETTLED_NS };
}

export async function readHashCache(outDir: string): Promise<HashCache> {
  try {
    const parsed = JSON.parse(await readFile(path.join(outDir, CACHE_DIR, FILE), 'utf8')) as HashCache;
    if (parsed?.version === VERSION && typeof parsed.files === 'object' && parsed.files !== null) return parsed;
  } catch {
    // absent or damaged: start afresh
  }
  return { version: VERSION, files: {} };
}

/**
 * month → sha256 of each panel file, re-hashing only files whose identity changed since the
 * cache was written; also the cache to keep (these files only).
 */
export async function hashPanelCached(files: readonly PanelFile[], cache: HashCache, now: FileClock = Date.now): Promise<{ hashes: Map<string, string>; cache: HashCache }> {
  const hashes = new Map<string, string>();
  const next: HashCache = { version: VERSION, files: {} };
  for (const f of files) {
    const key = path.resolve(f.file);
    const before = await identityOf(key, now);
    const known = cache.files[key];
    if (known?.identity === before.identity) {
      hashes.set(f.month, known.sha256);
      next.files[key] = known;
      continue;
    }
    const sha256 = await hashFile(key);
    hashes.set(f.month, sha256);
    // A file written while it was hashed, or too recently, is hashed again next time.
    const after = await identityOf(key, now);
    if (after.identity === before.identity && after.settled) next.files[key] = { identity: before.identity, sha256 };
  }
  return { hashes, cache: next };
}

/**
 * The contacts id of a contact file already checked, when its identity is the one remembered;
 * else undefined (read and check it).
 */
export async function rememberedContacts(cache: HashCache, file: string): Promise<string | undefined> {
  const known = cache.contacts;
  if (!known || known.file !== path.resolve(file)) return undefined;
  const now = await identityOf(file).catch(() => undefined);
  return now?.identity === known.identity ? known.id : undefined;
}

/** Writes the cache (atomically) unless it is what was read. */
export async function writeHashCache(outDir: string, cache: HashCache, read: HashCache): Promise<void> {
  if (JSON.stringify(cache) === JSON.stringify(read)) return;
  const dir = path.join(outDir, CACHE_DIR);
  await mkdir(dir, { recursive: true });
  const tmp = path.join(dir, `${FILE}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`);
  await writeFile(tmp, JSON.stringify(cache) + '\n');
  await rename(tmp, path.join(dir, FILE));
}
