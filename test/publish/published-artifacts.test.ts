/**
 * What a publish leaves for `serve` (issue 3, rules 1-5): the RSS feed as a real parser reads
 * it, a manifest listing every artifact of DESIGN.md's output layout with its content type, the
 * markdown page's sections, and the publish lock (a live owner refuses a second publish with
 * exit 1; a dead owner's lock is taken over).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/publish/lock.js';
import type { Manifest } from '../../src/publish/manifest.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { metricsOf } from '../../src/stats/registry.js';
import { SLUGS, type StatsDocument } from '../../src/stats/types.js';
import { BASE_URL, generate, publishPanel, readDocument } from '../helpers/cli.js';
import { flipColumn, liveRelease, manifestMismatches, narrowPanel, runBin, servedMismatches, spawnBin } from '../helpers/published.js';
import { exists, snapshotTree, tempDirs } from '../helpers/tmp.js';
import { ensureRenderBuilt } from '../render/build-dist.js';
import { raw } from '../serve/http.js';

const [JAN, FEB] = ['2026-01', '2026-02'];
const T1 = new Date('2026-02-03T06:00:00.000Z');
const T2 = new Date('2026-03-03T06:00:00.000Z');
/** The content types of issue 3, rule 7, by file extension: every text type names its charset. */
const TYPES: Record<string, string> = {
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  html: 'text/html; charset=utf-8',
  xml: 'application/rss+xml; charset=utf-8',
  png: 'image/png',
};

const dirs = tempDirs('storelens-artifacts-');
let root: string;
let input: string;
let out: string;
let server: RunningServer;
let manifest: Manifest;
let januaryFeed: string;
const latest = new Map<string, StatsDocument>();

const parseFeed = (xml: string) => new Parser().parseString(xml);
const publishArgs = (panel: string, dir: string) => ['publish', '--input', panel, '--all', '--out', dir, '--runs', `${dir}.runs`, '--base-url', BASE_URL, '--cards', 'latest', '--json'];
/** A copy of the publication, for a test that publishes into it. */
async function copyOfOut(): Promise<string> {
  const copy = path.join(await dirs.make(), 'out');
  await cp(out, copy, { recursive: true, verbatimSymlinks: true });
  return copy;
}
/** The pid of a process that has exited. */
function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ['-e', '']);
  return new Promise((resolve) => child.on('exit', () => resolve(child.pid!)));
}

beforeAll(async () => {
  ensureRenderBuilt();
  root = await dirs.make();
  input = path.join(root, 'panel');
  out = path.join(root, 'out');
  await generate(input, { stores: 300, seed: 'artifacts', from: JAN, to: FEB });
  await narrowPanel(input, ['US', 'GB']);
  await publishPanel(input, out, { months: JAN, now: () => T1 });
  januaryFeed = await readFile(path.join(out, 'data', 'rss.xml'), 'utf8');
  await publishPanel(input, out, { months: FEB, now: () => T2, cards: 'latest', cardThreads: 2 });
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
  manifest = (await liveRelease(out)).manifest;
  for (const slug of SLUGS) latest.set(slug, await readDocument(out, slug));
}, 120_000);
afterAll(async () => {
  await server?.close();
  await dirs.removeAll();
});

describe('the RSS feed, read by rss-parser', () => {
  it('has one item per monthly release with a stable guid, pubDate = the run\'s completed_at, and links to every slug page', async () => {
    const feed = await parseFeed((await raw(server.url, '/data/rss.xml')).text);
    expect(feed.items.map((i) => i.guid)).toEqual([`release:${FEB}`, `release:${JAN}`]);
    expect(feed.items.map((i) => i.isoDate)).toEqual([T2.toISOString(), T1.toISOString()]);
    expect((await readDocument(out, 'platform-stores', JAN)).completed_at).toBe(T1.toISOString());
    expect(latest.get('platform-stores')!.completed_at).toBe(T2.toISOString());
    for (const item of feed.items) {
      for (const slug of SLUGS) expect(item.content, `${item.guid} links ${slug}`).toContain(`href="${BASE_URL}/data/${slug}"`);
    }
    const before = (await parseFeed(januaryFeed)).items.map((i) => [i.guid, i.pubDate, i.title, i.link]);
    expect(feed.items.filter((i) => i.guid === `release:${JAN}`).map((i) => [i.guid, i.pubDate, i.title, i.link])).toEqual(before);
  });
});

