/**
 * Corrections (issue 3, rule 6; DESIGN.md "Decisions" → Run id, JSON ETag, Cards): re-publishing
 * a past month M with changed input rebuilds exactly M and M+1 (new JSON ETags and Last-Modified,
 * as `serve` answers them), changes every CSV ETag, keeps M-1 and "latest" as they were, and
 * adds an RSS correction item for M; identical input is a no-op. Cards are re-rendered only
 * where their content changed.
 */
import { cp, readFile, readlink } from 'node:fs/promises';
import path from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/publish/manifest.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { SLUGS, type Slug, type Stat, type StatsDocument } from '../../src/stats/types.js';
import { BASE_URL, generate, publishPanel, readDocument } from '../helpers/cli.js';
import { dropRows, flipColumn, liveRelease, narrowPanel, servedMismatches } from '../helpers/published.js';
import { snapshotTree, tempDirs } from '../helpers/tmp.js';
import { ensureRenderBuilt } from '../render/build-dist.js';
import { raw } from '../serve/http.js';

const [PRIOR, M, NEXT] = ['2026-08', '2026-09', '2026-10'];
const T1 = new Date('2026-11-02T09:30:00.000Z');
const T2 = new Date('2026-11-09T14:00:00.000Z');
const T3 = new Date('2026-11-10T08:00:00.000Z');
const httpDate = (d: Date) => d.toUTCString();

const dirs = tempDirs('storelens-corrections-');
let out: string;
let server: RunningServer;
let before: Manifest;
let after: Manifest;
let beforeFeed: Parser.Output<Record<string, unknown>>;
const beforeDocs = new Map<Slug, StatsDocument>();
let correction: Awaited<ReturnType<typeof publishPanel>>;

const feedOf = async () => new Parser().parseString((await raw(server.url, '/data/rss.xml')).text);
/** [card key, stat] of every stat on the latest pages (one card each). */
const statsBySlug = async (dir: string): Promise<Array<[string, Stat]>> =>
  (await Promise.all(SLUGS.map((slug) => readDocument(dir, slug)))).flatMap((d) =>
    d.stats.map((s): [string, Stat] => [`data/cards/${d.slug}/${d.month}/${s.anchor}.png`, s]),
  );
const figures = (s: Stat) => JSON.stringify([s.value, s.numerator, s.n, s.null_rate, s.suppressed, s.delta]);

beforeAll(async () => {
  const root = await dirs.make();
  const input = path.join(root, 'panel');
  const corrected = path.join(root, 'panel-corrected');
  out = path.join(root, 'out');
  await generate(input, { stores: 400, seed: '41', from: PRIOR, to: NEXT });
  await publishPanel(input, out, { now: () => T1 });
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
  before = (await liveRelease(out)).manifest;
  beforeFeed = await feedOf();
  for (const slug of SLUGS) beforeDocs.set(slug, await readDocument(out, slug, M));

  await cp(input, corrected, { recursive: true });
  await dropRows(path.join(corrected, `${M}.csv`), 10);
  await flipColumn(path.join(corrected, `${M}.csv`), 'llms_txt', 25);
  correction = await publishPanel(corrected, out, { months: M, now: () => T2 });
  await server.serve.live.refresh();
  after = (await liveRelease(out)).manifest;
});
afterAll(async () => {
  await server?.close();
  await dirs.removeAll();
});

