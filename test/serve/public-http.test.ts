import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { samplePublicationFiles, writePublication, type WrittenRelease } from '../helpers/publication.js';
import { raw } from './http.js';

let out: string;
let server: RunningServer;
let release: WrittenRelease;

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-serve-'));
  release = await writePublication(out, samplePublicationFiles({ runId: 'run-A', months: ['2025-01', '2025-02'] }));
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
});

afterAll(async () => {
  await server?.close();
  await rm(out, { recursive: true, force: true });
});

const ROUTES: Array<[url: string, key: string, contentType: string]> = [
  ['/api/data/agentic-commerce', 'api/data/agentic-commerce.json', 'application/json; charset=utf-8'],
  ['/api/data/agentic-commerce/2025-01', 'api/data/agentic-commerce/2025-01.json', 'application/json; charset=utf-8'],
  ['/api/data/platform-stores/2025-02', 'api/data/platform-stores/2025-02.json', 'application/json; charset=utf-8'],
  ['/api/data/agentic-commerce/csv', 'api/data/agentic-commerce.csv', 'text/csv; charset=utf-8'],
  ['/data/agentic-commerce', 'data/agentic-commerce.html', 'text/html; charset=utf-8'],
  ['/data/agentic-commerce.md', 'data/agentic-commerce.md', 'text/markdown; charset=utf-8'],
  ['/data/rss.xml', 'data/rss.xml', 'application/rss+xml; charset=utf-8'],
  [
    '/data/cards/agentic-commerce/2025-02/share-all-abc123.png',
    'data/cards/agentic-commerce/2025-02/share-all-abc123.png',
    'image/png',
  ],
];

function expectProblem(res: { status: number; headers: Record<string, unknown>; text: string }, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  const body = JSON.parse(res.text);
  expect(body).toMatchObject({ status, type: expect.stringMatching(/^https:\/\/.+\/problems\/[a-z-]+$/) });
  expect(typeof body.title).toBe('string');
  expect(typeof body.detail).toBe('string');
  return body;
}

function expectPublic404(res: { status: number; headers: Record<string, unknown>; text: string }) {
  const body = expectProblem(res, 404);
  expect(res.headers['cache-control']).toBe('public, s-maxage=60');
  expect(res.headers.etag).toBeUndefined();
  expect(res.headers['last-modified']).toBeUndefined();
  return body;
}

describe("the server's own address", () => {
  it('sends GET and HEAD of / to the first statistics page, which answers', async () => {
    for (const method of ['GET', 'HEAD'] as const) {
      const res = await raw(server.url, '/', { method });
      expect(res.status).toBe(302);
      expect(res.headers.location).toBe('/data/platform-stores');
      expect(res.headers['cache-control']).toBe('no-store');
    }
    expect((await raw(server.url, '/data/platform-stores')).status).toBe(200);
  });
});

describe('artifact responses', () => {
  it.each(ROUTES)('GET %s answers the manifest bytes with the public headers', async (url, key, contentType) => {
    const entry = release.manifest.files[key];
    const res = await fetch(server.url + url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe(contentType);
    expect(res.headers.get('cache-control')).toBe('public, s-maxage=3600');
    // For a browser, which reads no s-maxage: already stale, so it revalidates rather than guess a freshness from Last-Modified.
    expect(res.headers.get('expires')).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
    expect(res.headers.get('etag')).toBe(entry.etag);
    expect(res.headers.get('last-modified')).toBe(entry.last_modified);
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('content-length')).toBe(String(entry.bytes));
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(entry.bytes);
  });

  it.each(ROUTES)('HEAD %s carries the same headers and no body', async (url) => {
    const get = await raw(server.url, url);
    const head = await raw(server.url, url, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const h of ['content-type', 'content-length', 'cache-control', 'expires', 'etag', 'last-modified', 'access-control-allow-origin']) {
      expect(head.headers[h], h).toBe(get.headers[h]);
    }
  });

  it('answers the latest document at /api/data/{slug} and a given month at /api/data/{slug}/{month}', async () => {
    const latest = await (await fetch(`${server.url}/api/data/agentic-commerce`)).json();
    const jan = await (await fetch(`${server.url}/api/data/agentic-commerce/2025-01`)).json();
    expect(latest).toMatchObject({ slug: 'agentic-commerce', month: '2025-02', schema_version: 1 });
    expect(jan).toMatchObject({ slug: 'agentic-commerce', month: '2025-01' });
  });

  it('accepts a bare "?" as an empty query string', async () => {
    const res = await raw(server.url, '/api/data/agentic-commerce?');
    expect(res.status).toBe(200);
  });
});

