/**
 * Every release stays citable (issue 24, item 1): after a correction, the figure a reader cited
 * from the first release is still served byte for byte at its release URL, with immutable
 * caching; `/releases.json` lists both releases with what each did; unknown ids, traversal
 * attempts and query strings get the 404 problems the latest endpoints give.
 */
import { cp } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { BASE_URL, generate, publishPanel } from '../helpers/cli.js';
import { dropRows } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';
import { raw, type RawResponse } from './http.js';

const [PRIOR, M] = ['2026-08', '2026-09'];
const T1 = new Date('2026-11-02T09:30:00.000Z');
const T2 = new Date('2026-11-09T14:00:00.000Z');
const IMMUTABLE = 'public, max-age=31536000, immutable';
const DOC = `/api/data/platform-stores/${M}`;
const CSV = '/api/data/platform-stores/csv';
const PAGE = '/data/platform-stores';

const dirs = tempDirs('storelens-releases-');
let server: RunningServer;
let first: string;
let second: string;
/** the months the correction corrected */
let corrected: string[];
/** what the latest URLs answered before the correction */
const cited = new Map<string, RawResponse>();

beforeAll(async () => {
  const root = await dirs.make();
  const input = path.join(root, 'panel');
  const fixed = path.join(root, 'panel-corrected');
  const out = path.join(root, 'out');
  await generate(input, { stores: 300, seed: '24', from: PRIOR, to: M });
  first = (await publishPanel(input, out, { now: () => T1 })).release!;
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
  for (const p of [DOC, CSV, PAGE]) cited.set(p, await raw(server.url, p));

  await cp(input, fixed, { recursive: true });
  await dropRows(path.join(fixed, `${M}.csv`), 10);
  const correction = await publishPanel(fixed, out, { months: M, now: () => T2 });
  // (dropping stores can drop a breakdown value, which corrects every month that listed it)
  expect(correction.corrections).toContain(M);
  corrected = correction.corrections;
  second = correction.release!;
  await server.serve.live.refresh();
}, 120_000);

afterAll(async () => {
  await server?.close();
  await dirs.removeAll();
});

describe('a release URL', () => {
  it('serves the superseded figure byte for byte after a correction', async () => {
    for (const p of [DOC, CSV, PAGE]) {
      const latest = await raw(server.url, p);
      expect(latest.body.equals(cited.get(p)!.body), `${p} changed with the correction`).toBe(false);
      const old = await raw(server.url, `/releases/${first}${p}`);
      expect(old.status, p).toBe(200);
      expect(old.body.equals(cited.get(p)!.body), p).toBe(true);
      expect(old.headers.etag, p).toBe(cited.get(p)!.headers.etag);
      expect(old.headers['content-type'], p).toBe(cited.get(p)!.headers['content-type']);
      const now = await raw(server.url, `/releases/${second}${p}`);
      expect(now.body.equals(latest.body), p).toBe(true);
      expect(now.headers.etag, p).toBe(latest.headers.etag);
    }
  });

  it('is cached for a year as immutable, answers 304 to its ETag and HEAD without a body', async () => {
    const url = `/releases/${first}${DOC}`;
    const ok = await raw(server.url, url);
    expect(ok.headers['cache-control']).toBe(IMMUTABLE);
    expect(ok.headers.expires, 'its max-age is every cache\'s freshness').toBeUndefined();
    expect(ok.headers['last-modified']).toBe(T1.toUTCString());
    const notModified = await raw(server.url, url, { headers: { 'If-None-Match': ok.headers.etag as string } });
    expect(notModified.status).toBe(304);
    expect(notModified.headers['cache-control']).toBe(IMMUTABLE);
    expect(notModified.body.length).toBe(0);
    const head = await raw(server.url, url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers['content-length']).toBe(String(ok.body.length));
    expect(head.body.length).toBe(0);
  });

  it('answers a path with percent-encoded unreserved characters as the same URL', async () => {
    const plain = await raw(server.url, `/releases/${first}${DOC}`);
    const encoded = await raw(server.url, `/%72eleases/${first.replace('T', '%54')}/api/data/platform%2Dstores/${M.replace('-', '%2d')}`);
    expect(encoded.status).toBe(200);
    expect(encoded.body.equals(plain.body)).toBe(true);
    expect(encoded.headers.etag).toBe(plain.headers.etag);
    expect((await raw(server.url, `/releases/${first}/api/data/platform-stores%2F${M}`)).status).toBe(404);
  });

  it('leaves the latest URLs on their own caching', async () => {
    expect((await raw(server.url, DOC)).headers['cache-control']).toBe('public, s-maxage=3600');
  });
});

