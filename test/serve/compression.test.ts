/**
 * Content codings of the public artifacts over real sockets (raw node:http, so every header is
 * seen as sent and nothing is decoded on the way): br and gzip chosen from Accept-Encoding for
 * the text files, each coding with its own ETag, `Vary: Accept-Encoding`, 304s per
 * representation, HEAD, and the live release swapped under a cache of compressed bodies.
 */
import { randomBytes } from 'node:crypto';
import { readFile, rm } from 'node:fs/promises';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { manifestKeyToPath } from '../../src/core/public-paths.js';
import { COMPRESSIBLE_MIN_BYTES } from '../../src/http/accept-encoding.js';
import { MAX_CONCURRENT_COMPRESSIONS } from '../../src/serve/encoded-body.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { jsonEtag, writePublication, writeRelease, switchCurrent, type FileSpec, type WrittenRelease } from '../helpers/publication.js';
import { liveRelease } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';
import { raw, type RawResponse } from './http.js';

const dirs = tempDirs('storelens-codings-');

/** The body as sent, decoded by its Content-Encoding. */
function decoded(res: RawResponse): Buffer {
  const coding = res.headers['content-encoding'];
  if (coding === undefined) return res.body;
  if (coding === 'gzip') return gunzipSync(res.body);
  if (coding === 'br') return brotliDecompressSync(res.body);
  throw new Error(`unexpected Content-Encoding ${String(coding)}`);
}

const withSuffix = (etag: string, coding: string | undefined) => (coding === undefined ? etag : `${etag.slice(0, -1)}-${coding}"`);
const get = (base: string, url: string, headers: Record<string, string> = {}, method = 'GET') => raw(base, url, { method, headers });

describe('a published panel', () => {
  let server: RunningServer;
  let release: { id: string; dir: string; manifest: WrittenRelease['manifest'] };
  let out: string;

  beforeAll(async () => {
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    out = path.join(root, 'out');
    await generate(input, { stores: 300, seed: 'codings', from: '2026-01', to: '2026-02' });
    await publishPanel(input, out);
    release = await liveRelease(out);
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
  }, 120_000);

  afterAll(async () => {
    await server?.close();
    await dirs.removeAll();
  });

  const textFiles = () => Object.entries(release.manifest.files).filter(([, e]) => e.content_type !== 'image/png');

  it('sends every text file in br, gzip or as it is by Accept-Encoding, each decoding to the published bytes', async () => {
    const compressedTypes = new Set<string>();
    for (const [key, entry] of textFiles()) {
      const url = manifestKeyToPath(key)!;
      const file = await readFile(path.join(release.dir, key));
      const big = entry.bytes >= COMPRESSIBLE_MIN_BYTES;
      for (const [ae, coding] of [
        [undefined, undefined],
        ['gzip', 'gzip'],
        ['br', 'br'],
        ['gzip, deflate, br, zstd', 'br'],
        ['gzip;q=1, br;q=0.5', 'gzip'],
      ] as const) {
        const res = await get(server.url, url, ae === undefined ? {} : { 'accept-encoding': ae });
        const sent = big ? coding : undefined;
        expect(res.status, `${url} ${ae}`).toBe(200);
        expect(res.headers['content-encoding'], `${url} ${ae}`).toBe(sent);
        expect(decoded(res).equals(file), `${url} ${ae}: decoded bytes`).toBe(true);
        expect(res.headers['content-length'], `${url} ${ae}`).toBe(String(res.body.length));
        expect(res.headers.etag, `${url} ${ae}`).toBe(withSuffix(entry.etag, sent));
        expect(res.headers.vary, `${url} ${ae}`).toBe(big ? 'Accept-Encoding' : undefined);
        expect(res.headers['content-type']).toBe(entry.content_type);
        expect(res.headers['last-modified']).toBe(entry.last_modified);
        expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
        if (sent !== undefined) {
          expect(res.body.length, `${url} ${ae}`).toBeLessThan(file.length);
          compressedTypes.add(entry.content_type.split(';')[0]);
        }
      }
    }
    // Not vacuous: every text type of a publication went out compressed.
    expect([...compressedTypes].sort()).toEqual(['application/json', 'application/rss+xml', 'text/csv', 'text/html', 'text/markdown']);
  });

  it('answers HEAD with the headers of the GET, the length being that of the bytes a GET sends', async () => {
    for (const [key, entry] of textFiles()) {
      const url = manifestKeyToPath(key)!;
      for (const ae of [undefined, 'gzip', 'br']) {
        const headers: Record<string, string> = ae === undefined ? {} : { 'accept-encoding': ae };
        const head = await get(server.url, url, headers, 'HEAD');
        const full = await get(server.url, url, headers);
        expect(head.body.length).toBe(0);
        expect(head.headers['content-encoding'], url).toBe(entry.bytes >= COMPRESSIBLE_MIN_BYTES ? ae : undefined);
        for (const name of ['content-encoding', 'content-length', 'etag', 'vary', 'content-type']) {
          expect(head.headers[name], `${url} ${ae} ${name}`).toBe(full.headers[name]);
        }
      }
    }
  });

  it('compresses a page of an older release under /releases/{id} as well', async () => {
    const url = `/releases/${release.id}/data/platform-stores`;
    const file = await readFile(path.join(release.dir, 'data/platform-stores.html'));
    const res = await get(server.url, url, { 'accept-encoding': 'br' });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers.etag).toBe(withSuffix(release.manifest.files['data/platform-stores.html'].etag, 'br'));
    expect(decoded(res).equals(file)).toBe(true);
  });

  it('answers 503 when the file to compress has gone from its release folder', async () => {
    const url = `/releases/${release.id}/data/methodology.md`;
    // A server that has not compressed those bytes yet (compressions are kept by their ETag).
    const fresh = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    try {
      await fresh.serve.live.refresh();
      await rm(path.join(release.dir, 'data/methodology.md'));
      for (const ae of ['gzip', 'br']) {
        const res = await get(fresh.url, url, { 'accept-encoding': ae });
        expect(res.status).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.headers['content-encoding']).toBeUndefined();
      }
      // The server goes on answering.
      expect((await get(fresh.url, `/releases/${release.id}/data/platform-stores`, { 'accept-encoding': 'gzip' })).status).toBe(200);
    } finally {
      await fresh.close();
    }
  });
});

