/**
 * Releases on disk (issue 24, item 1): every release is kept and listed in the live release's
 * releases.json; unchanged files are hard links to the release before; a folder no list names
 * (a run killed between its folder's rename and its switch, or an older publication kept by an
 * earlier version) is collected by the next publish; an output folder published before lists
 * were kept starts its list with the release then live; a page names the release that last built
 * it, and is served byte for byte at that release's URL.
 *
 * The two panels of the first tests are generated once for the file and only read; their first
 * release (panel a, published whole) is made once and each test continues its own copyTree copy.
 */
import { cp, readdir, readFile, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseIndex } from '../../src/publish/release-index.js';
import { startServer } from '../../src/serve/server.js';
import { SLUGS } from '../../src/stats/types.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { dropRows, flipColumn, liveRelease } from '../helpers/published.js';
import { copyTree, exists, tempDirs } from '../helpers/tmp.js';
import { raw } from '../serve/http.js';

const dirs = tempDirs('storelens-release-list-');
const shared = tempDirs('storelens-release-list-shared-');
afterEach(() => dirs.removeAll());
afterAll(() => shared.removeAll());

const T = (day: number) => new Date(`2026-11-${String(day).padStart(2, '0')}T09:00:00.000Z`);
const listOf = async (out: string): Promise<ReleaseIndex> => JSON.parse(await readFile(path.join((await liveRelease(out)).dir, 'releases.json'), 'utf8')) as ReleaseIndex;
const folders = async (out: string) => (await readdir(path.join(out, '.releases'))).filter((n) => n !== 'current' && !n.startsWith('.')).sort();

/** panel a, panel b (a with five stores of 2026-09 dropped), and a published whole at T(1) */
const fixture = { a: '', b: '', firstOut: '', first: '' };

beforeAll(async () => {
  const root = await shared.make();
  fixture.a = path.join(root, 'a');
  fixture.b = path.join(root, 'b');
  await generate(fixture.a, { stores: 200, seed: 'rel', from: '2026-08', to: '2026-09' });
  await cp(fixture.a, fixture.b, { recursive: true });
  await dropRows(path.join(fixture.b, '2026-09.csv'), 5);
  fixture.firstOut = path.join(root, 'out');
  fixture.first = (await publishPanel(fixture.a, fixture.firstOut, { now: () => T(1) })).release!;
});

/** The panels, and this test's own copy of panel a published whole at T(1) (its release id: `first`). */
async function firstRelease() {
  const out = path.join(await dirs.make(), 'out');
  await copyTree(fixture.firstOut, out);
  return { a: fixture.a, b: fixture.b, out, first: fixture.first };
}

describe('publish keeps every release', () => {
  it('keeps each release folder, lists them oldest first, and links the files a correction left alone', async () => {
    const { a, b, out, first } = await firstRelease();
    const ids = [first, (await publishPanel(b, out, { months: '2026-09', now: () => T(2) })).release!];
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
    const { b, out } = await firstRelease();
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

describe('a page names the release that last built it (issue 24, citations)', () => {
  /** The release a page (HTML or markdown) names. */
  const named = (page: string) => /This page as published in release ([^,]+), at a URL whose content never changes/.exec(page)?.[1];
  const runsOf = async (dir: string) => (JSON.parse(await readFile(path.join(dir, 'state.json'), 'utf8')) as { runs: Record<string, Record<string, string>> }).runs;

  it('keeps a page and a document no run rebuilt byte for byte, and serves each page at the release URL it names', async () => {
    // A correction of the oldest month: the latest documents of most pages are not rebuilt, and
    // only the llms.txt figures change, so only the pages showing them change.
    const root = await dirs.make();
    const [a, b, out] = ['a', 'b', 'out'].map((n) => path.join(root, n)) as [string, string, string];
    await generate(a, { stores: 200, seed: 'cite', from: '2026-07', to: '2026-09' });
    await cp(a, b, { recursive: true });
    await flipColumn(path.join(b, '2026-07.csv'), 'llms_txt', 20);
    const first = (await publishPanel(a, out, { now: () => T(1) })).release!;
    const second = (await publishPanel(b, out, { months: '2026-07', now: () => T(2) })).release!;
    const dirOf = (id: string) => path.join(out, '.releases', id);
    const [runs1, runs2] = [await runsOf(dirOf(first)), await runsOf(dirOf(second))];
    const server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    try {
      const names = new Map<string, string>();
      for (const slug of SLUGS) {
        // A document whose run id did not change is the same file in both releases.
        for (const [m, run] of Object.entries(runs2[slug]!)) {
          const doc = `api/data/${slug}/${m}.json`;
          const same = (await stat(path.join(dirOf(first), doc))).ino === (await stat(path.join(dirOf(second), doc))).ino;
          expect(same, doc).toBe(runs1[slug]![m] === run);
        }
        for (const [file, p] of [[`data/${slug}.html`, `/data/${slug}`], [`data/${slug}.md`, `/data/${slug}.md`]] as const) {
          const [before, after] = await Promise.all([first, second].map((id) => readFile(path.join(dirOf(id), file), 'utf8')));
          expect(named(before), file).toBe(first);
          // A page the correction left as it was but for the release it names is the first release's page, kept.
          expect(named(after), file).toBe(after === before ? first : second);
          expect(after.replaceAll(second, first) === before, file).toBe(after === before);
          if (after === before) expect((await stat(path.join(dirOf(first), file))).ino).toBe((await stat(path.join(dirOf(second), file))).ino);
          if (file.endsWith('.html')) names.set(slug, named(after)!);
          // The live page is served byte for byte at the release URL it names.
          const [latest, pinned] = [await raw(server.url, p), await raw(server.url, `/releases/${named(after)}${p}`)];
          expect([latest.status, pinned.status, pinned.headers['cache-control']]).toEqual([200, 200, 'public, max-age=31536000, immutable']);
          expect(pinned.body.equals(latest.body), p).toBe(true);
        }
      }
      expect(names.get('platform-stores')).toBe(first);
      expect(names.get('agentic-commerce')).toBe(second);
    } finally {
      await server.close();
    }
  }, 120_000);
});
