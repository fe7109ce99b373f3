/**
 * Releases on disk (issue 24, item 1): every release is kept and listed in the live release's
 * releases.json; unchanged files are hard links to the release before; a folder no list names
 * (a run killed between its folder's rename and its switch, or an older publication kept by an
 * earlier version) is collected by the next publish; an output folder published before lists
 * were kept starts its list with the release then live.
 */
import { cp, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ReleaseIndex } from '../../src/publish/release-index.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { dropRows, liveRelease } from '../helpers/published.js';
import { exists, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-release-list-');
afterEach(() => dirs.removeAll());

const T = (day: number) => new Date(`2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`);
const listOf = async (out: string): Promise<ReleaseIndex> => JSON.parse(await readFile(path.join((await liveRelease(out)).dir, 'releases.json'), 'utf8')) as ReleaseIndex;
const folders = async (out: string) => (await readdir(path.join(out, '.releases'))).filter((n) => n !== 'current' && !n.startsWith('.')).sort();

async function panels() {
  const root = await dirs.make();
  const a = path.join(root, 'a');
  const b = path.join(root, 'b');
  await generate(a, { stores: 200, seed: 'rel', from: '2026-08', to: '2026-09' });
  await cp(a, b, { recursive: true });
  await dropRows(path.join(b, '2026-09.csv'), 5);
  return { a, b, out: path.join(root, 'out') };
}

describe('publish keeps every release', () => {
  it('keeps each release folder, lists them oldest first, and links the files a correction left alone', async () => {
    const { a, b, out } = await panels();
    const ids = [(await publishPanel(a, out, { now: () => T(1) })).release!, (await publishPanel(b, out, { months: '2026-09', now: () => T(2) })).release!];
    ids.push((await publishPanel(a, out, { months: '2026-09', now: () => T(3) })).release!);
    expect(await folders(out)).toEqual([...ids].sort());
    const list = await listOf(out);
    expect(list.releases.map((r) => r.id)).toEqual(ids);
    expect(list.releases.map((r) => r.completed_at)).toEqual([T(1), T(2), T(3)].map((t) => t.toISOString()));
    expect(list.releases[0]).toMatchObject({ months_added: ['2026-08', '2026-09'], months_corrected: [] });
    expect(list.releases[1]!.months_corrected).toContain('2026-09');
    // The methodology page is rebuilt by no correction here: one file shared by all three releases.
    const inodes = await Promise.all(ids.map(async (id) => (await stat(path.join(out, '.releases', id, 'api/data/methodology/2026-08.json'))).ino));
    expect(new Set(inodes).size).toBe(1);
  }, 120_000);

  it('collects a release folder no list names, and starts the list of an output folder published before lists were kept', async () => {
    const { a, b, out } = await panels();
    await publishPanel(a, out, { now: () => T(1) });
    const legacy = await liveRelease(out);
    // As an earlier version left it: no list, and an older publication kept beside the live one.
    await rm(path.join(legacy.dir, 'releases.json'));
    const older = path.join(out, '.releases', '20261031T090000000Z-abcdef');
    await cp(legacy.dir, older, { recursive: true });
    // As a run killed between its folder's rename and its switch leaves it.
    const orphan = path.join(out, '.releases', '20261101T100000000Z-012345');
    await cp(legacy.dir, orphan, { recursive: true });

    const next = (await publishPanel(b, out, { months: '2026-09', now: () => T(2) })).release!;
    expect(await exists(older)).toBe(false);
    expect(await exists(orphan)).toBe(false);
    expect(await folders(out)).toEqual([legacy.id, next].sort());
    const list = await listOf(out);
    expect(list.releases.map((r) => r.id)).toEqual([legacy.id, next]);
    expect(list.releases[0]).toMatchObject({ completed_at: T(1).toISOString(), unrecorded: true, months_added: [] });
  }, 120_000);
});