describe('conditional requests', () => {
  const url = '/api/data/agentic-commerce';
  const etag = () => release.manifest.files['api/data/agentic-commerce.json'].etag;
  const forms: Array<[string, () => string]> = [
    ['a single ETag', () => etag()],
    ['a comma list', () => `"nope", ${etag()} , "other"`],
    ['a list without spaces', () => `"nope",${etag()}`],
    ['*', () => '*'],
    ['a weak ETag', () => `W/${etag()}`],
    ['a weak ETag inside a list', () => `W/"x", W/${etag()}`],
  ];

  it.each(forms)('answers 304 to If-None-Match with %s, keeping the validators', async (_name, value) => {
    const res = await raw(server.url, url, { headers: { 'If-None-Match': value() } });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
    expect(res.headers.etag).toBe(etag());
    expect(res.headers['last-modified']).toBe(release.manifest.files['api/data/agentic-commerce.json'].last_modified);
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
    expect(res.headers.expires).toBe('Thu, 01 Jan 1970 00:00:00 GMT');
    expect(res.headers['access-control-allow-origin']).toBe('*');
  });

  it.each(ROUTES)('answers 304 on %s to its own ETag, GET and HEAD', async (u, key) => {
    const tag = release.manifest.files[key].etag;
    for (const method of ['GET', 'HEAD']) {
      const res = await raw(server.url, u, { method, headers: { 'If-None-Match': tag } });
      expect(res.status).toBe(304);
      expect(res.headers.etag).toBe(tag);
    }
  });

  it('answers 200 when no listed ETag matches', async () => {
    for (const value of ['"nope"', 'W/"nope", "other"', etag().slice(0, -2) + '"', 'garbage', '""']) {
      const res = await raw(server.url, url, { headers: { 'If-None-Match': value } });
      expect(res.status, value).toBe(200);
    }
  });

  it('answers 304 to If-Modified-Since at or after Last-Modified, and ignores it when If-None-Match is sent', async () => {
    const lm = release.manifest.files['api/data/agentic-commerce.json'].last_modified;
    expect((await raw(server.url, url, { headers: { 'If-Modified-Since': lm } })).status).toBe(304);
    const earlier = new Date(Date.parse(lm) - 1000).toUTCString();
    expect((await raw(server.url, url, { headers: { 'If-Modified-Since': earlier } })).status).toBe(200);
    const both = await raw(server.url, url, { headers: { 'If-Modified-Since': lm, 'If-None-Match': '"nope"' } });
    expect(both.status).toBe(200);
  });

  it('ignores an If-Modified-Since that is not an HTTP-date, however late it reads', async () => {
    for (const since of ['2099', '2099-01-01', 'Dec 31 2099', 'Thu, 31 Dec 2099 00:00:00', 'Thu, 31 Dec 2099 00:00:00 +0100']) {
      expect((await raw(server.url, url, { headers: { 'If-Modified-Since': since } })).status, since).toBe(200);
    }
  });

  it('reads the asctime form of If-Modified-Since as GMT, whatever the server time zone', async () => {
    const lm = Date.parse(release.manifest.files['api/data/agentic-commerce.json'].last_modified);
    // An hour before Last-Modified, in asctime: read in a zone west of GMT, it would be after it.
    const d = new Date(lm - 3600_000);
    const pad = (n: number, w = 2, c = '0') => String(n).padStart(w, c);
    const asctime = `${d.toUTCString().slice(0, 3)} ${d.toUTCString().slice(8, 11)} ${pad(d.getUTCDate(), 2, ' ')} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()}`;
    const tz = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect((await raw(server.url, url, { headers: { 'If-Modified-Since': asctime } })).status, asctime).toBe(200);
    } finally {
      if (tz === undefined) delete process.env.TZ;
      else process.env.TZ = tz;
    }
  });
});