/** A statistics document long enough to compress, naming its run. */
function bigDocument(slug: string, month: string, runId: string): FileSpec {
  const stats = Array.from({ length: 300 }, (_, i) => ({ id: `stat-${i}:all`, value: i / 7, sentence: `Stat ${i} of ${slug} in ${month} (${runId}).` }));
  return { body: JSON.stringify({ slug, month, completed_at: runId, stats }), etag: jsonEtag(slug, month, runId) };
}

const DOC = '/api/data/agentic-commerce';
const DOC_KEY = 'api/data/agentic-commerce.json';
const CARD = '/data/cards/agentic-commerce/2025-02/share-all-abc123.png';
const CARD_KEY = 'data/cards/agentic-commerce/2025-02/share-all-abc123.png';

function handMade(runId: string, noise: Buffer): Record<string, FileSpec> {
  return {
    [DOC_KEY]: bigDocument('agentic-commerce', '2025-02', runId),
    'api/data/agentic-commerce/2025-02.json': bigDocument('agentic-commerce', '2025-02', runId),
    // A month of its own bytes (2025-02's are the latest document's), asked for by one test only.
    'api/data/agentic-commerce/2025-01.json': bigDocument('agentic-commerce', '2025-01', runId),
    // Zeros: as compressible as bytes get, but a PNG is never sent compressed.
    [CARD_KEY]: { body: Buffer.alloc(64 * 1024) },
    'data/agentic-commerce.md': { body: `# agentic-commerce\n\n${runId}\n` }, // under a kilobyte
    // Random bytes: no coding makes them smaller.
    'data/platform-stores.md': { body: noise },
    'data/platform-stores.html': { body: `<!doctype html><title>platform-stores</title>${'<p>row</p>'.repeat(500)}` },
  };
}

