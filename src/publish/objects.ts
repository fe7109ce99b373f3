/**
 * Content-addressed storage of release files (issue 24): every file of a release is a hard link
 * to one blob, `.releases/.objects/<first 2 hex of its SHA-256>/<the other 62>`, so the same bytes
 * are stored once whatever their path or release (a file unchanged for a year, a file back to
 * earlier bytes, a latest document that is also its month's document).
 *
 * A blob name only ever holds whole bytes: a blob is written under a temporary name and renamed,
 * or is a file of an earlier release linked in whole. A blob is never written again once named,
 * so a release linking it never changes. A blob no release links has a link count of 1 (a killed
 * run's, or one whose only release was collected): the publish that switches a release in removes
 * those after its switch. One publish at a time holds the output folder (lock.ts), so nothing
 * links a blob while it is collected; `serve` reads release folders only, never a blob by name.
 */
import { createHash, randomBytes } from 'node:crypto';
import { link, mkdir, readdir, rename, rm, stat, unlink, writeFile } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import path from 'node:path';
import { hashFile } from '../core/hash-file.js';

export const OBJECTS_DIR = '.objects';

const TEMP_SUFFIX = '.tmp';
const FAN_OUT = /^[0-9a-f]{2}$/;

const inodeOf = (st: Stats): string => `${st.dev}:${st.ino}`;
const missing = (e: unknown): null => {
  if ((e as NodeJS.ErrnoException).code === 'ENOENT') return null;
  throw e;
};

/** The blobs of one output folder, as a publish holding its lock sees them. */
export class ObjectStore {
  private readonly fanned = new Set<string>();

  private constructor(
    readonly dir: string,
    /** inodes of every blob: a file of the live release with one of them is a blob already */
    private readonly inodes: Set<string>,
  ) {}

  /** Opens (or creates) the store of `releasesDir`, removing the temporary files of killed runs. */
  static async open(releasesDir: string): Promise<ObjectStore> {
    const dir = path.join(releasesDir, OBJECTS_DIR);
    await mkdir(dir, { recursive: true });
    const inodes = new Set<string>();
    for (const blob of await scanBlobs(dir, async (tmp) => rm(tmp, { force: true }))) inodes.add(inodeOf(blob.st));
    return new ObjectStore(dir, inodes);
  }

  /** The blob holding `bytes`, written now unless some release already stored them. */
  async put(bytes: Buffer | string): Promise<string> {
    const blob = await this.blobPath(createHash('sha256').update(bytes).digest('hex'));
    if (await stat(blob).catch(missing)) return blob;
    const tmp = path.join(this.dir, `${path.basename(blob)}.${randomBytes(4).toString('hex')}${TEMP_SUFFIX}`);
    // A write that fails part-way (a full disk) leaves no half blob.
    await writeFile(tmp, bytes).catch(async (e: unknown) => {
      await rm(tmp, { force: true }).catch(() => {});
      throw e;
    });
    await rename(tmp, blob);
    this.inodes.add(inodeOf(await stat(blob)));
    return blob;
  }

  /**
   * A file to link for `file`, a file of the live release: `file` itself when it is a blob
   * already (the common case: no bytes are read). A file written before content addressing is
   * hashed once: the blob with its bytes when there is one, else the file becomes that blob.
   */
  async adopt(file: string): Promise<string> {
    const st = await stat(file);
    if (this.inodes.has(inodeOf(st))) return file;
    const blob = await this.blobPath(await hashFile(file));
    if (!(await stat(blob).catch(missing))) await link(file, blob);
    this.inodes.add(inodeOf(await stat(blob)));
    return blob;
  }

  private async blobPath(hex: string): Promise<string> {
    const fan = path.join(this.dir, hex.slice(0, 2));
    if (!this.fanned.has(fan)) {
      await mkdir(fan, { recursive: true });
      this.fanned.add(fan);
    }
    return path.join(fan, hex.slice(2));
  }
}

/**
 * Removes every blob no release links (link count 1); call after the switch and after unlisted
 * release folders are removed. Returns how many it removed.
 */
export async function collectBlobs(releasesDir: string): Promise<number> {
  let removed = 0;
  for (const blob of await scanBlobs(path.join(releasesDir, OBJECTS_DIR))) {
    if (blob.st.nlink > 1) continue;
    await unlink(blob.file).catch(missing);
    removed += 1;
  }
  return removed;
}

/** Every blob of the store with its stat; temporary files are handed to `onTemp`, if given. */
async function scanBlobs(dir: string, onTemp?: (file: string) => Promise<void>): Promise<Array<{ file: string; st: Stats }>> {
  const blobs: Array<{ file: string; st: Stats }> = [];
  const top = (await readdir(dir).catch(missing)) ?? [];
  for (const fan of top) {
    if (fan.endsWith(TEMP_SUFFIX)) await onTemp?.(path.join(dir, fan));
    if (!FAN_OUT.test(fan)) continue;
    const names = (await readdir(path.join(dir, fan)).catch(missing)) ?? [];
    const stats = await Promise.all(names.map(async (name) => ({ file: path.join(dir, fan, name), st: await stat(path.join(dir, fan, name)).catch(missing) })));
    for (const b of stats) if (b.st) blobs.push({ file: b.file, st: b.st });
  }
  return blobs;
}