describe(`correcting ${M} after ${PRIOR}, ${M} and ${NEXT} were published`, () => {
  it(`rebuilds ${M} and ${NEXT} only and keeps ${NEXT} as latest`, () => {
    expect(correction).toMatchObject({ changed: true, months: [M, NEXT], releases: [], latest_month: NEXT });
    expect(correction.corrections).toContain(M);
    expect(after.latest_month).toBe(NEXT);
  });

  it(`gives the documents of ${M} and ${NEXT} new run ETags and Last-Modified, and leaves ${PRIOR} alone`, async () => {
    const release = await liveRelease(out);
    expect(await servedMismatches(server.url, release.dir, release.manifest)).toEqual([]);
    for (const slug of SLUGS) {
      const key = (m: string) => `api/data/${slug}/${m}.json`;
      expect(after.files[key(PRIOR)], slug).toEqual(before.files[key(PRIOR)]);
      expect(after.files[key(PRIOR)]!.last_modified).toBe(httpDate(T1));
      for (const m of [M, NEXT]) {
        expect(after.files[key(m)]!.etag, `${slug} ${m}`).toMatch(new RegExp(`^"${slug}-${m}-[0-9a-f]{16}"$`));
        expect(after.files[key(m)]!.etag, `${slug} ${m}`).not.toBe(before.files[key(m)]!.etag);
        expect(after.files[key(m)]!.last_modified).toBe(httpDate(T2));
      }
      const latest = await raw(server.url, `/api/data/${slug}`);
      expect(JSON.parse(latest.text).month).toBe(NEXT);
      expect(latest.headers.etag).toBe(after.files[key(NEXT)]!.etag);
      const old = await raw(server.url, `/api/data/${slug}/${PRIOR}`, { headers: { 'if-none-match': before.files[key(PRIOR)]!.etag } });
      expect(old.status, `${slug} ${PRIOR} still validates against its old ETag`).toBe(304);
    }
  });

  it('changes the CSV ETag of every slug', () => {
    for (const slug of SLUGS) {
      const csv = `api/data/${slug}.csv`;
      expect(after.files[csv]!.etag, slug).not.toBe(before.files[csv]!.etag);
      expect(after.files[csv]!.last_modified).toBe(httpDate(T2));
    }
  });

  it(`adds a correction item for ${M} naming the slugs and stat ids that changed, and keeps the release items`, async () => {
    const feed = await feedOf();
    const item = feed.items.find((i) => i.guid?.startsWith(`correction:${M}:`));
    expect(item, feed.items.map((i) => i.guid).join(', ')).toBeDefined();
    expect(item!.title).toBe('Correction: statistics for September 2026 revised');
    expect(item!.isoDate).toBe(T2.toISOString());
    let named = 0;
    for (const slug of SLUGS) {
      const was = new Map(beforeDocs.get(slug)!.stats.map((s) => [s.id, figures(s)]));
      const changed = (await readDocument(out, slug, M)).stats.filter((s) => was.get(s.id) !== figures(s)).map((s) => s.id);
      const link = `href="${BASE_URL}/data/${slug}"`;
      if (changed.length === 0) {
        expect(item!.content, slug).not.toContain(link);
        continue;
      }
      named += 1;
      expect(item!.content, slug).toContain(link);
      // A country's id is followed by its name: `<li>active_stores:country:US (United States)</li>`.
      for (const id of changed.filter((i) => !/[<>&"']/.test(i))) expect(item!.content!.includes(`<li>${id}</li>`) || item!.content!.includes(`<li>${id} (`), `${slug} ${id}`).toBe(true);
    }
    expect(named).toBeGreaterThan(0);
    expect(item!.content).toContain('<li>llms_txt_share:all</li>');
    const releases = (f: typeof feed) => f.items.filter((i) => i.guid?.startsWith('release:')).map((i) => [i.guid, i.pubDate, i.link]);
    expect(releases(feed)).toEqual(releases(beforeFeed));
  });

  it('says "no changes" and touches nothing when the corrected input is published again', async () => {
    const treeBefore = await snapshotTree(out);
    const id = await readlink(path.join(out, '.releases', 'current'));
    const corrected = path.join(path.dirname(out), 'panel-corrected');
    const again = await publishPanel(corrected, out, { months: M, now: () => T3 });
    expect(again).toMatchObject({ changed: false, release: null, months: [], corrections: [], files_written: [] });
    expect(await snapshotTree(out)).toEqual(treeBefore);
    expect(await readlink(path.join(out, '.releases', 'current'))).toBe(id);
  });
});

describe('correcting a month of a longer series', () => {
  it('leaves every document as a fresh publish of the corrected panel has it but for what the first release hid, trend deltas two months on included, and gives each correction its own guid', async () => {
    const root = await dirs.make();
    const original = path.join(root, 'original');
    const fixed = path.join(root, 'fixed');
    const fresh = path.join(root, 'fresh');
    const series = path.join(root, 'out');
    const months = ['2026-07', '2026-08', '2026-09', '2026-10'];
    await generate(original, { stores: 400, seed: '41', from: months[0]!, to: months[3]! });
    await cp(original, fixed, { recursive: true });
    await flipColumn(path.join(fixed, '2026-08.csv'), 'llms_txt', 60);
    let day = 1;
    const run = (panel: string, options: Parameters<typeof publishPanel>[2] = {}) => publishPanel(panel, series, { now: () => new Date(Date.UTC(2026, 10, day++)), ...options });
    await run(original);
    const first = new Map<string, Stat>();
    for (const slug of SLUGS) for (const m of months) for (const s of (await readDocument(series, slug, m)).stats) first.set(`${slug} ${m} ${s.id}`, s);
    await run(fixed, { months: '2026-08' });
    await publishPanel(fixed, fresh);
    // A correction keeps hidden what the first release hid: the only differences from a fresh
    // publish of the corrected panel are figures or deltas hidden then and hidden again.
    const differences: string[] = [];
    let carried = 0;
    for (const slug of SLUGS) {
      for (const m of months) {
        const want = new Map((await readDocument(fresh, slug, m)).stats.map((s) => [s.id, s]));
        for (const s of (await readDocument(series, slug, m)).stats) {
          const key = `${slug} ${m} ${s.id}`;
          if (JSON.stringify(want.get(s.id)) === JSON.stringify(s)) continue;
          const was = first.get(key)!;
          const hiddenAgain = (s.suppressed && was.suppressed) || (s.delta?.suppressed === true && was.delta?.suppressed === true);
          if (hiddenAgain) carried += 1;
          else differences.push(key);
        }
      }
    }
    console.log(`${carried} figure(s) a fresh publish shows stay hidden as the first release hid them`);
    expect(differences).toEqual([]);

    await run(original, { months: '2026-08' });
    expect((await run(fixed, { months: '2026-08' })).corrections).toContain('2026-08');
    const feed = await new Parser().parseString(await readFile(path.join(series, 'data', 'rss.xml'), 'utf8'));
    const guids = feed.items.map((i) => i.guid!);
    expect(guids.filter((g) => g.startsWith('correction:2026-08:'))).toHaveLength(3);
    expect(new Set(guids).size, guids.join('\n')).toBe(guids.length);
  }, 120_000);
});

describe('share cards across runs', () => {
  it('renders no card for unchanged input, and only the cards whose stat changed when the latest month changes', async () => {
    ensureRenderBuilt();
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    const cardsOut = path.join(root, 'out');
    await generate(input, { stores: 300, seed: 'cards', from: '2026-01', to: '2026-02' });
    await narrowPanel(input, ['US']);
    const run = (now: Date) => publishPanel(input, cardsOut, { cards: 'latest', cardThreads: 2, now: () => now });

    const first = await run(T1);
    const cardKeys = (m: Manifest) => Object.keys(m.files).filter((k) => k.startsWith('data/cards/'));
    const firstManifest = (await liveRelease(cardsOut)).manifest;
    const total = cardKeys(firstManifest).length;
    const latestStats = await statsBySlug(cardsOut);
    expect(total).toBe(latestStats.length);
    expect(first.cards_rendered).toBe(total);

    expect(await run(T2)).toMatchObject({ changed: false, cards_rendered: 0 });

    await flipColumn(path.join(input, '2026-02.csv'), 'llms_txt', 12);
    const third = await run(T3);
    const thirdManifest = (await liveRelease(cardsOut)).manifest;
    expect(third.cards_rendered).toBeGreaterThan(0);
    expect(third.cards_rendered).toBeLessThan(total);
    const rewritten = cardKeys(thirdManifest).filter((k) => thirdManifest.files[k]!.last_modified === httpDate(T3));
    expect(rewritten).toHaveLength(third.cards_rendered);
    expect(cardKeys(thirdManifest).sort()).toEqual(cardKeys(firstManifest).sort());

    const was = new Map(latestStats.map(([card, s]) => [card, figures(s) + s.sentence]));
    const changedCards = (await statsBySlug(cardsOut)).filter(([card, s]) => was.get(card) !== figures(s) + s.sentence).map(([card]) => card);
    expect(changedCards).toEqual(expect.arrayContaining(rewritten));
    for (const key of cardKeys(thirdManifest).filter((k) => !rewritten.includes(k))) {
      expect(thirdManifest.files[key], key).toEqual(firstManifest.files[key]);
    }
  }, 180_000);
});