describe('negotiation and validators', () => {
  let out: string;
  let server: RunningServer;
  let release: WrittenRelease;
  const noise = randomBytes(4096);

  beforeAll(async () => {
    out = await dirs.make();
    release = await writePublication(out, handMade('run-A', noise));
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
  });

  afterAll(async () => {
    await server?.close();
    await dirs.removeAll();
  });

  const etag = (key = DOC_KEY) => release.manifest.files[key].etag;

  it.each<[string, 'br' | 'gzip' | undefined]>([
    ['gzip;q=0', undefined],
    ['br;q=0, gzip;q=0', undefined],
    ['br;q=0, gzip', 'gzip'],
    ['identity;q=0', undefined], // nothing acceptable is offered: the file as it is, not a 406
    ['identity;q=0, gzip', 'gzip'],
    ['*', 'br'],
    ['br;q=0, *', 'gzip'],
    ['*;q=0', undefined],
    ['identity, gzip;q=0.5', undefined],
    ['GZIP', 'gzip'],
    ['', undefined],
  ])('Accept-Encoding %j ⇒ %s', async (ae, coding) => {
    const res = await get(server.url, DOC, { 'accept-encoding': ae });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe(coding);
    expect(res.headers.etag).toBe(withSuffix(etag(), coding));
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(decoded(res).equals(Buffer.from(handMade('run-A', noise)[DOC_KEY].body))).toBe(true);
  });

  it('never compresses a PNG, whatever the client takes, and sends it without Vary', async () => {
    for (const ae of ['gzip', 'br', '*', 'identity;q=0, gzip', 'identity;q=0']) {
      for (const method of ['GET', 'HEAD']) {
        const res = await get(server.url, CARD, { 'accept-encoding': ae }, method);
        expect(res.status).toBe(200);
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.vary).toBeUndefined();
        expect(res.headers.etag).toBe(etag(CARD_KEY));
        expect(res.headers['content-length']).toBe(String(64 * 1024));
        if (method === 'GET') expect(res.body.equals(Buffer.alloc(64 * 1024))).toBe(true);
      }
    }
  });

  it('sends a body under a kilobyte as it is, without Vary', async () => {
    const res = await get(server.url, '/data/agentic-commerce.md', { 'accept-encoding': 'br, gzip' });
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.headers.vary).toBeUndefined();
    expect(res.text).toBe('# agentic-commerce\n\nrun-A\n');
  });

  it('sends the file as it is when the compressed bytes would not be smaller, with the file ETag and its 304', async () => {
    for (const ae of ['br', 'gzip', 'identity;q=0, gzip']) {
      const res = await get(server.url, '/data/platform-stores.md', { 'accept-encoding': ae });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers.etag).toBe(etag('data/platform-stores.md'));
      expect(res.headers.vary).toBe('Accept-Encoding');
      expect(res.body.equals(noise)).toBe(true);
      const again = await get(server.url, '/data/platform-stores.md', { 'accept-encoding': ae, 'if-none-match': res.headers.etag as string });
      expect(again.status).toBe(304);
      expect(again.headers.etag).toBe(res.headers.etag);
    }
  });

  it("answers 304 to each representation's own ETag, with that ETag and Vary, and 200 to another's", async () => {
    for (const [ae, coding] of [[undefined, undefined], ['gzip', 'gzip'], ['br', 'br']] as const) {
      const accept: Record<string, string> = ae === undefined ? {} : { 'accept-encoding': ae };
      const first = await get(server.url, DOC, accept);
      const tag = first.headers.etag as string;
      expect(tag).toBe(withSuffix(etag(), coding));
      for (const inm of [tag, `W/${tag}`, `"other", ${tag}`]) {
        for (const method of ['GET', 'HEAD']) {
          const res = await get(server.url, DOC, { ...accept, 'if-none-match': inm }, method);
          expect(res.status, `${ae} ${inm} ${method}`).toBe(304);
          expect(res.headers.etag).toBe(tag);
          expect(res.headers.vary).toBe('Accept-Encoding');
          expect(res.headers['content-encoding']).toBeUndefined();
          expect(res.body.length).toBe(0);
        }
      }
      // The tags of the other representations name other bytes: this one is sent in full.
      for (const other of [undefined, 'gzip', 'br'].filter((c) => c !== coding)) {
        const res = await get(server.url, DOC, { ...accept, 'if-none-match': withSuffix(etag(), other) });
        expect(res.status, `${ae} holding ${other}`).toBe(200);
        expect(res.headers.etag).toBe(tag);
        expect(decoded(res).equals(decoded(first))).toBe(true);
      }
    }
  });

  it('sends a client that held the file as it was, and now takes gzip, the gzip representation in full', async () => {
    const res = await get(server.url, DOC, { 'accept-encoding': 'gzip', 'if-none-match': etag() });
    expect(res.status).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(res.headers.etag).toBe(withSuffix(etag(), 'gzip'));
  });

  it('tells a shared cache holding several representations which one to use', async () => {
    const held = [undefined, 'gzip', 'br'].map((c) => withSuffix(etag(), c)).join(', ');
    for (const [ae, coding] of [['gzip', 'gzip'], ['br, gzip', 'br'], ['identity', undefined]] as const) {
      const res = await get(server.url, DOC, { 'accept-encoding': ae, 'if-none-match': held });
      expect(res.status).toBe(304);
      expect(res.headers.etag).toBe(withSuffix(etag(), coding));
    }
  });

  it('answers If-None-Match: * and If-Modified-Since with the ETag of the representation it would send', async () => {
    const lastModified = release.manifest.files[DOC_KEY].last_modified;
    for (const cond of [{ 'if-none-match': '*' }, { 'if-modified-since': lastModified }] as Array<Record<string, string>>) {
      for (const [ae, coding] of [[undefined, undefined], ['gzip', 'gzip'], ['br', 'br']] as const) {
        const accept: Record<string, string> = ae === undefined ? {} : { 'accept-encoding': ae };
        const res = await get(server.url, DOC, { ...cond, ...accept });
        expect(res.status).toBe(304);
        expect(res.headers.etag).toBe(withSuffix(etag(), coding));
        expect(res.headers.vary).toBe('Accept-Encoding');
      }
    }
  });

  it('compresses a body once for concurrent first requests, and keeps it', async () => {
    const before = server.serve.encoded.compressions;
    const url = '/api/data/agentic-commerce/2025-01';
    const answers = await Promise.all(Array.from({ length: 8 }, () => get(server.url, url, { 'accept-encoding': 'gzip' })));
    const again = await get(server.url, url, { 'accept-encoding': 'gzip' });
    expect(server.serve.encoded.compressions - before).toBe(1);
    for (const res of [...answers, again]) {
      expect(res.headers['content-encoding']).toBe('gzip');
      expect(res.body.equals(answers[0].body)).toBe(true);
    }
  });
});

