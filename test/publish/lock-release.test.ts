/**
 * The publish lock (src/publish/lock.ts) released while another try in this process takes it:
 * the lock file's removal can wait on a loaded machine. A release that forgot the lock before its
 * file was gone let the next try remove that file as left by an earlier process with this pid and
 * take the lock; the late removal then took away the next holder's lock file, and a publish in
 * another process could take the lock beside it. Run in a process of its own whose lock module's
 * first removal of a lock file waits until the next try has ended (a module hook; dist/:
 * `npm test` builds it first), as the test files share their modules.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/publish/lock.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-lock-release-');
afterAll(() => dirs.removeAll());

const LOCK_JS = pathToFileURL(path.resolve('dist/publish/lock.js')).href;

/** node:fs/promises as the lock module sees it: its first removal of a lock file waits until the script opens the gate. */
const SLOW_FS = `
import * as fs from 'node:fs/promises';
export * from 'node:fs/promises';
let first = true;
export async function rm(file, options) {
  if (first && String(file).endsWith('/${LOCK_FILE}')) {
    first = false;
    await globalThis.lockRemovalGate;
  }
  return fs.rm(file, options);
}
`;
const HOOKS = `
export async function resolve(specifier, context, next) {
  if (specifier === 'node:fs/promises' && context.parentURL === ${JSON.stringify(LOCK_JS)}) {
    return { url: 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(SLOW_FS)}), shortCircuit: true };
  }
  return next(specifier, context);
}
`;

/**
 * Takes the lock, releases it and, while its file's removal waits, tries it again (the removal
 * goes on once that try has ended, however long it took); prints how the try ended and the
 * folder after each step.
 */
const TRY = `
import { register } from 'node:module';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOKS)}));
const { acquireLock } = await import(${JSON.stringify(LOCK_JS)});
const { readdir } = await import('node:fs/promises');
const dir = process.argv[1];
let open;
globalThis.lockRemovalGate = new Promise((r) => (open = r));
const first = await acquireLock(dir);
const releasing = first.release();
const next = await acquireLock(dir).then((lock) => ({ lock, said: 'held' }), (e) => ({ said: 'refused: ' + e.message }));
open();
await releasing;
const after = await readdir(dir);
await next.lock?.release();
console.log(JSON.stringify({ next: next.said, after, released: await readdir(dir) }));
`;

describe('a lock released while another try in this process takes it', () => {
  it('refuses the try while the lock file is there, rather than taking the lock its removal then takes away', async () => {
    const dir = await dirs.make();
    const { stdout } = await promisify(execFile)(process.execPath, ['--input-type=module', '-e', TRY, dir]);
    // Was taken: { next: 'held', after: [] }, a holder without a lock file.
    expect(JSON.parse(stdout)).toEqual({
      next: `refused: ${dir}: another publish in this process is writing this output folder; run again when it has finished`,
      after: [],
      released: [],
    });
  });
});
