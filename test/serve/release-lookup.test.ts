/**
 * What a URL under `/releases/{id}/…` costs: a release other than the live one is looked up in
 * its manifest, read and checked whole when it is not among the few kept in memory. A URL of
 * the right shape naming no file (any card name, any month) is answered from the release folder
 * alone, so cycling such URLs over many releases never makes the server read manifests. A
 * crawler walking every release URL by URL reads each release's manifest once, not once a
 * request, and what is kept of it answers exactly as the manifest would.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseIndex } from '../../src/publish/release-index.js';
import { loadPublication } from '../../src/serve/publication.js';
import { ReleaseArtifacts } from '../../src/serve/releases.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { jsonEtag, samplePublicationFiles, writePublication, writeRelease } from '../helpers/publication.js';
import { tempDirs } from '../helpers/tmp.js';
import { raw } from './http.js';

const dirs = tempDirs('storelens-release-lookup-');
const EARLIER = '20250203T040506000Z-aaaaaa';
const LIVE = '20250303T040506000Z-bbbbbb';
let server: RunningServer;

const record = (id: string, completed_at: string) => ({
  id, completed_at, months_added: [], months_corrected: [], methodology_versions: [], methodology_changes: [], feed_items: [],
});

beforeAll(async () => {
  const out = await dirs.make();
  const earlier = await writeRelease(out, samplePublicationFiles({ runId: 'earlier', months: ['2025-01'] }), { id: EARLIER });
  const index: ReleaseIndex = { index_version: 1, releases: [record(EARLIER, '2025-02-03T04:05:06.000Z'), record(LIVE, '2025-03-03T04:05:06.000Z')] };
  const files = { ...samplePublicationFiles({ runId: 'live', months: ['2025-01', '2025-02'] }) };
  const live = await writePublication(out, files, { id: LIVE });
  await writeFile(path.join(live.dir, 'releases.json'), JSON.stringify(index));
  // The earlier release's manifest cannot be read: any answer that needed it would be a 503.
  await writeFile(path.join(earlier.dir, 'manifest.json'), 'not a manifest');
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
});

afterAll(async () => {
  await server?.close();
  await dirs.removeAll();
});

describe('an earlier release', () => {
  it.each([
    '/data/cards/agentic-commerce/2025-01/made-up-123456.png',
    '/api/data/agentic-commerce/2024-12',
    '/api/data/methodology/csv',
  ])('answers %s, naming no file of it, 404 without reading its manifest', async (p) => {
    const res = await raw(server.url, `/releases/${EARLIER}${p}`);
    expect(res.status).toBe(404);
    expect(JSON.parse(res.text)).toMatchObject({ type: expect.stringMatching(/\/not-found$/) });
  });

  it('answers a file it holds from its manifest (here unreadable: 503, retried later)', async () => {
    const res = await raw(server.url, `/releases/${EARLIER}/api/data/agentic-commerce/2025-01`);
    expect(res.status).toBe(503);
    expect(res.headers['retry-after']).toBe('1');
  });
});

/** `count` earlier releases (each its own run) and a live one listing them all; the folders and the live release's id. */
async function manyReleases(count: number): Promise<{ out: string; earlier: { id: string; dir: string; run: string }[]; live: string }> {
  const out = await dirs.make();
  const earlier = [];
  for (let i = 0; i < count; i++) {
    const id = `202501${String(i + 10).padStart(2, '0')}T040506000Z-${String(i).padStart(6, 'a')}`;
    const run = `run-${i}`;
    const r = await writeRelease(out, samplePublicationFiles({ runId: run, months: ['2025-01'] }), { id });
    earlier.push({ id, dir: r.dir, run });
  }
  const live = await writePublication(out, samplePublicationFiles({ runId: 'live', months: ['2025-01', '2025-02'] }), { id: LIVE });
  const index: ReleaseIndex = {
    index_version: 1,
    releases: [...earlier.map((r) => record(r.id, '2025-01-01T00:00:00.000Z')), record(LIVE, '2025-03-03T04:05:06.000Z')],
  };
  await writeFile(path.join(live.dir, 'releases.json'), JSON.stringify(index));
  return { out, earlier, live: live.id };
}

const unreadable = (dir: string) => writeFile(path.join(dir, 'manifest.json'), 'not a manifest');

describe('a crawler walking more releases than were once kept (sixteen), URL by URL', () => {
  it('reads each manifest once: every later URL of a release is answered as its manifest says', async () => {
    const { out, earlier } = await manyReleases(20);
    const crawled = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    try {
      for (const r of earlier) expect((await raw(crawled.url, `/releases/${r.id}/api/data/agentic-commerce/2025-01`)).status).toBe(200);
      // Had any manifest to be read again, its URLs would now answer 503.
      await Promise.all(earlier.map((r) => unreadable(r.dir)));
      for (const r of earlier) {
        const doc = await raw(crawled.url, `/releases/${r.id}/api/data/platform-stores`);
        expect(doc.status).toBe(200);
        expect(doc.headers.etag).toBe(jsonEtag('platform-stores', '2025-01', r.run));
        expect(JSON.parse(doc.text)).toMatchObject({ completed_at: r.run });
        const card = await raw(crawled.url, `/releases/${r.id}/data/cards/platform-stores/2025-01/share-all-abc123.png`);
        expect(card.status).toBe(200);
      }
    } finally {
      await crawled.close();
    }
  });

  it('answers 404 for a file of the release folder its manifest does not list, though the live one lists it', async () => {
    const { out, earlier } = await manyReleases(1);
    const live = await loadPublication(path.join(out, '.releases', LIVE));
    const releases = new ReleaseArtifacts();
    const [r] = earlier;
    const stray = path.join(r.dir, 'api', 'data', 'agentic-commerce', '2025-02.json');
    await writeFile(stray, '{}');
    expect(await releases.find(live, r.id, 'api/data/agentic-commerce/2025-02.json')).toBeNull();
    expect(await releases.find(live, r.id, 'api/data/agentic-commerce/2025-01.json')).toMatchObject({
      etag: jsonEtag('agentic-commerce', '2025-01', r.run),
    });
  });

  it('keeps the most recently used releases up to its bound of entries, and reads an evicted one again', async () => {
    const { out, earlier } = await manyReleases(3);
    const live = await loadPublication(path.join(out, '.releases', LIVE));
    // Each earlier release counts 18 (13 entries the live one lists otherwise, 4 it lacks, and
    // itself): two fit in 40, three do not.
    const releases = new ReleaseArtifacts(40);
    const key = 'api/data/platform-stores.json';
    for (const r of earlier) await releases.find(live, r.id, key);
    expect(releases.entriesHeld).toBe(36);
    await Promise.all(earlier.map((r) => unreadable(r.dir)));
    await expect(releases.find(live, earlier[0].id, key)).rejects.toThrow(/manifest\.json is not valid JSON/);
    for (const r of earlier.slice(1)) expect(await releases.find(live, r.id, key)).toMatchObject({ etag: jsonEtag('platform-stores', '2025-01', r.run) });
  });
});
