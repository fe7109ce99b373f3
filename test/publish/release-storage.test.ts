/**
 * Releases stored by content (issue 24): every file of a release is a hard link to one blob in
 * `.releases/.objects`, so the same bytes are stored once whatever their path or release. A year
 * of monthly releases and three corrections costs the bytes no earlier release held, each
 * release still reads byte for byte as it did when it was live, a blob no release links is
 * collected, and an output folder written before content addressing is taken over whole.
 *
 * The generated year is made once for the file and only read; so is the publication of its first
 * two months, which the tests that start from it copy (copyTree: links kept) before changing it.
 */
import { createHash } from 'node:crypto';
import { copyFile, cp, lstat, mkdir, readdir, readFile, realpath, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { monthRange } from '../../src/core/panel-contract.js';
import { writeRelease } from '../../src/publish/release.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { editRows, liveRelease, manifestMismatches, narrowPanel } from '../helpers/published.js';
import { copyTree, exists, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-release-storage-');
const shared = tempDirs('storelens-release-storage-shared-');
afterEach(() => dirs.removeAll());
afterAll(() => shared.removeAll());

const MONTHS = monthRange('2025-11', '2026-10');
const at = (i: number) => () => new Date(Date.UTC(2026, 10, 1, 9, i));
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

/** path in the release → SHA-256 and size of its bytes, for every file of a release folder. */
type Contents = Map<string, { sha: string; bytes: number }>;

async function filesOf(dir: string, rel = ''): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(path.join(dir, rel), { withFileTypes: true })) {
    const p = path.join(rel, e.name);
    if (e.isDirectory()) out.push(...(await filesOf(dir, p)));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

async function contentsOf(dir: string): Promise<Contents> {
  const out: Contents = new Map();
  for (const p of await filesOf(dir)) {
    const b = await readFile(path.join(dir, p));
    out.set(p, { sha: sha(b), bytes: b.length });
  }
  return out;
}

/** Bytes on disk under `dir`: the sizes of its distinct inodes (hard links counted once). */
async function inodeBytes(dir: string): Promise<number> {
  const seen = new Map<string, number>();
  for (const p of await filesOf(dir)) {
    const st = await lstat(path.join(dir, p));
    seen.set(`${st.dev}:${st.ino}`, st.size);
  }
  return [...seen.values()].reduce((s, n) => s + n, 0);
}

/** Bytes of the distinct contents of all these releases: what storing each content once costs. */
function distinctBytes(releases: Contents[]): number {
  const seen = new Map<string, number>();
  for (const r of releases) for (const { sha, bytes } of r.values()) seen.set(sha, bytes);
  return [...seen.values()].reduce((s, n) => s + n, 0);
}

/** What linking unchanged files by path (the scheme before content addressing) would cost. */
function byPathBytes(releases: Contents[]): number {
  let total = 0;
  releases.forEach((r, i) => {
    for (const [p, c] of r) if (releases[i - 1]?.get(p)?.sha !== c.sha) total += c.bytes;
  });
  return total;
}

const isMonthDocument = (p: string) => /^api\/data\/[a-z-]+\/\d{4}-\d{2}\.json$/.test(p) || /^api\/data\/[a-z-]+\.json$/.test(p);

/** the generated year (read only), and its first two months and their publication at(0) */
const fixture = { all: '', twoMonths: '', twoMonthsOut: '' };

beforeAll(async () => {
  fixture.all = await shared.make();
  await generate(fixture.all, { stores: 120, seed: 'storage', from: MONTHS[0]!, to: MONTHS[MONTHS.length - 1]! });
  await narrowPanel(fixture.all, ['US', 'DE', 'GB']);
  fixture.twoMonths = path.join(await shared.make(), 'input');
  await mkdir(fixture.twoMonths);
  for (const m of MONTHS.slice(0, 2)) await copyFile(path.join(fixture.all, `${m}.csv`), path.join(fixture.twoMonths, `${m}.csv`));
  fixture.twoMonthsOut = path.join(await shared.make(), 'out');
  await publishPanel(fixture.twoMonths, fixture.twoMonthsOut, { now: at(0) });
});

/** A panel folder holding the months published so far (none yet), copied in from the generated year. */
async function year() {
  const root = await dirs.make();
  const input = path.join(root, 'input');
  await mkdir(input);
  return { root, all: fixture.all, input, out: path.join(root, 'out') };
}

/** The generated year's first two months, published at(0): this test's own copy of panel and output. */
async function twoMonthsPublished() {
  const root = await dirs.make();
  const input = path.join(root, 'input');
  const out = path.join(root, 'out');
  await copyTree(fixture.twoMonths, input);
  await copyTree(fixture.twoMonthsOut, out);
  return { all: fixture.all, input, out };
}

describe('releases stored by content', () => {
  it('stores a year of monthly releases and three corrections once, each release still byte for byte as served', async () => {
    const { all, input, out } = await year();
    const seen: Array<{ id: string; contents: Contents }> = [];
    const publishAndRecord = async (months: string, i: number) => {
      const id = (await publishPanel(input, out, { months, now: at(i) })).release!;
      seen.push({ id, contents: await contentsOf(path.join(out, '.releases', id)) });
    };
    for (const [i, m] of MONTHS.entries()) {
      await copyFile(path.join(all, `${m}.csv`), path.join(input, `${m}.csv`));
      await publishAndRecord(m, i);
    }
    // Three corrections: five stores' revenue in August, then in May, then August back as it was.
    const august = path.join(input, '2026-08.csv');
    await editRows(august, 5, (r) => ({ ...r, est_monthly_revenue_usd: String(Number(r.est_monthly_revenue_usd || 0) + 5000) }));
    await publishAndRecord('2026-08', 12);
    await editRows(path.join(input, '2026-05.csv'), 3, (r) => ({ ...r, est_monthly_revenue_usd: '1' }));
    await publishAndRecord('2026-05', 13);
    await copyFile(path.join(all, '2026-08.csv'), august);
    await publishAndRecord('2026-08', 14);
    expect(seen.map((s) => s.id)).toHaveLength(15);
    expect(new Set(seen.map((s) => s.id)).size).toBe(15);

    // Every release reads as it did right after its publish.
    for (const s of seen) expect(await contentsOf(path.join(out, '.releases', s.id)), s.id).toEqual(s.contents);

    const releases = seen.map((s) => s.contents);
    const latest = releases[releases.length - 1]!;
    const disk = await inodeBytes(path.join(out, '.releases'));
    const latestAlone = await inodeBytes(path.join(out, '.releases', seen[seen.length - 1]!.id));
    const latestPlain = [...latest.values()].reduce((s, c) => s + c.bytes, 0);
    const once = distinctBytes(releases);
    const byPath = byPathBytes(releases);
    const everyRelease = releases.reduce((t, r) => t + [...r.values()].reduce((s, c) => s + c.bytes, 0), 0);
    // The bound: the latest release, plus per release the files that cover every month (pages,
    // CSV, feed, manifest, state, list; no earlier release's are larger than the latest's), plus
    // per correction the documents of the months it reaches (the month and the two after it).
    const history = [...latest].filter(([p]) => !isMonthDocument(p)).reduce((s, [, c]) => s + c.bytes, 0);
    const monthDocs = (m: string) => [...latest].filter(([p]) => p.endsWith(`/${m}.json`)).reduce((s, [, c]) => s + c.bytes, 0);
    const largestMonth = Math.max(...MONTHS.map(monthDocs));
    const bound = latestAlone + (releases.length - 1) * history + 3 * 3 * largestMonth;
    console.info(
      `release storage: 12 monthly releases + 3 corrections: ${disk} bytes on disk under .releases; the latest release alone ${latestAlone} ` +
        `(${latestPlain} as plain files); ${(disk / latestAlone).toFixed(2)}× the latest; linked by path (before) ${byPath} (${(byPath / latestAlone).toFixed(2)}×); ` +
        `every release copied ${everyRelease} (${(everyRelease / latestAlone).toFixed(2)}×); bound ${bound} (${(bound / latestAlone).toFixed(2)}×: ` +
        `latest + 14 × ${history} bytes of whole-history files + 9 × ${largestMonth} bytes of a month's documents)`,
    );
    // Stored once: the bytes on disk are exactly the distinct contents of all fifteen releases.
    expect(disk).toBe(once);
    expect(disk).toBeLessThanOrEqual(bound);
    expect(disk).toBeLessThan(byPath);
    // The latest document and its month's document: one file.
    const inLatest = (p: string) => stat(path.join(out, '.releases', seen[14]!.id, p));
    expect((await inLatest('api/data/platform-stores.json')).ino).toBe((await inLatest('api/data/platform-stores/2026-10.json')).ino);
    const live = await liveRelease(out);
    expect(await manifestMismatches(live.dir, live.manifest)).toEqual([]);
  }, 300_000);

  it('collects blobs no release links and temporary files of killed runs, and keeps every blob a release links', async () => {
    const { input, out } = await twoMonthsPublished();
    const objects = path.join(out, '.releases', '.objects');
    await mkdir(path.join(objects, 'ab'), { recursive: true });
    const stray = path.join(objects, 'ab', 'c'.repeat(62));
    const temp = path.join(objects, `${'d'.repeat(64)}.0123abcd.tmp`);
    await writeFile(stray, 'a blob whose release folder was removed');
    await writeFile(temp, 'half a blob');
    await editRows(path.join(input, `${MONTHS[1]}.csv`), 5, (r) => ({ ...r, est_monthly_revenue_usd: '1' }));
    await publishPanel(input, out, { months: MONTHS[1], now: at(1) });
    expect(await exists(stray)).toBe(false);
    expect(await exists(temp)).toBe(false);
    for (const fan of await readdir(objects)) {
      for (const blob of await readdir(path.join(objects, fan))) expect((await stat(path.join(objects, fan, blob))).nlink, blob).toBeGreaterThan(1);
    }
  }, 120_000);

  it('links a file back at earlier bytes, and the same bytes at two paths, to one blob', async () => {
    const out = path.join(await dirs.make(), 'out');
    const doing = { months_added: [], months_corrected: [], methodology_versions: [], feed_items: [] };
    const release = (n: number, a: string, b: string) =>
      writeRelease(out, [{ path: 'manifest.json', bytes: `{"completed_at":"${at(n)().toISOString()}"}` }, { path: 'a.txt', bytes: a }, { path: 'b/c.txt', bytes: b }], at(n)().toISOString(), doing);
    const ids = [await release(0, 'one', 'two'), await release(1, 'three', 'two'), await release(2, 'one', 'one')];
    const ino = async (id: string, p: string) => (await stat(path.join(out, '.releases', id, p))).ino;
    expect(await ino(ids[2]!, 'a.txt')).toBe(await ino(ids[0]!, 'a.txt'));
    expect(await ino(ids[2]!, 'b/c.txt')).toBe(await ino(ids[0]!, 'a.txt'));
    expect(await ino(ids[1]!, 'b/c.txt')).toBe(await ino(ids[0]!, 'b/c.txt'));
    expect(await readFile(path.join(out, '.releases', ids[1]!, 'a.txt'), 'utf8')).toBe('three');
  });

  // A disk that fills while a release is staged: the failed run takes back what it wrote.
  it('leaves no staging folder and no blob behind when writing a release fails, the live release as it was', async () => {
    const out = path.join(await dirs.make(), 'out');
    const doing = { months_added: [], months_corrected: [], methodology_versions: [], feed_items: [] };
    const manifest = (n: number) => ({ path: 'manifest.json', bytes: `{"completed_at":"${at(n)().toISOString()}"}` });
    const live = await writeRelease(out, [manifest(0), { path: 'a.txt', bytes: 'one' }], at(0)().toISOString(), doing);
    const releases = path.join(out, '.releases');
    const before = { top: (await readdir(releases)).sort(), objects: (await filesOf(path.join(releases, '.objects'))).sort() };
    // The second file cannot be linked (its folder would be the first file): the run fails while staging.
    const failing = writeRelease(out, [manifest(1), { path: 'a.txt', bytes: 'fresh bytes' }, { path: 'a.txt/b.txt', bytes: 'more fresh bytes' }], at(1)().toISOString(), doing);
    await expect(failing).rejects.toThrow();
    expect((await readdir(releases)).sort()).toEqual(before.top);
    expect((await filesOf(path.join(releases, '.objects'))).sort()).toEqual(before.objects);
    expect(await readFile(path.join(releases, 'current', 'a.txt'), 'utf8')).toBe('one');
    expect(path.basename(await realpath(path.join(releases, 'current')))).toBe(live);
  });

  it('takes over an output folder written before content addressing, keeping its releases byte for byte', async () => {
    const { all, input, out } = await twoMonthsPublished();
    const first = (await liveRelease(out)).id;
    await copyFile(path.join(all, `${MONTHS[2]}.csv`), path.join(input, `${MONTHS[2]}.csv`));
    const second = (await publishPanel(input, out, { months: MONTHS[2], now: at(1) })).release!;
    // As the earlier version left it: every file a plain file of its own, no store of blobs.
    const releases = path.join(out, '.releases');
    for (const id of [first, second]) {
      await cp(path.join(releases, id), path.join(releases, `${id}.plain`), { recursive: true });
      await rm(path.join(releases, id), { recursive: true });
      await cp(path.join(releases, `${id}.plain`), path.join(releases, id), { recursive: true });
      await rm(path.join(releases, `${id}.plain`), { recursive: true });
    }
    await rm(path.join(releases, '.objects'), { recursive: true });
    const old = { [first]: await contentsOf(path.join(releases, first)), [second]: await contentsOf(path.join(releases, second)) };

    await editRows(path.join(input, `${MONTHS[1]}.csv`), 3, (r) => ({ ...r, est_monthly_revenue_usd: '1' }));
    const third = (await publishPanel(input, out, { months: MONTHS[1], now: at(2) })).release!;
    for (const id of [first, second]) expect(await contentsOf(path.join(releases, id)), id).toEqual(old[id]);
    // The new release: every file a blob; an unchanged one is the legacy file itself, taken in as its blob.
    for (const p of await filesOf(path.join(releases, third))) expect((await stat(path.join(releases, third, p))).nlink, p).toBeGreaterThan(1);
    const kept = `api/data/platform-stores/${MONTHS[0]}.json`;
    expect((await stat(path.join(releases, third, kept))).ino).toBe((await stat(path.join(releases, second, kept))).ino);
    const live = await liveRelease(out);
    expect(live.id).toBe(third);
    expect(await manifestMismatches(live.dir, live.manifest)).toEqual([]);
  }, 120_000);
});
