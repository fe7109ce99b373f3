/**
 * One publish at a time per output folder: a lock file holding the owner's pid. A lock whose
 * process is gone (a killed publish) is stale and taken over.
 */
import { randomBytes } from 'node:crypto';
import { link, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../core/errors.js';

export const LOCK_FILE = '.publish.lock';

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export interface Lock {
  release(): Promise<void>;
}

/**
 * Takes the lock: the pid is written to a private file first, then linked to the lock path,
 * so the lock never exists without its owner's pid (link fails when the lock exists).
 */
export async function acquireLock(outDir: string, what = 'output folder'): Promise<Lock> {
  const file = path.join(outDir, LOCK_FILE);
  const mine = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  await writeFile(mine, `${process.pid}\n`);
  try {
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await link(mine, file);
        await removeOrphans(outDir);
        return { release: () => rm(file, { force: true }) };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (Number.isInteger(pid) && pid > 0 && alive(pid)) {
        const who = pid === process.pid ? 'another publish in this process' : `another publish (pid ${pid})`;
        throw new CliError(`${outDir}: ${who} is writing this ${what}; run again when it has finished`, 1);
      }
      await rm(file, { force: true }); // stale: its process is gone
    }
    throw new CliError(`${outDir}: could not take the publish lock ${file}`, 1);
  } finally {
    await rm(mine, { force: true });
  }
}

/** Pid files of publishes killed before they linked or removed them. */
async function removeOrphans(outDir: string): Promise<void> {
  for (const name of await readdir(outDir)) {
    const m = /^\.publish\.lock\.(\d+)\.[0-9a-f]+$/.exec(name);
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) await rm(path.join(outDir, name), { force: true });
  }
}