describe('not found', () => {
  it.each(ROUTES)('answers 404 problem+json to %s with a non-empty query string', async (url) => {
    for (const q of ['?x=1', '?x', '?=', '??', '?utm_source=feed&y=2']) {
      expectPublic404(await raw(server.url, url + q));
      const head = await raw(server.url, url + q, { method: 'HEAD' });
      expect(head.status).toBe(404);
      expect(head.headers['cache-control']).toBe('public, s-maxage=60');
      expect(head.headers.etag).toBeUndefined();
      expect(head.body.length).toBe(0);
    }
  });

  it.each(ROUTES)('answers 404 to %s with a trailing slash', async (url) => {
    expectPublic404(await raw(server.url, url + '/'));
  });

  it.each([
    '/api/data/unknown-slug',
    '/api/data/unknown-slug/2025-01',
    '/api/data/unknown-slug/csv',
    '/data/unknown-slug',
    '/data/unknown-slug.md',
    '/data/cards/unknown-slug/2025-02/share-all-abc123.png',
    '/api/data/Agentic-Commerce',
  ])('answers 404 to an unknown slug: %s', async (url) => {
    const body = expectPublic404(await raw(server.url, url));
    expect(body.detail).toMatch(/slug/i);
  });

  it.each(['2025-13', '2025-00', '2025-1', '202501', '25-01', '2025-01-01', 'latest', 'CSV'])(
    'answers 404 to a malformed month: %s',
    async (month) => {
      const body = expectPublic404(await raw(server.url, `/api/data/agentic-commerce/${month}`));
      expect(body.detail).toMatch(/YYYY-MM/);
    },
  );

  it.each(['/api/data/agentic-commerce/2024-12', '/api/data/agentic-commerce/2025-03', '/data/cards/agentic-commerce/2025-01/share-all-abc123.png', '/data/cards/agentic-commerce/2025-02/other-123456.png', '/data/platform-apps', '/api/data/platform-apps'])(
    'answers 404 to something never published: %s',
    async (url) => {
      const body = expectPublic404(await raw(server.url, url));
      expect(body.detail).toMatch(/published/);
    },
  );

  it.each(['/api/data', '/data', '/api/data/agentic-commerce/2025-01/x', '/data/agentic-commerce.html', '/data/agentic-commerce.json', '/api/data/agentic-commerce.json', '/data/cards', '/data/rss.xml.md'])(
    'answers 404 to a public-prefixed path that is no resource: %s',
    async (url) => {
      expectPublic404(await raw(server.url, url));
    },
  );

  it('answers a HEAD 404 with headers and no body', async () => {
    const res = await raw(server.url, '/api/data/agentic-commerce/2024-12', { method: 'HEAD' });
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, s-maxage=60');
    expect(res.body.length).toBe(0);
  });
});

describe('traversal', () => {
  it.each([
    '/data/..%2f..%2fetc/passwd',
    '/data/..%2f..%2f..%2f..%2fetc%2fpasswd',
    '/api/data/../../x',
    '/api/data/../../etc/passwd',
    '/data/../manifest.json',
    '/data/../../../../etc/passwd',
    '/data/%2e%2e/%2e%2e/etc/passwd',
    '/data/%2e%2e%2f%2e%2e%2fmanifest.json',
    '/data/..%252f..%252fetc%252fpasswd',
    '/data/%252e%252e%252fmanifest.json',
    '/data/cards/agentic-commerce/2025-02/..%2f..%2f..%2f..%2fmanifest.json',
    '/data/cards/../../manifest.json',
    '/data/cards/agentic-commerce/2025-02/../../../../../etc/passwd',
    '/api/data/agentic-commerce/..%2f..%2f..%2fmanifest',
    '/data/agentic-commerce%00.md',
    '/data/.%2e/.%2e/etc/passwd',
    '/data/..\\..\\etc\\passwd',
  ])('answers 404 problem+json to %s', async (url) => {
    const res = await raw(server.url, url);
    expectPublic404(res);
    expect(res.text).not.toMatch(/root:|manifest_version/);
  });

  it.each(['/manifest.json', '/.releases/current/manifest.json', '/api/data%2fagentic-commerce', '/%2e%2e/%2e%2e/etc/passwd', '/../../etc/passwd'])(
    'answers 404 problem+json outside the public prefixes too: %s',
    async (url) => {
      const res = await raw(server.url, url);
      expectProblem(res, 404);
      expect(res.text).not.toMatch(/root:|manifest_version/);
    },
  );
});

