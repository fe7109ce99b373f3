/**
 * The publish lock (src/publish/lock.ts) taken over from a killed publish: of the publishes that
 * find the same stale lock at once, exactly one takes it. Removing a stale lock and taking it are
 * two steps; a publish that removed the lock another had just taken over would hold it beside it.
 * The tries here run in one process, whose lock files all hold the same text.
 */
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { acquireLock, LOCK_FILE } from '../../src/publish/lock.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-lock-');
afterAll(() => dirs.removeAll());

/** A pid no process has (past the kernel's pid_max). */
const GONE = 2 ** 30;

describe('a stale lock found by several publishes at once', () => {
  it('is taken by exactly one of them, every round; the others are told another publish is writing', async () => {
    const dir = await dirs.make();
    const taken: number[] = [];
    for (let round = 0; round < 60; round++) {
      await writeFile(path.join(dir, LOCK_FILE), `${GONE}\n`);
      const tries = await Promise.allSettled(Array.from({ length: 3 }, () => acquireLock(dir)));
      const held = tries.filter((t) => t.status === 'fulfilled');
      taken.push(held.length);
      for (const t of tries) if (t.status === 'rejected') expect(String(t.reason)).toMatch(/another publish in this process is writing/);
      for (const t of held) await t.value.release();
    }
    expect(taken.filter((n) => n !== 1)).toEqual([]);
    // Nothing of the takeovers is left behind.
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('a lock this process holds', () => {
  it('refuses a try in this process that names the folder of the lock it holds otherwise (relative, absolute)', async () => {
    const dir = await dirs.make();
    const lock = await acquireLock(dir);
    // Was taken beside it: the lock names this process and was not known as held under the
    // other name, so it looked left by an earlier process with this pid, and was removed.
    await expect(acquireLock(path.relative(process.cwd(), dir))).rejects.toThrow(/another publish in this process is writing this output folder/);
    await expect(acquireLock(`${dir}/`)).rejects.toThrow(/another publish in this process is writing this output folder/);
    await lock.release();
    expect(await readdir(dir)).toEqual([]);
  });
});

describe('a stale lock whose takeover guard looks held for ever', () => {
  it('is refused after a few tries, naming both files to remove when no publish is running', async () => {
    // A killed publish's guard whose pid a live process has since been given, where its start is
    // not known (no /proc): here the guard names the live parent process with its real start.
    const dir = await dirs.make();
    const stat = await readFile(`/proc/${process.ppid}/stat`, 'utf8');
    const start = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const lock = path.join(dir, LOCK_FILE);
    await writeFile(lock, `${GONE}\n`);
    await writeFile(`${lock}.takeover`, `${process.ppid} ${start}\n`);
    await expect(acquireLock(dir)).rejects.toThrow(
      `${dir}: could not take the publish lock ${lock}: its process is gone, and another publish kept taking it over (${lock}.takeover); if no publish is running, remove both files and run again`,
    );
    expect((await readdir(dir)).sort()).toEqual([LOCK_FILE, `${LOCK_FILE}.takeover`]);
  });
});
