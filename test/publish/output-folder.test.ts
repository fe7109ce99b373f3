/**
 * The output folder is publish's own: its top holds links named `api`, `data` and `manifest.json`
 * into the live release. A folder holding other things under those names (`--out .` in a project
 * whose panel is in `data/`) is refused before anything is written, never emptied; a publication
 * made by hand (a manifest at its top) is still published into.
 */
import { cp, lstat, readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generate, publishPanel, runCli } from '../helpers/cli.js';
import { flipColumn, liveRelease } from '../helpers/published.js';
import { exists, readOnlyMount, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-output-folder-');
afterAll(() => dirs.removeAll());

/** A generated panel, copied into each test's project as it needs it. */
let panel = '';
beforeAll(async () => {
  panel = path.join(await dirs.make(), 'panel');
  await generate(panel, { stores: 120, seed: 'out', from: '2026-08', to: '2026-09' });
});

const publishCli = (input: string, out: string, runs: string) =>
  runCli(['publish', '--input', input, '--out', out, '--runs', runs, '--all', '--cards', 'none']);

describe('publish --out', () => {
  it("refuses a folder whose data/ is not publish's (here the panel itself) and leaves it whole", async () => {
    const project = await dirs.make();
    const data = path.join(project, 'data');
    await cp(panel, data, { recursive: true });
    const before = (await readdir(data)).sort();

    const r = await publishCli(data, project, path.join(await dirs.make(), 'runs'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`already holds ${data}, which publish did not write`);
    expect((await readdir(data)).sort()).toEqual(before);
    expect((await lstat(data)).isDirectory()).toBe(true);
    expect(await exists(path.join(project, '.releases'))).toBe(false);
  });

  it("refuses a folder holding a manifest.json of something else's", async () => {
    const project = await dirs.make();
    await writeFile(path.join(project, 'manifest.json'), '{"name": "my-app", "version": "1.0.0"}\n');
    const r = await publishCli(panel, project, path.join(await dirs.make(), 'runs'));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('manifest.json, which publish did not write');
    expect((await lstat(path.join(project, 'manifest.json'))).isFile()).toBe(true);
  });

  it('publishes into a publication made by hand (a manifest at its top), replacing it with links', async () => {
    const first = path.join(await dirs.make(), 'out');
    await publishPanel(panel, first);
    const handMade = path.join(await dirs.make(), 'plain');
    await cp((await liveRelease(first)).dir, handMade, { recursive: true });
    // A corrected month: the run has something to write (it keeps the publication's base URL).
    const corrected = path.join(await dirs.make(), 'panel');
    await cp(panel, corrected, { recursive: true });
    await flipColumn(path.join(corrected, '2026-09.csv'), 'llms_txt', 30);

    const r = await publishCli(corrected, handMade, path.join(await dirs.make(), 'runs'));
    expect(r.code, r.stderr).toBe(0);
    for (const name of ['api', 'data', 'manifest.json']) expect((await lstat(path.join(handMade, name))).isSymbolicLink()).toBe(true);
  });
});

// A read-only volume (a CI job's `:ro` mount): Node's recursive mkdir says "no such file or
// directory" there, and the lock's own file name is no folder a user gave. Mounting needs root:
// elsewhere the test is skipped.
describe('an output or runs folder on a read-only file system', () => {
  const { dir: ro, mounted } = readOnlyMount();

  it.skipIf(!mounted).each([
    ['a new --out', (root: string) => ({ out: path.join(ro, 'out', 'site'), runs: path.join(root, 'runs'), named: `${path.join(ro, 'out', 'site')}: cannot write in this output folder` })],
    ['an existing --out', (root: string) => ({ out: ro, runs: path.join(root, 'runs'), named: `${ro}: cannot write in this output folder` })],
    ['a new --runs', (root: string) => ({ out: path.join(root, 'out'), runs: path.join(ro, 'runs'), named: `${path.join(ro, 'runs')}: cannot write in this runs folder` })],
  ])('names %s as on a read-only file system (exit 1), and writes nothing', async (_what, place) => {
    const root = await dirs.make();
    const { out, runs, named } = place(root);
    const r = await publishCli(panel, out, runs);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${named}: it is on a read-only file system (EROFS); nothing was written`);
    expect(await readdir(root)).toEqual([]);
  });
});
