/**
 * The publish lock (src/publish/lock.ts) released while another try in this process takes it:
 * the lock file's removal can wait on a loaded machine (its callback comes late). A release that
 * forgot the lock before its file was gone let the next try remove that file as left by an
 * earlier process with this pid and take the lock; the late removal then took away the next
 * holder's lock file, and a publish in another process could take the lock beside it.
 */
import { readdir } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { LOCK_FILE } from '../../src/publish/lock.js';
import { tempDirs } from '../helpers/tmp.js';

/** The lock file's first removal made to wait, as on a loaded machine. */
const slow = vi.hoisted(() => ({ first: true }));
vi.mock('node:fs/promises', async (original) => {
  const fs = await original<typeof import('node:fs/promises')>();
  return {
    ...fs,
    rm: async (...args: Parameters<typeof fs.rm>) => {
      if (String(args[0]).endsWith('/.publish.lock') && slow.first) {
        slow.first = false;
        await setTimeout(100);
      }
      return fs.rm(...args);
    },
  };
});

const { acquireLock } = await import('../../src/publish/lock.js');

const dirs = tempDirs('storelens-lock-release-');
afterAll(() => dirs.removeAll());

describe('a lock released while another try in this process takes it', () => {
  it('refuses the try while the file is there, rather than taking the lock its removal then takes away', async () => {
    const dir = await dirs.make();
    const first = await acquireLock(dir);
    const releasing = first.release();
    // Was taken: and its lock file was gone once the release ended, the lock held by no file.
    await expect(acquireLock(dir)).rejects.toThrow(/another publish in this process is writing this output folder/);
    await releasing;
    expect(await readdir(dir)).toEqual([]);
    const again = await acquireLock(dir);
    expect(await readdir(dir)).toEqual([LOCK_FILE]);
    await again.release();
  });
});