describe('bounds and swaps', () => {
  let server: RunningServer | undefined;

  afterEach(async () => {
    await server?.close();
    server = undefined;
    await dirs.removeAll();
  });

  it('keeps the compressed bodies within their bound, compressing again what does not fit', async () => {
    const out = await dirs.make();
    await writePublication(out, handMade('run-A', randomBytes(4096)));
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 }, encodedCacheBytes: 600 });
    const file = Buffer.from(handMade('run-A', Buffer.alloc(0))[DOC_KEY].body);
    for (let i = 0; i < 3; i++) {
      const res = await get(server.url, DOC, { 'accept-encoding': 'gzip' });
      expect(res.body.length).toBeGreaterThan(600);
      expect(gunzipSync(res.body).equals(file)).toBe(true);
    }
    expect(server.serve.encoded.compressions).toBe(3);
    expect(server.serve.encoded.heldBytes).toBeLessThanOrEqual(600);
  });

  it('compresses at most MAX_CONCURRENT_COMPRESSIONS files at once: the next file waits for no slot, it is sent as it is', async () => {
    const out = await dirs.make();
    await writePublication(out, handMade('run-A', randomBytes(4096)));
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    const { encoded, live } = server.serve;
    const file = (path: string) => live.current!.byPath.get(path)!;
    // Three files of distinct bytes: two hold the slots, the third finds none.
    const under = ['/api/data/agentic-commerce/2025-01', '/api/data/agentic-commerce/2025-02'].map(file);
    expect(MAX_CONCURRENT_COMPRESSIONS).toBe(under.length);
    const busy = under.map((a) => encoded.encode(a, 'gzip'));
    const third = file('/data/platform-stores');
    expect(encoded.available(third, 'gzip')).toBe(false);
    // One under way is shared, not a slot more.
    expect(encoded.available(under[0], 'gzip')).toBe(true);
    await Promise.all(busy);
    expect(encoded.available(third, 'gzip')).toBe(true);
    // The same bytes at another URL (the latest document is its month's) are kept once.
    const compressions = encoded.compressions;
    const latest = await get(server.url, DOC, { 'accept-encoding': 'gzip' });
    expect(latest.headers['content-encoding']).toBe('gzip');
    expect(encoded.compressions).toBe(compressions);
  });

  it("answers a revalidation of a compressed representation 304 without compressing the file again", async () => {
    const out = await dirs.make();
    const release = await writePublication(out, handMade('run-A', randomBytes(4096)));
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    const tag = withSuffix(release.manifest.files[DOC_KEY].etag, 'br');
    const res = await get(server.url, DOC, { 'accept-encoding': 'br', 'if-none-match': tag });
    expect(res.status).toBe(304);
    expect(res.headers.etag).toBe(tag);
    expect(res.headers.vary).toBe('Accept-Encoding');
    expect(server.serve.encoded.compressions).toBe(0);
    // `*` names no representation: which one would be sent is known once it is compressed.
    const any = await get(server.url, DOC, { 'accept-encoding': 'br', 'if-none-match': '*' });
    expect(any.status).toBe(304);
    expect(any.headers.etag).toBe(tag);
    expect(server.serve.encoded.compressions).toBe(1);
  });

  it('serves the new release compressed after a swap, never the old compressed body', async () => {
    const out = await dirs.make();
    const noise = randomBytes(4096);
    const a = await writePublication(out, handMade('run-A', noise));
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    const html = 'data/platform-stores.html'; // the same bytes in both releases
    const seen = async (coding: 'gzip' | 'br') => {
      const res = await get(server!.url, DOC, { 'accept-encoding': coding });
      return { etag: res.headers.etag, completedAt: JSON.parse(decoded(res).toString('utf8')).completed_at as string };
    };
    const pageA = await get(server.url, '/data/platform-stores', { 'accept-encoding': 'br' });
    expect(await seen('gzip')).toEqual({ etag: withSuffix(a.manifest.files[DOC_KEY].etag, 'gzip'), completedAt: 'run-A' });
    expect(await seen('br')).toEqual({ etag: withSuffix(a.manifest.files[DOC_KEY].etag, 'br'), completedAt: 'run-A' });

    const b = await writeRelease(out, handMade('run-B', noise));
    await switchCurrent(out, b.id);
    await server.serve.live.refresh();
    expect(b.manifest.files[DOC_KEY].etag).not.toBe(a.manifest.files[DOC_KEY].etag);
    expect(await seen('gzip')).toEqual({ etag: withSuffix(b.manifest.files[DOC_KEY].etag, 'gzip'), completedAt: 'run-B' });
    expect(await seen('br')).toEqual({ etag: withSuffix(b.manifest.files[DOC_KEY].etag, 'br'), completedAt: 'run-B' });
    // A client holding the old release's gzip tag gets the new one in full.
    const stale = await get(server.url, DOC, { 'accept-encoding': 'gzip', 'if-none-match': withSuffix(a.manifest.files[DOC_KEY].etag, 'gzip') });
    expect(stale.status).toBe(200);
    expect(JSON.parse(gunzipSync(stale.body).toString('utf8')).completed_at).toBe('run-B');
    // A file the new release left as it was keeps its tag (and its 304).
    const pageB = await get(server.url, '/data/platform-stores', { 'accept-encoding': 'br', 'if-none-match': pageA.headers.etag as string });
    expect(b.manifest.files[html].etag).toBe(a.manifest.files[html].etag);
    expect(pageB.status).toBe(304);
  });
});