describe('equivalent and near-public paths', () => {
  it.each([
    ['/data/%72ss.xml', '/data/rss.xml'],
    ['/data/%72%73%73%2Exml', '/data/rss.xml'],
    ['/%64ata/rss.xml', '/data/rss.xml'],
    ['/data/%61gentic-commerce', '/data/agentic-commerce'],
    ['/api/data/agentic%2dcommerce/2025%2D01', '/api/data/agentic-commerce/2025-01'],
    ['/%61pi/data/agentic-commerce/%63sv', '/api/data/agentic-commerce/csv'],
    ['/data/cards/agentic-commerce/2025-02/share%2Dall%2dabc123.png', '/data/cards/agentic-commerce/2025-02/share-all-abc123.png'],
  ])('answers %s (an unreserved character percent-encoded) as %s, the same URL by RFC 3986', async (encoded, plain) => {
    const want = await raw(server.url, plain);
    expect(want.status).toBe(200);
    const got = await raw(server.url, encoded);
    expect(got.status).toBe(200);
    for (const h of ['content-type', 'content-length', 'etag', 'last-modified', 'cache-control']) expect(got.headers[h], h).toBe(want.headers[h]);
    expect(got.body.equals(want.body)).toBe(true);
  });

  it.each(['/data/%2e%2e/%2e%2e/etc/passwd', '/data/%2E%2E%2Fmanifest.json', '/%2e%2e/manifest.json', '/data/cards/agentic-commerce/2025-02/%2e%2e/%2e%2e/%2e%2e/%2e%2e/manifest.json', '/data/rss%2exml%00', '/data/%252e%252e/manifest.json', '/data/rss.xml%2F'])(
    'decodes no reserved character and resolves no dot segment: %s is a 404',
    async (url) => {
      const res = await raw(server.url, url);
      expect(res.status).toBe(404);
      expect(res.text).not.toMatch(/root:|manifest_version|<rss/);
    },
  );

  it.each(['//api/data/agentic-commerce', '//data/rss.xml', '///api/data/agentic-commerce/2025-01', '/api/data\\agentic-commerce', '/data\\rss.xml', '/api/data\\..\\..\\manifest.json', '//releases.json'])(
    'answers %s, aimed at the public surface, with the public 404',
    async (url) => {
      const res = await raw(server.url, url);
      expectPublic404(res);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.text).not.toMatch(/manifest_version|<rss/);
    },
  );
});

describe('methods', () => {
  const methods = ['POST', 'PUT', 'PATCH', 'DELETE'];
  it.each(ROUTES)('answers 405 with Allow: GET, HEAD, OPTIONS to other methods on %s', async (url) => {
    for (const method of methods) {
      const res = await raw(server.url, url, { method, body: method === 'POST' ? '{}' : undefined });
      expectProblem(res, 405);
      expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
    }
  });

  it('answers 405 on public paths that do not exist too', async () => {
    const res = await raw(server.url, '/api/data/agentic-commerce/2024-12', { method: 'DELETE' });
    expectProblem(res, 405);
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS');
  });

  it.each(ROUTES)('answers OPTIONS on %s with 204, the methods and a CORS preflight for revalidating', async (url) => {
    const res = await raw(server.url, url, { method: 'OPTIONS', headers: { Origin: 'https://news.example', 'Access-Control-Request-Method': 'GET', 'Access-Control-Request-Headers': 'if-none-match' } });
    expect(res.status).toBe(204);
    expect(res.body.length).toBe(0);
    expect(res.headers).toMatchObject({
      allow: 'GET, HEAD, OPTIONS',
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, HEAD',
      'access-control-allow-headers': 'If-None-Match, If-Modified-Since',
    });
  });
});
