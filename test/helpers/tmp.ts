/**
 * Temporary folders for tests (each test its own, removed afterwards) and snapshots of a
 * folder tree, to prove that a run left an output folder exactly as it was.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createHash } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { lstat, mkdtemp, readdir, readFile, readlink, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll } from 'vitest';

/**
 * An empty read-only file system (a CI job's `:ro` mount), mounted at a new folder for the file's
 * tests and unmounted after them; mounting needs root, so `mounted` is false elsewhere (skip).
 */
export function readOnlyMount(): { dir: string; mounted: boolean } {
  const dir = mkdtempSync(path.join(tmpdir(), 'storelens-read-only-'));
  let mounted = false;
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=1m,ro', 'tmpfs', dir], { stdio: 'ignore' });
    mounted = true;
  } catch {
    mounted = false;
  }
  afterAll(() => {
    if (mounted) execFileSync('umount', [dir], { stdio: 'ignore' });
    rmSync(dir, { recursive: true, force: true });
  });
  return { dir, mounted };
}

/**
 * A temp folder made now, while the suite (the file, or the describe block it is called in) is
 * collected, and removed after that suite's tests.
 */
export function suiteTempDir(prefix = 'storelens-test-'): string {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** Temp folders made through `make`; `removeAll` (for afterEach/afterAll) deletes them. */
export function tempDirs(prefix = 'storelens-test-') {
  const made: string[] = [];
  return {
    async make(): Promise<string> {
      const dir = await mkdtemp(path.join(tmpdir(), prefix));
      made.push(dir);
      return dir;
    },
    async removeAll(): Promise<void> {
      await Promise.all(made.splice(0).map((d) => rm(d, { recursive: true, force: true })));
    },
  };
}

/** One entry of a tree snapshot: what a file holds, where a link points, that a folder exists. */
export type TreeEntry =
  | { kind: 'file'; sha256: string; bytes: number; ino: number; mtimeMs: number }
  | { kind: 'link'; target: string }
  | { kind: 'dir' };

/** The sha256 of a file, read once per state of the file within one snapshot (a release's hard links to its blobs share one). */
async function sha256Of(file: string, st: BigIntStats, seen: Map<string, string>): Promise<string> {
  const key = `${st.dev}:${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  let sha = seen.get(key);
  if (sha === undefined) {
    sha = createHash('sha256').update(await readFile(file)).digest('hex');
    seen.set(key, sha);
  }
  return sha;
}

/**
 * Every path under `root` (symbolic links not followed) → its entry. Missing root ⇒ null.
 * Folder mtimes are left out: taking and releasing the publish lock touches the top folder.
 *
 * `hashes`, shared by the snapshots of one folder taken before and after a run: a file the
 * earlier snapshot read is not read again while its inode, size, mtime and change time are the
 * same (any write to a file, and any change of its mtime, sets its change time to the moment it
 * happened, later than the earlier snapshot).
 */
export async function snapshotTree(root: string, hashes: Map<string, string> = new Map()): Promise<Record<string, TreeEntry> | null> {
  const top = await lstat(root).catch(() => null);
  if (!top) return null;
  const out: Record<string, TreeEntry> = {};
  const seen = hashes;
  const walk = async (dir: string): Promise<void> => {
    for (const name of (await readdir(dir)).sort()) {
      const full = path.join(dir, name);
      const rel = path.relative(root, full);
      const st = await lstat(full, { bigint: true });
      if (st.isSymbolicLink()) out[rel] = { kind: 'link', target: await readlink(full) };
      else if (st.isDirectory()) {
        out[rel] = { kind: 'dir' };
        await walk(full);
      } else {
        out[rel] = { kind: 'file', sha256: await sha256Of(full, st, seen), bytes: Number(st.size), ino: Number(st.ino), mtimeMs: Number(st.mtimeNs) / 1e6 };
      }
    }
  };
  await walk(root);
  return out;
}

/** Whether a path exists (without following a final symbolic link). */
export const exists = (p: string): Promise<boolean> => lstat(p).then(() => true, () => false);

/**
 * A copy of a folder tree as it is: symbolic links as links (`.releases/current` still names its
 * release) and hard links as links (every file of a release and its blob in `.releases/.objects`
 * stay one inode, so collecting unlinked blobs sees the copy as it saw the original). A test's own
 * copy of a publication made once per file.
 */
export async function copyTree(from: string, to: string): Promise<void> {
  await promisify(execFile)('cp', ['-a', from, to]);
}
