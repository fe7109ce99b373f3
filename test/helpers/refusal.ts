/**
 * A refused publish: exit 2, one line naming what is wrong, nothing on stdout, a published
 * output folder byte for byte (inodes, mtimes, links) as it was, and an --out that did not exist
 * still absent, as is the --runs folder that did not exist.
 */
import path from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli.js';
import { copyTree, exists, snapshotTree, type tempDirs } from './tmp.js';

/**
 * Runs publish with `args` twice, at once: over a copy of the `published` folder (which must not
 * change) and with an --out that does not exist (which must stay absent). Returns stderr.
 */
export async function expectRefused(published: string, dirs: ReturnType<typeof tempDirs>, args: string[], message: RegExp): Promise<string> {
  const tmp = await dirs.make();
  const out = path.join(tmp, 'published');
  // As publish left it: links, hard links between a release and its blobs, and mtimes kept.
  await copyTree(published, out);
  // The snapshot after reads again only the files whose change time moved (snapshotTree).
  const hashes = new Map<string, string>();
  const before = await snapshotTree(out, hashes);
  const runs = await Promise.all(
    [out, path.join(tmp, 'absent')].map((target) => runCli(['publish', ...args, '--out', target, '--runs', `${target}.runs`, '--cards', 'none'])),
  );
  for (const r of runs) {
    expect(r.code, r.stderr).toBe(2);
    expect(r.stderr).toMatch(message);
    // A refused command line is followed by where to read its usage, a line of its own.
    expect(r.stderr.trim().split('\n').filter((l) => l !== '(see: storelens publish --help)'), 'one line, no stack trace').toHaveLength(1);
    expect(r.stdout).toBe('');
  }
  expect(await snapshotTree(out, hashes)).toEqual(before);
  expect(await exists(path.join(tmp, 'absent'))).toBe(false);
  // Neither runs folder existed: a refused publish leaves none behind, not even an empty one.
  expect(await exists(`${out}.runs`), 'runs folder left behind').toBe(false);
  expect(await exists(path.join(tmp, 'absent.runs')), 'runs folder left behind').toBe(false);
  return runs[1].stderr;
}
