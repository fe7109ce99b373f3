/**
 * One publish at a time per output folder: a lock file holding the owner's pid, created
 * exclusively. A lock whose process is gone (a killed publish) is stale and taken over.
 */
import { open, readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { CliError } from '../errors.js';

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

export async function acquireLock(outDir: string): Promise<Lock> {
  const file = path.join(outDir, LOCK_FILE);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const handle = await open(file, 'wx');
      await handle.writeFile(`${process.pid}\n`);
      await handle.close();
      return { release: () => rm(file, { force: true }) };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    const pid = Number((await readFile(file, 'utf8').catch(() => '')).trim());
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && alive(pid)) {
      throw new CliError(`${outDir}: another publish (pid ${pid}) is writing this output folder; run again when it has finished`, 1);
    }
    await rm(file, { force: true }); // stale: its process is gone (or it never wrote its pid)
  }
  throw new CliError(`${outDir}: could not take the publish lock ${file}`, 1);
}
