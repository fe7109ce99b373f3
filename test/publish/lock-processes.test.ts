/**
 * The publish lock (src/publish/lock.ts) between processes, as CI jobs and cron runs meet it:
 * several publishes started at once on a folder whose lock a killed publish left. Exactly one
 * holds the lock; the others are told which process is writing. A holder keeps the lock until
 * every other process has said how its try ended, so two holders at once would both be seen,
 * however the processes are scheduled (dist/: `npm test` builds it first).
 */
import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/publish/lock.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-lock-processes-');
afterAll(() => dirs.removeAll());

const LOCK_JS = pathToFileURL(path.resolve('dist/publish/lock.js')).href;
/** A pid no process has (past the kernel's pid_max). */
const GONE = 2 ** 30;
const PROCESSES = 3;

/**
 * One publish's try, in a process of its own: says `ready`, waits for `go` on stdin, tries the
 * lock, writes how it ended to `<results>/<pid>` and, holding the lock, waits until every try
 * has written its result before it releases it.
 */
const TRY = `
const { acquireLock } = await import(${JSON.stringify(LOCK_JS)});
const { readdir, writeFile } = await import('node:fs/promises');
const [dir, results, n] = process.argv.slice(1);
process.stdout.write('ready\\n');
await new Promise((go) => process.stdin.once('data', go));
process.stdin.destroy();
try {
  const lock = await acquireLock(dir);
  await writeFile(results + '/' + process.pid, 'held');
  while ((await readdir(results)).length < Number(n)) await new Promise((r) => setTimeout(r, 5));
  await lock.release();
} catch (e) {
  await writeFile(results + '/' + process.pid, 'refused: ' + e.message);
}
`;

function start(dir: string, results: string) {
  const child = spawn(process.execPath, ['--input-type=module', '-e', TRY, dir, results, String(PROCESSES)], { stdio: ['pipe', 'pipe', 'inherit'] });
  const ready = new Promise<void>((resolve) => child.stdout.once('data', () => resolve()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, ready, exited };
}

describe('a stale lock found by several publish processes at once', () => {
  it('is taken by exactly one process, every round; the others are told which process is writing', async () => {
    const dir = await dirs.make();
    for (let round = 0; round < 8; round++) {
      await writeFile(path.join(dir, LOCK_FILE), `${GONE}\n`);
      const results = await dirs.make();
      const tries = Array.from({ length: PROCESSES }, () => start(dir, results));
      await Promise.all(tries.map((t) => t.ready));
      for (const t of tries) t.child.stdin.write('go\n');
      expect(await Promise.all(tries.map((t) => t.exited))).toEqual(tries.map(() => 0));
      const said = await Promise.all((await readdir(results)).map(async (pid) => [pid, await readFile(path.join(results, pid), 'utf8')] as const));
      const holders = said.filter(([, s]) => s === 'held').map(([pid]) => pid);
      expect(holders).toHaveLength(1);
      for (const [, s] of said.filter(([, s]) => s !== 'held')) {
        expect(s).toBe(`refused: ${dir}: another publish (pid ${holders[0]}) is writing this output folder; run again when it has finished`);
      }
      // Nothing of the takeover is left behind once the holder has released the lock.
      expect(await readdir(dir)).toEqual([]);
    }
  });
});
