/**
 * What a URL under `/releases/{id}/…` costs: a release other than the live one is looked up in
 * its manifest, read and checked whole when it is not among the few kept in memory. A URL of
 * the right shape naming no file (any card name, any month) is answered from the release folder
 * alone, so cycling such URLs over many releases never makes the server read manifests.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReleaseIndex } from '../../src/publish/release-index.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { samplePublicationFiles, writePublication, writeRelease } from '../helpers/publication.js';
import { tempDirs } from '../helpers/tmp.js';
import { raw } from './http.js';

const dirs = tempDirs('storelens-release-lookup-');
const EARLIER = '20250203T040506000Z-aaaaaa';
const LIVE = '20250303T040506000Z-bbbbbb';
let server: RunningServer;

beforeAll(async () => {
  const out = await dirs.make();
  const earlier = await writeRelease(out, samplePublicationFiles({ runId: 'earlier', months: ['2025-01'] }), { id: EARLIER });
  const record = (id: string, completed_at: string) => ({
    id, completed_at, months_added: [], months_corrected: [], methodology_versions: [], methodology_changes: [], feed_items: [],
  });
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
