/**
 * `serve` (with the API mounted, as `serve --api` runs) on the wire: what Node rejects is a
 * problem too, and absolute-form targets are answered like their origin form everywhere.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROBLEM_BASE } from '../../src/api/problems.js';
import { demoWithAccounts } from '../helpers/accounts.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import type { TestDb } from '../helpers/db.js';
import { startServeWithApi, type ServeWithApi } from '../helpers/serve-with-api.js';
import { TINY_PNG, type WrittenRelease } from '../helpers/publication.js';
import { expectWireProblem, sendRaw, WIRE_CASES } from '../helpers/wire.js';

let out: string;
let t: TestDb;
let server: RunningServer;
let release: WrittenRelease;
let running: ServeWithApi;

beforeAll(async () => {
  running = await startServeWithApi('wire', ['2025-01', '2025-02']);
  ({ out, t, server, release } = running);
});

afterAll(async () => {
  await running?.close();
});

const get = (target: string, headers = '') =>
  sendRaw(server.url, `GET ${target} HTTP/1.1\r\nHost: storelens.test\r\n${headers}Connection: close\r\n\r\n`);

describe('requests rejected before routing', () => {
  it.each(WIRE_CASES)('answers $name with $status problem+json', async (c) => {
    const res = await sendRaw(server.url, c.request);
    expectWireProblem(res, c.status, c.kind);
    expect(res.closed).toBe(c.closes);
    if (c.closes) expect(res.headers.connection).toBe('close');
  });

  it('answers a NUL byte in a public path with a problem, not Node’s bare 400', async () => {
    const res = await sendRaw(server.url, 'GET /api/data/agentic\0commerce HTTP/1.1\r\nHost: a\r\n\r\n');
    expectWireProblem(res, 400, 'invalid-request');
  });
});

describe('one problem registry', () => {
  it('gives a problem type the same status and title on the public surface, the API and the wire, as openapi.json lists it', async () => {
    const listed = JSON.parse((await get('/api/v1/openapi.json')).text)['x-problem-types'];
    const demo = await demoWithAccounts(t.db);
    const auth = `Authorization: Bearer ${demo.key}\r\n`;
    const answers = [
      await get('/api/data/no-such-slug'),
      await get('/elsewhere'),
      await get('/api/v1/no-such-operation', auth),
      await sendRaw(server.url, 'POST /data/rss.xml HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\nConnection: close\r\n\r\n'),
      await sendRaw(server.url, `PUT /api/v1/accounts HTTP/1.1\r\nHost: a\r\n${auth}Content-Length: 0\r\nConnection: close\r\n\r\n`),
      await sendRaw(server.url, 'GET /api/data/agentic-commerce HTTP/1.1\r\n\r\n'),
      await sendRaw(server.url, `GET /${'x'.repeat(20_000)} HTTP/1.1\r\nHost: a\r\n\r\n`),
    ];
    const types = new Set<string>();
    for (const res of answers) {
      const p = JSON.parse(res.text);
      expect(p.status).toBe(res.status);
      expect(listed[p.type], p.type).toEqual({ status: p.status, title: p.title });
      types.add(p.type.slice(PROBLEM_BASE.length));
    }
    expect([...types].sort()).toEqual(['header-fields-too-large', 'invalid-request', 'method-not-allowed', 'not-found']);
  });
});

describe('timeouts', () => {
  it('answers a request whose headers do not arrive in time with a 408 problem and closes', async () => {
    const slow = await startServer({
      out,
      port: 0,
      host: '127.0.0.1',
      live: { pollMs: 0 },
      timeouts: { headersMs: 200, requestMs: 400, checkMs: 50 },
    });
    try {
      const started = Date.now();
      const res = await sendRaw(slow.url, 'GET /api/data/agentic-commerce HTTP/1.1\r\nHost: storelens.test\r\nX-Still-Typing: ');
      expectWireProblem(res, 408, 'request-timeout');
      expect(res.headers.connection).toBe('close');
      expect(res.closed).toBe(true);
      expect(Date.now() - started).toBeGreaterThanOrEqual(200);
    } finally {
      await slow.close();
    }
  });
});

describe('absolute-form request targets', () => {
  it('answers public statistics like the origin form', async () => {
    const etag = release.manifest.files['api/data/agentic-commerce.json'].etag;
    const res = await get('http://storelens.test/api/data/agentic-commerce');
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe(etag);
    expect(res.headers['cache-control']).toBe('public, s-maxage=3600');
    expect(res.text).toBe((await get('/api/data/agentic-commerce')).text);
    expect((await get('HTTP://storelens.test:8080/api/data/agentic-commerce/2025-01')).status).toBe(200);
    expect((await get('http://storelens.test/api/data/agentic-commerce', `If-None-Match: ${etag}\r\n`)).status).toBe(304);
  });

  it('keeps the query-string rule on the path and query part', async () => {
    const res = await get('http://storelens.test/api/data/agentic-commerce?month=2025-01');
    expect(res.status).toBe(404);
    expect(res.headers['cache-control']).toBe('public, s-maxage=60');
    expect(JSON.parse(res.text).detail).toContain('query string');
    expect((await get('http://storelens.test/api/data/agentic-commerce?')).status).toBe(200);
  });

  it('serves cards', async () => {
    const res = await get('http://storelens.test/data/cards/agentic-commerce/2025-02/share-all-abc123.png');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.body.equals(TINY_PNG)).toBe(true);
  });

  it('serves the mounted API', async () => {
    const demo = await demoWithAccounts(t.db);
    const auth = `Authorization: Bearer ${demo.key}\r\n`;
    const res = await get('http://storelens.test/api/v1/accounts?limit=2', auth);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.text)).toEqual(JSON.parse((await get('/api/v1/accounts?limit=2', auth)).text));
    expect(JSON.parse(res.text).data).toHaveLength(2);
  });

  it('answers an absolute-form target on another route with the origin form’s 404 problem', async () => {
    const p = expectWireProblem(await get('http://storelens.test/elsewhere'), 404, 'not-found');
    expect(p.detail).toBe('No route GET /elsewhere.');
  });
});
