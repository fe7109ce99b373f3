/**
 * Cards (`image/png` manifest entries) are served from their release folder on demand: the same
 * bytes and headers as a document, HEAD and 304 without the disk, a 503 problem when the file
 * vanished, a bounded LRU of bodies, and no descriptor left open on any path.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { mkdtemp, rm, truncate, unlink, writeFile } from 'node:fs/promises';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { bodyCache, sendFileBody } from '../../src/serve/file-body.js';
import { loadPublication, type FileArtifact } from '../../src/serve/publication.js';
import type { LiveEvent } from '../../src/serve/live-publication.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { samplePublicationFiles, switchCurrent, TINY_PNG, writePublication, writeRelease, type WrittenRelease } from '../helpers/publication.js';
import { raw } from './http.js';
import { until } from '../helpers/wait.js';

const SMALL = 'data/cards/agentic-commerce/2025-02/share-all-abc123.png';
const BIG = 'data/cards/agentic-commerce/2025-02/big-1.png';
const OTHER = 'data/cards/platform-stores/2025-02/share-all-abc123.png';

let out: string;
let server: RunningServer | undefined;
let release: WrittenRelease;
let events: LiveEvent[];
const bigBody = randomBytes(300 * 1024 + 7); // several read chunks

function files(runId: string) {
  return { ...samplePublicationFiles({ runId, months: ['2025-01', '2025-02'] }), [BIG]: { body: bigBody } };
}

async function start(opts: { fileCacheBytes?: number } = {}) {
  server = await startServer({
    out,
    port: 0,
    host: '127.0.0.1',
    live: { pollMs: 0, onEvent: (e) => events.push(e) },
    ...opts,
  });
  return server;
}

beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-cards-'));
  events = [];
  release = await writePublication(out, files('run-A'));
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(out, { recursive: true, force: true });
});

const fileOf = (key: string, r = release) => path.join(r.dir, key);

function expectCardHeaders(headers: Record<string, unknown>, key: string, r = release) {
  const entry = r.manifest.files[key];
  expect(headers['content-type']).toBe('image/png');
  expect(headers['content-length']).toBe(String(entry.bytes));
  expect(headers['cache-control']).toBe('public, s-maxage=3600');
  expect(headers.etag).toBe(entry.etag);
  expect(headers['last-modified']).toBe(entry.last_modified);
  expect(headers['access-control-allow-origin']).toBe('*');
  expect(headers['x-content-type-options']).toBe('nosniff');
}

function expect503(res: { status: number; headers: Record<string, unknown>; text: string }) {
  expect(res.status).toBe(503);
  expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(res.headers['retry-after']).toBe('1');
  expect(res.headers['cache-control']).toBe('no-store');
  expect(res.headers.etag).toBeUndefined();
  expect(JSON.parse(res.text)).toMatchObject({ status: 503, type: 'https://storelens.dev/problems/file-unavailable' });
}

/** Open descriptors of this process (the server runs in it). */
const openFds = () => readdirSync('/proc/self/fd').length;

/** The count once it is back to `baseline` (closes finish off the event loop: a loaded machine can take seconds), or after the deadline. */
async function fdsSettleAt(baseline: number, ms = 20_000): Promise<number> {
  const deadline = Date.now() + ms;
  let n = openFds();
  while (n > baseline && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    n = openFds();
  }
  return n;
}