describe('the manifest', () => {
  it('lists exactly the artifacts of the output layout, each with its content type, as serve answers them', async () => {
    const expected: string[] = ['data/rss.xml', 'api/data/changes.json'];
    for (const slug of SLUGS) {
      expected.push(`api/data/${slug}.json`, `api/data/${slug}/${JAN}.json`, `api/data/${slug}/${FEB}.json`, `api/data/${slug}.csv`, `data/${slug}.md`, `data/${slug}.html`);
      for (const stat of latest.get(slug)!.stats) expected.push(`data/cards/${slug}/${FEB}/${stat.anchor}.png`);
    }
    expect(Object.keys(manifest.files).sort()).toEqual(expected.sort());
    expect(manifest.latest_month).toBe(FEB);
    expect(manifest.completed_at).toBe(T2.toISOString());
    for (const [key, entry] of Object.entries(manifest.files)) {
      expect(entry.content_type, key).toBe(TYPES[key.slice(key.lastIndexOf('.') + 1)]);
      expect(entry.last_modified, key).toMatch(/^\w{3}, \d{2} \w{3} \d{4} \d{2}:\d{2}:\d{2} GMT$/);
    }
    const release = await liveRelease(out);
    expect(await manifestMismatches(release.dir, manifest)).toEqual([]);
    expect(await servedMismatches(server.url, release.dir, manifest)).toEqual([]);
  });

  it('is served over HTTP with each type\'s Content-Type, every text type (the feed too) naming UTF-8', async () => {
    const urls = ['/api/data/agentic-commerce', `/api/data/agentic-commerce/${JAN}`, '/api/data/changes', '/api/data/agentic-commerce/csv', '/data/agentic-commerce', '/data/agentic-commerce.md', '/data/rss.xml', '/releases.json'];
    const card = Object.keys(manifest.files).find((k) => k.endsWith('.png'))!;
    const served: Record<string, string | undefined> = {};
    for (const url of [...urls, `/${card}`]) served[url] = (await raw(server.url, url, { method: 'HEAD' })).headers['content-type'] as string | undefined;
    expect(served).toEqual({
      '/api/data/agentic-commerce': 'application/json; charset=utf-8',
      [`/api/data/agentic-commerce/${JAN}`]: 'application/json; charset=utf-8',
      '/api/data/changes': 'application/json; charset=utf-8',
      '/api/data/agentic-commerce/csv': 'text/csv; charset=utf-8',
      '/data/agentic-commerce': 'text/html; charset=utf-8',
      '/data/agentic-commerce.md': 'text/markdown; charset=utf-8',
      '/data/rss.xml': 'application/rss+xml; charset=utf-8',
      '/releases.json': 'application/json; charset=utf-8',
      [`/${card}`]: 'image/png',
    });
    expect((await raw(server.url, '/data/rss.xml')).text).toMatch(/^<\?xml version="1.0" encoding="utf-8"\?>/i);
  });

  it('moves a publication written with charset-less types to the new ones at the next publish, each file keeping its ETag', async () => {
    const dir = await copyOfOut();
    const old = await liveRelease(dir);
    // As a version before charsets wrote it: JSON and the feed without one, and no assembly key a no-op would stop at.
    const legacy = structuredClone(old.manifest);
    for (const entry of Object.values(legacy.files)) entry.content_type = entry.content_type.replace(/^(application\/(?:json|rss\+xml)); charset=utf-8$/, '$1');
    await writeFile(path.join(old.dir, 'manifest.json'), JSON.stringify(legacy, null, 2));
    const state = JSON.parse(await readFile(path.join(old.dir, 'state.json'), 'utf8')) as { assembly?: string };
    delete state.assembly;
    await writeFile(path.join(old.dir, 'state.json'), JSON.stringify(state));
    const summary = await publishPanel(input, dir, { now: () => new Date('2026-03-04T06:00:00.000Z'), cards: 'latest' });
    expect(summary.changed).toBe(true);
    const next = await liveRelease(dir);
    for (const [key, entry] of Object.entries(next.manifest.files)) {
      expect(entry.content_type, key).toBe(TYPES[key.slice(key.lastIndexOf('.') + 1)]);
      if (key !== 'api/data/changes.json') expect(entry.etag, key).toBe(old.manifest.files[key]!.etag);
    }
    const s = await startServer({ out: dir, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    try {
      expect(await servedMismatches(s.url, next.dir, next.manifest)).toEqual([]);
    } finally {
      await s.close();
    }
  });

  it('dates each file by the run that last changed it', () => {
    expect(manifest.files[`api/data/agentic-commerce/${JAN}.json`]!.last_modified).toBe(T1.toUTCString());
    expect(manifest.files[`api/data/agentic-commerce/${FEB}.json`]!.last_modified).toBe(T2.toUTCString());
    expect(manifest.files['data/rss.xml']!.last_modified).toBe(T2.toUTCString());
  });
});

describe('the markdown page', () => {
  it('has one section per metric, in registry order, with an anchor per stat and its methodology version', async () => {
    for (const slug of SLUGS) {
      const md = (await raw(server.url, `/data/${slug}.md`)).text;
      const headings = md.split('\n').filter((l) => l.startsWith('## ')).map((l) => l.slice(3));
      expect(headings, slug).toEqual([...metricsOf(slug).map((m) => m.title), 'License']);
      for (const stat of latest.get(slug)!.stats) {
        const row = md.split('\n').find((l) => l.includes(`<a id="${stat.anchor}"></a>`));
        expect(row, `${slug} ${stat.id}`).toBeDefined();
        // A hidden stat is no table row: its anchor is in the list the table's one-line summary opens.
        if (stat.suppressed) expect(row!.startsWith('|'), `${slug} ${stat.id}`).toBe(false);
      }
      expect(md.match(/^Methodology version: .+$/gm), slug).toHaveLength(metricsOf(slug).length);
      if (latest.get(slug)!.stats.some((s) => s.suppressed)) expect(md, slug).toMatch(/^<details><summary>\d+ .+ not published, .*with fewer than 30 stores or hidden to protect one that has: /m);
      expect(md).toContain('CC BY 4.0');
      expect(md).toContain(`(${BASE_URL}/data/${slug})`);
    }
  });
});

describe('the publish lock', () => {
  it('makes a second publish exit 1 with a clear message while the first is running, and the first still succeeds', async () => {
    const dir = await copyOfOut();
    const changed = path.join(await dirs.make(), 'panel');
    await cp(input, changed, { recursive: true });
    await flipColumn(path.join(changed, `${FEB}.csv`), 'llms_txt', 12);
    const first = spawnBin(publishArgs(changed, dir));
    const lock = path.join(dir, LOCK_FILE);
    for (let waited = 0; (await readFile(lock, 'utf8').catch(() => '')).split(/\s/)[0] !== String(first.child.pid); waited += 20) {
      if (waited > 60_000) throw new Error('the first publish never took the lock');
      await new Promise((r) => setTimeout(r, 20));
    }
    first.child.kill('SIGSTOP'); // holds the lock for as long as the second one runs
    try {
      const second = await runBin(publishArgs(changed, dir));
      expect(second.code).toBe(1);
      expect(second.stderr).toContain(`another publish (pid ${first.child.pid}) is writing this output folder`);
      expect(second.stdout).toBe('');
    } finally {
      first.child.kill('SIGCONT');
    }
    const done = await first.done;
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout)).toMatchObject({ changed: true, months: [FEB] });
    expect(await exists(lock)).toBe(false);
  }, 120_000);

  it('refuses to publish while a live process holds the lock, and leaves the output folder as it was', async () => {
    const dir = await copyOfOut();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)']);
    try {
      await writeFile(path.join(dir, LOCK_FILE), `${holder.pid}\n`);
      const tree = await snapshotTree(dir);
      const r = await runBin(publishArgs(input, dir));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(new RegExp(`another publish \\(pid ${holder.pid}\\) is writing this output folder; run again when it has finished`));
      expect(await snapshotTree(dir)).toEqual(tree);
    } finally {
      holder.kill();
    }
  });

  it('refuses the second of two publishes that run at once in one process', async () => {
    const dir = await copyOfOut();
    const changed = path.join(await dirs.make(), 'panel');
    await cp(input, changed, { recursive: true });
    await flipColumn(path.join(changed, `${FEB}.csv`), 'llms_txt', 12);
    const results = await Promise.allSettled([publishPanel(changed, dir, { now: () => T2 }), publishPanel(input, dir, { baseUrl: 'https://other.example.com', now: () => T2 })]);
    const outcome = results.map((r) => (r.status === 'rejected' ? String(r.reason) : `published ${r.value.release}`));
    expect(outcome.filter((o) => /another publish .* is writing this output folder/.test(o)), outcome.join('\n')).toHaveLength(1);
    expect(outcome.filter((o) => o.startsWith('published'))).toHaveLength(1);
    expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
  });

  // A killed publish's pid given to another process since (the next CI container's, where pids
  // start again from 1): the lock names when its process started, and that one started later.
  it.skipIf(!existsSync('/proc/self/stat'))('takes over a lock whose pid a live process other than its publish has now', async () => {
    const dir = await copyOfOut();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 120000)']);
    try {
      const stat = await readFile(`/proc/${holder.pid}/stat`, 'utf8');
      const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
      // Taken by that very process: refused.
      await writeFile(path.join(dir, LOCK_FILE), `${holder.pid} ${started}\n`);
      const refused = await runBin(publishArgs(input, dir));
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(`another publish (pid ${holder.pid}) is writing this output folder`);
      // Taken by a process of the same pid that started earlier: taken over.
      await writeFile(path.join(dir, LOCK_FILE), `${holder.pid} ${Number(started) - 1}\n`);
      const r = await runBin(publishArgs(input, dir));
      expect(r.code, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toMatchObject({ changed: false });
      expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
    } finally {
      holder.kill();
    }
  });

  // `docker run … storelens publish` is pid 1 in every container: a killed one's lock names the next one's pid.
  it("takes over a lock holding this very process's pid that an earlier process took", async () => {
    const dir = await copyOfOut();
    await writeFile(path.join(dir, LOCK_FILE), `${process.pid}\n`);
    expect(await publishPanel(input, dir)).toMatchObject({ changed: false });
    expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
  });

  it('takes over a lock whose process is gone', async () => {
    const dir = await copyOfOut();
    await writeFile(path.join(dir, LOCK_FILE), `${await deadPid()}\n`);
    const r = await runBin(publishArgs(input, dir));
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ changed: false });
    expect(await exists(path.join(dir, LOCK_FILE))).toBe(false);
  });
});
