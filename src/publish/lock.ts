/**
 * One publish at a time per output folder: a lock file holding the owner's pid and, where the
 * system tells it (Linux), when that process started. A lock whose process is gone (a killed
 * publish) is stale and taken over, and so is one whose pid another process has since been given
 * (a killed CI job's pid, reused in the next container, even by the publish that finds it).
 * A stale lock is removed under a takeover guard, so publishes that find it at once take it one
 * at a time (removeStale). Within one process, tries for the same lock take turns (acquireLock):
 * the lock files of one process all hold the same text, so only the process can tell its own
 * tries apart.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { access, link, mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { setTimeout } from 'node:timers/promises';
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

/**
 * When process `pid` started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or
 * undefined where that is not known (no /proc, another system).
 */
async function startOf(pid: number): Promise<string | undefined> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => undefined);
  // The command name (field 2) is in parentheses and may hold spaces or parentheses itself.
  const fields = stat?.slice(stat.lastIndexOf(')') + 2).split(' ');
  return fields?.[19] && /^\d+$/.test(fields[19]) ? fields[19] : undefined;
}

/** What a lock file holds: `<pid> <start>` (`<pid>` alone where the start is not known, or from an earlier version). */
const lockText = async (): Promise<string> => `${[process.pid, await startOf(process.pid)].filter((x) => x !== undefined).join(' ')}\n`;

/** Lock files this process holds: one naming this process's pid that is not among them was taken by an earlier process. */
const held = new Set<string>();

/** The owner of lock `file`, while the process it names is the one that took it; null for a stale lock. */
async function owner(file: string, text: string): Promise<number | null> {
  const [pidText, start] = text.trim().split(' ');
  const pid = Number(pidText);
  if (pid === process.pid) return held.has(file) ? pid : null;
  if (!Number.isInteger(pid) || pid <= 0 || !alive(pid)) return null;
  if (start === undefined) return pid;
  const now = await startOf(pid);
  return now === undefined || now === start ? pid : null;
}

/** Why a folder cannot be written, for the errors a publish cannot go on after. */
const UNWRITABLE: Record<string, string> = {
  EROFS: 'it is on a read-only file system',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'no space left on its device',
  EDQUOT: 'the disk quota is exceeded',
};

/**
 * Makes `dir` and its parents (mkdir -p), resolving to the first folder it made, and makes sure
 * it can be written in (a folder already there, too). Where that
 * fails, the error names the folder and the real reason: Node's recursive mkdir answers ENOENT
 * ("no such file or directory") on a read-only file system, so the first missing folder is made
 * alone to learn it.
 */
export async function makeFolder(dir: string, what: string): Promise<string | undefined> {
  try {
    const created = await mkdir(dir, { recursive: true });
    // A folder that is there already is made without a write: whether it can be written is asked.
    await access(dir, constants.W_OK | constants.X_OK);
    return created;
  } catch (e) {
    let err = e as NodeJS.ErrnoException;
    if (err.code === 'ENOENT') {
      let missing = path.resolve(dir);
      while (!(await stat(path.dirname(missing)).then(() => true, () => false)) && path.dirname(missing) !== missing) missing = path.dirname(missing);
      err = await mkdir(missing).then(() => err, (again: NodeJS.ErrnoException) => again);
    }
    throw unwritable(dir, what, err);
  }
}

/** `e` as a CliError naming the folder when it says the folder cannot be written; else `e`. */
const unwritable = (dir: string, what: string, e: NodeJS.ErrnoException): Error =>
  e.code && e.code in UNWRITABLE ? new CliError(`${dir}: cannot write in this ${what}: ${UNWRITABLE[e.code]} (${e.code}); nothing was written`, 1) : e;

export interface Lock {
  release(): Promise<void>;
}

/** The try under way in this process for each lock file, which the next try for it waits on. */
const turns = new Map<string, Promise<unknown>>();