describe('/releases.json', () => {
  it('lists both releases, newest first, with what each did and its feed items', async () => {
    const res = await raw(server.url, '/releases.json');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
    const { releases } = JSON.parse(res.text) as { releases: Array<Record<string, unknown>> };
    expect(releases.map((r) => r.id)).toEqual([second, first]);
    expect(releases[0]).toMatchObject({
      completed_at: T2.toISOString(), months_added: [], months_corrected: corrected, methodology_changes: [], path: `/releases/${second}`,
    });
    const items = releases[0]!.feed_items as Array<{ guid: string; link: string }>;
    expect(items.map((i) => i.guid).sort()).toEqual(corrected.map((m) => `correction:${m}:${T2.toISOString()}`).sort());
    for (const i of items) expect(i.link).toMatch(new RegExp(`^${BASE_URL}/data/[a-z-]+$`));
    expect(releases[1]).toMatchObject({ completed_at: T1.toISOString(), months_added: [PRIOR, M], months_corrected: [], path: `/releases/${first}` });
    expect(releases[1]!.methodology_versions).toEqual(releases[0]!.methodology_versions);
    expect((releases[1]!.feed_items as unknown[]).length).toBe(2);
    const again = await raw(server.url, '/releases.json', { headers: { 'If-None-Match': res.headers.etag as string } });
    expect(again.status).toBe(304);
  });
});

describe('what a release URL does not name', () => {
  it('answers the latest endpoints\' 404 for an unknown release id and for a file the release did not publish', async () => {
    const unpublished = await raw(server.url, '/api/data/platform-stores/2027-01');
    expect(unpublished.status).toBe(404);
    for (const p of [`/releases/20261102T093000000Z-000000${DOC}`, `/releases/${first}/api/data/platform-stores/2027-01`, `/releases/${first}/data/cards/platform-stores/${M}/active-stores.png`]) {
      const res = await raw(server.url, p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).toBe(unpublished.text);
      expect(res.headers['cache-control'], p).toBe(unpublished.headers['cache-control']);
    }
  });

  it('answers 404 to traversal attempts and to malformed ids', async () => {
    for (const p of [
      `/releases/..${DOC}`, `/releases/%2e%2e${DOC}`, `/releases/${first}/../../manifest.json`, `/releases/${first}/..%2f..%2fstate.json`,
      `/releases/current${DOC}`, `/releases/${first}.tmp${DOC}`, `/releases/${first}/manifest.json`, `/releases/${first}/state.json`,
      `/releases/${first}/releases.json`, `/releases/${first}`, `/releases/${first}/`, '/releases', '/releases/',
    ]) {
      const res = await raw(server.url, p);
      expect(res.status, p).toBe(404);
      expect(res.headers['content-type'], p).toBe('application/problem+json; charset=utf-8');
    }
  });

  it('answers 404 to a query string, as the latest endpoints do', async () => {
    const latest = await raw(server.url, `${DOC}?v=1`);
    for (const p of ['/releases.json?v=1', `/releases/${first}${DOC}?v=1`]) {
      const res = await raw(server.url, p);
      expect(res.status, p).toBe(404);
      expect(res.text, p).toBe(latest.text);
    }
  });
});