describe('a card from disk', () => {
  it('is not held by the live publication, and GET answers the file byte for byte with the manifest headers', async () => {
    const s = await start();
    const pub = s.serve.live.current!;
    expect(pub.byPath.get(`/${BIG}`)!.body).toBeNull();
    expect(pub.onDiskBytes).toBe(bigBody.length + 2 * release.manifest.files[SMALL].bytes);
    expect(pub.inMemoryBytes).toBe(pub.totalBytes - pub.onDiskBytes);

    for (const key of [SMALL, BIG]) {
      for (let i = 0; i < 2; i++) { // from disk, then from the body cache
        const res = await raw(s.url, `/${key}`);
        expect(res.status).toBe(200);
        expectCardHeaders(res.headers, key);
        expect(res.body.equals(key === BIG ? bigBody : TINY_PNG)).toBe(true);
      }
    }
    // A body is kept once it is read whole; the client can see its last byte a moment before.
    await until(() => s.serve.fileCache!.size === 2);
    expect([...s.serve.fileCache!.keys()].map((k) => k.split('\0')[0]).sort()).toEqual([BIG, SMALL].sort());
  });

  it('answers through app.inject() the same bytes', async () => {
    const s = await start({ fileCacheBytes: 0 });
    const res = await s.serve.app.inject({ method: 'GET', url: `/${BIG}` });
    expect(res.statusCode).toBe(200);
    expectCardHeaders(res.headers, BIG);
    expect(res.rawPayload.equals(bigBody)).toBe(true);
  });

  it('whose file was deleted after load: GET is a 503 problem with Retry-After: 1; HEAD, 304s and the documents still answer', async () => {
    const s = await start();
    await unlink(fileOf(BIG));
    expect503(await raw(s.url, `/${BIG}`));
    expect503(await raw(s.url, `/${BIG}`)); // nothing cached from a failure

    const head = await raw(s.url, `/${BIG}`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    expectCardHeaders(head.headers, BIG);

    const etag = release.manifest.files[BIG].etag;
    for (const inm of [etag, `W/${etag}`, `"x", ${etag}`, '*']) {
      const res = await raw(s.url, `/${BIG}`, { headers: { 'if-none-match': inm } });
      expect(res.status, inm).toBe(304);
      expect(res.headers.etag).toBe(etag);
      expect(res.body.length).toBe(0);
    }
    const ims = await raw(s.url, `/${BIG}`, { headers: { 'if-modified-since': release.manifest.files[BIG].last_modified } });
    expect(ims.status).toBe(304);

    expect((await raw(s.url, '/api/data/agentic-commerce')).status).toBe(200);
    expect((await raw(s.url, `/${SMALL}`)).status).toBe(200);
  });

  it('whose file changed length after load answers 503 rather than a body of the wrong length', async () => {
    const s = await start({ fileCacheBytes: 0 });
    await writeFile(fileOf(BIG), bigBody.subarray(0, 1000));
    expect503(await raw(s.url, `/${BIG}`));
  });

  it('stays served from the body cache once hot, even when its file is gone', async () => {
    const s = await start();
    expect((await raw(s.url, `/${BIG}`)).status).toBe(200);
    await until(() => s.serve.fileCache!.size === 1);
    await unlink(fileOf(BIG));
    const res = await raw(s.url, `/${BIG}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(bigBody)).toBe(true);
  });

  it('with the body cache off, every GET reads the disk', async () => {
    const s = await start({ fileCacheBytes: 0 });
    expect(s.serve.fileCache).toBeNull();
    expect((await raw(s.url, `/${BIG}`)).status).toBe(200);
    await unlink(fileOf(BIG));
    expect503(await raw(s.url, `/${BIG}`));
  });
});

describe('loading checks cards by stat', () => {
  it('a new release with a missing or resized card is refused and the previous publication keeps serving', async () => {
    const s = await start();
    for (const breakIt of [
      (dir: string) => unlink(path.join(dir, OTHER)),
      (dir: string) => truncate(path.join(dir, OTHER), 3),
    ]) {
      events = [];
      const next = await writeRelease(out, files('run-B'));
      await breakIt(next.dir);
      await switchCurrent(out, next.id);
      await s.serve.live.refresh();
      expect(events.map((e) => e.type)).toEqual(['error']);
      expect(s.serve.live.current!.dir).toBe(release.dir);
      const doc = await raw(s.url, '/api/data/agentic-commerce');
      expect(JSON.parse(doc.text).completed_at).toBe('run-A');
      expect((await raw(s.url, `/${OTHER}`)).status).toBe(200);
    }
  });

  it('after a switch, cards come from the new release folder even when the old one is garbage-collected', async () => {
    const s = await start({ fileCacheBytes: 0 });
    const next = await writeRelease(out, files('run-B'));
    await switchCurrent(out, next.id);
    await s.serve.live.refresh();
    expect(s.serve.live.current!.dir).toBe(next.dir);
    await rm(release.dir, { recursive: true });
    const res = await raw(s.url, `/${BIG}`);
    expect(res.status).toBe(200);
    expect(res.body.equals(bigBody)).toBe(true);
  });
});

describe('file descriptors', () => {
  it('none is left open after many GETs, failures, HEADs, 304s and clients that go away mid-body', async () => {
    const huge = randomBytes(4 * 1024 * 1024);
    const hugeKey = 'data/cards/agentic-commerce/2025-02/huge-1.png';
    await rm(out, { recursive: true, force: true });
    release = await writePublication(out, { ...files('run-A'), [hugeKey]: { body: huge } });
    const s = await start({ fileCacheBytes: 0 });
    await raw(s.url, `/${SMALL}`); // warm up lazily opened descriptors
    const baseline = await fdsSettleAt(openFds());

    await Promise.all(Array.from({ length: 200 }, (_, i) => raw(s.url, `/${[SMALL, BIG, OTHER][i % 3]}`)));
    await Promise.all(Array.from({ length: 50 }, () => raw(s.url, `/${BIG}`, { method: 'HEAD' })));
    // Clients that read the headers and hang up with most of the body unread.
    await Promise.all(
      Array.from({ length: 30 }, () =>
        new Promise<void>((resolve) => {
          const u = new URL(s.url);
          const req = request({ host: u.hostname, port: u.port, path: `/${hugeKey}`, agent: false }, (res) => {
            res.once('data', () => {
              req.destroy();
              resolve();
            });
          });
          req.on('error', () => resolve());
          req.end();
        }),
      ),
    );
    await unlink(fileOf(OTHER));
    await writeFile(fileOf(SMALL), 'not the manifest length');
    const failed = await Promise.all(Array.from({ length: 50 }, (_, i) => raw(s.url, `/${i % 2 ? OTHER : SMALL}`)));
    expect(new Set(failed.map((r) => r.status))).toEqual(new Set([503]));

    expect(await fdsSettleAt(baseline)).toBeLessThanOrEqual(baseline);
    // And the server still answers.
    expect((await raw(s.url, `/${hugeKey}`)).body.equals(huge)).toBe(true);
  });

  it('a response whose client is already gone when the file opens closes it at once', async () => {
    const pub = await loadPublication(release.dir);
    const artifact = pub.byPath.get(`/${BIG}`) as FileArtifact;
    let calls = 0;
    const bare = createServer((req, res) => {
      req.socket.once('close', () => {
        calls++;
        sendFileBody(res, artifact, null); // the answer starts only after the hang-up
      });
    });
    await new Promise<void>((r) => bare.listen(0, '127.0.0.1', r));
    const port = (bare.address() as AddressInfo).port;
    const baseline = await fdsSettleAt(openFds());
    try {
      await Promise.all(
        Array.from({ length: 20 }, () =>
          new Promise<void>((resolve) => {
            const req = request({ host: '127.0.0.1', port, path: `/${BIG}`, agent: false });
            req.on('error', () => resolve());
            req.on('close', () => resolve());
            req.end(() => setTimeout(() => req.destroy(), 10));
          }),
        ),
      );
      await until(() => calls === 20);
      expect(await fdsSettleAt(baseline)).toBeLessThanOrEqual(baseline);
    } finally {
      await new Promise((r) => bare.close(r));
    }
  });

  it('a file cut short after the headers went out ends the connection instead of a short body, and closes the descriptor', async () => {
    const huge = randomBytes(32 * 1024 * 1024);
    const hugeKey = 'data/cards/agentic-commerce/2025-02/huge-2.png';
    await rm(out, { recursive: true, force: true });
    release = await writePublication(out, { ...files('run-A'), [hugeKey]: { body: huge } });
    const s = await start({ fileCacheBytes: 0 });
    await raw(s.url, `/${SMALL}`);
    const baseline = await fdsSettleAt(openFds());

    const outcome = await new Promise<{ status: number; received: number; length: number; aborted: boolean }>((resolve) => {
      const u = new URL(s.url);
      // Keep-alive: a short body would leave this client waiting for the rest for ever.
      const agent = new Agent({ keepAlive: true });
      const req = request({ host: u.hostname, port: u.port, path: `/${hugeKey}`, agent }, (res) => {
        let received = 0;
        let aborted = false;
        res.pause();
        res.on('data', (c: Buffer) => (received += c.length));
        res.on('aborted', () => (aborted = true));
        const done = () => {
          agent.destroy();
          resolve({ status: res.statusCode!, received, length: Number(res.headers['content-length']), aborted });
        };
        res.on('close', done);
        res.on('error', () => undefined);
        // The server is blocked on a full socket; cut the file, then read on.
        void truncate(path.join(release.dir, hugeKey), 1024).then(() => setTimeout(() => res.resume(), 50));
      });
      req.on('error', () => undefined);
      req.end();
    });
    expect(outcome.status).toBe(200);
    expect(outcome.length).toBe(huge.length);
    expect(outcome.received).toBeLessThan(huge.length);
    expect(outcome.aborted).toBe(true);
    expect(await fdsSettleAt(baseline)).toBeLessThanOrEqual(baseline);
    // The server goes on.
    expect((await raw(s.url, '/api/data/agentic-commerce')).status).toBe(200);
  });
});

describe('bodyCache', () => {
  const buf = (n: number, fill = 1) => Buffer.alloc(n, fill);

  it('evicts the least recently used bodies to stay within its byte bound', () => {
    const c = bodyCache(100, 50);
    c.set('a', buf(40));
    c.set('b', buf(40, 2));
    expect(c.get('a')).toEqual(buf(40)); // a is now the most recent
    c.set('c', buf(40, 3)); // 120 > 100: b goes
    expect(c.get('b')).toBeUndefined();
    expect(c.get('a')).toEqual(buf(40));
    expect(c.get('c')).toEqual(buf(40, 3));
    expect(c.calculatedSize).toBe(80);
    expect(c.size).toBe(2);
  });

  it('never holds a body above its per-entry bound, and replaces an entry without double counting', () => {
    const c = bodyCache(100, 50);
    c.set('big', buf(51));
    expect(c.get('big')).toBeUndefined();
    expect(c.calculatedSize).toBe(0);
    c.set('x', buf(30));
    c.set('x', buf(20, 2));
    expect(c.calculatedSize).toBe(20);
    expect(c.get('x')![0]).toBe(2);
  });

  it('defaults the per-entry bound to a sixteenth of the total', () => {
    expect(bodyCache(32 * 1024 * 1024).maxEntrySize).toBe(2 * 1024 * 1024);
  });
});