/**
 * Takes the lock: the pid is written to a private file first, then linked to the lock path,
 * so the lock never exists without its owner's pid (link fails when the lock exists).
 * Tries in this process for the same lock run one after another. Run at once, one try could
 * read the lock (or takeover guard) another had just linked before that other learned of its
 * link and entered it in `held`: it holds this process's text, so it looked left by an earlier
 * process with this pid, was removed as stale, and both tries held the lock (seen on a loaded
 * CI machine, where a finished link can wait for its callback).
 */
export function acquireLock(outDir: string, what = 'output folder'): Promise<Lock> {
  const file = path.resolve(outDir, LOCK_FILE);
  const taking = (turns.get(file) ?? Promise.resolve()).then(() => takeLock(outDir, file, what));
  const turn = taking.catch(() => undefined);
  turns.set(file, turn);
  void turn.then(() => {
    if (turns.get(file) === turn) turns.delete(file);
  });
  return taking;
}

/**
 * One try for lock `file` (the folder's lock file, its path resolved: `held` knows a lock this
 * process holds by that path, however the folder was named, as ./out, out/ or /srv/out).
 */
async function takeLock(outDir: string, file: string, what: string): Promise<Lock> {
  const mine = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  // The first file a publish writes in the folder: one it cannot write in is said here, named.
  await writeFile(mine, await lockText()).catch((e: NodeJS.ErrnoException) => {
    throw unwritable(outDir, what, e);
  });
  try {
    for (let attempt = 0; attempt < 10; attempt++) {
      try {
        await link(mine, file);
        held.add(file);
        await removeOrphans(outDir);
        return {
          // Held until its file is gone: a try in this process that found it meanwhile, no
          // longer held, would remove it as left by an earlier process with this pid and take
          // the lock, whose file this removal, come late, would then take away.
          release: async () => {
            try {
              await rm(file, { force: true });
            } finally {
              held.delete(file);
            }
          },
        };
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      }
      const text = await readFile(file, 'utf8').catch(() => '');
      const pid = await owner(file, text);
      if (pid !== null) {
        const who = pid === process.pid ? 'another publish in this process' : `another publish (pid ${pid})`;
        throw new CliError(`${outDir}: ${who} is writing this ${what}; run again when it has finished`, 1);
      }
      // Stale: its process is gone (or its pid is another process's now). While another publish
      // is taking it over, this one gives it a moment before it looks again.
      if (!(await removeStale(file, text, mine))) await setTimeout(10 * (attempt + 1));
    }
    // Where a process's start is not known (no /proc), a guard left by a killed publish whose pid
    // another process has since been given looks held for ever: what to remove is named.
    throw new CliError(`${outDir}: could not take the publish lock ${file}: its process is gone, and another publish kept taking it over (${file}.takeover); if no publish is running, remove both files and run again`, 1);
  } finally {
    await rm(mine, { force: true });
  }
}

/**
 * Removes the lock `file` if it still holds `stale`, holding `file`.takeover meanwhile (linked from
 * `mine`, as the lock is): of the publishes that found the same stale lock, one removes it; one
 * that read it before another took the lock over would otherwise remove that fresh lock, and both
 * would hold it. A takeover guard whose process is gone (killed in those few steps) is removed.
 * False when another publish is taking the lock over.
 */
async function removeStale(file: string, stale: string, mine: string): Promise<boolean> {
  const guard = `${file}.takeover`;
  try {
    await link(mine, guard);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    const text = await readFile(guard, 'utf8').catch(() => null);
    if (text === null) return true; // its takeover has just ended
    if ((await owner(guard, text)) !== null) return false;
    await rm(guard, { force: true });
    return true;
  }
  // Not entered in `held`: tries in this process take turns, so no other of them reads this guard.
  try {
    if ((await readFile(file, 'utf8').catch(() => null)) === stale) await rm(file, { force: true });
  } finally {
    await rm(guard, { force: true });
  }
  return true;
}

/** Pid files of publishes killed before they linked or removed them. */
async function removeOrphans(outDir: string): Promise<void> {
  for (const name of await readdir(outDir)) {
    const m = /^\.publish\.lock\.(\d+)\.[0-9a-f]+$/.exec(name);
    if (m && Number(m[1]) !== process.pid && !alive(Number(m[1]))) await rm(path.join(outDir, name), { force: true });
  }
}
