/**
 * Every answer of `serve` carries one X-Request-Id, whoever wrote it: the public surface and the
 * edge write theirs in the same array as their other fields (wire.ts writeAnswerHead), Fastify's
 * routes get it set beforehand. And a graceful close tells every response in flight to close its
 * connection.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { samplePublicationFiles, writePublication } from '../helpers/publication.js';
import { sendRaw, type WireResponse } from '../helpers/wire.js';

let out: string;
let server: RunningServer;
let arrived: (() => void)[] = [];
let release: () => void = () => {};
let finish = new Promise<void>((r) => (release = r));

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-reqid-'));
  await writePublication(out, samplePublicationFiles({ runId: 'rid', months: ['2025-01'] }), { latest_month: '2025-01' });
  server = await startServer({
    out,
    port: 0,
    host: '127.0.0.1',
    live: { pollMs: 0 },
    mount: (app) => {
      app.get('/slow', async () => {
        arrived.shift()?.();
        await finish;
        return { done: true };
      });
    },
  });
});

afterAll(async () => {
  release();
  await server?.close();
  await rm(out, { recursive: true, force: true });
});

const request = (line: string, headers = '') => sendRaw(server.url, `${line} HTTP/1.1\r\nHost: storelens.test\r\n${headers}\r\n`);
const ids = (res: WireResponse) => res.fields.filter(([name]) => name === 'x-request-id').map(([, value]) => value);

describe('X-Request-Id on every answer', () => {
  it('is sent once, new for each request, by the public surface, the edge and Fastify alike', async () => {
    const document = await request('GET /api/data/agentic-commerce');
    expect(document.status).toBe(200);
    const answers = {
      document,
      notModified: await request('GET /api/data/agentic-commerce', `If-None-Match: ${document.headers.etag}\r\n`),
      head: await request('HEAD /api/data/agentic-commerce'),
      card: await request('GET /data/cards/agentic-commerce/2025-01/share-all-abc123.png'),
      notFound: await request('GET /api/data/no-such-slug'),
      queryString: await request('GET /api/data/agentic-commerce?x=1'),
      methodNotAllowed: await sendRaw(server.url, 'POST /data/rss.xml HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n'),
      preflight: await request('OPTIONS /api/data/agentic-commerce'),
      badHost: await sendRaw(server.url, 'GET /api/data/agentic-commerce HTTP/1.1\r\nHost: a"b\r\n\r\n'),
      duplicateHost: await sendRaw(server.url, 'GET / HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n'),
      fastifyRoute: await request('GET /'),
      fastifyNotFound: await request('GET /elsewhere'),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.status]))).toEqual({
      document: 200, notModified: 304, head: 200, card: 200, notFound: 404, queryString: 404,
      methodNotAllowed: 405, preflight: 204, badHost: 400, duplicateHost: 400, fastifyRoute: 302, fastifyNotFound: 404,
    });
    const seen = new Set<string>();
    for (const [name, res] of Object.entries(answers)) {
      expect(ids(res), name).toHaveLength(1);
      expect(ids(res)[0], name).toMatch(/^[0-9a-f-]{36}$/);
      seen.add(ids(res)[0]);
    }
    expect(seen.size).toBe(Object.keys(answers).length);
  });

  it('echoes a safe id the caller sent, on a 304 and a card too', async () => {
    const document = await request('GET /api/data/agentic-commerce', 'X-Request-Id: caller-1\r\n');
    const notModified = await request('GET /api/data/agentic-commerce', `If-None-Match: ${document.headers.etag}\r\nX-Request-Id: caller-2\r\n`);
    const card = await request('GET /data/cards/agentic-commerce/2025-01/share-all-abc123.png', 'X-Request-Id: caller-3\r\n');
    expect([ids(document), ids(notModified), ids(card)]).toEqual([['caller-1'], ['caller-2'], ['caller-3']]);
  });
});

describe('a graceful close', () => {
  it('answers every request in flight with Connection: close, then stops', async () => {
    const both = [new Promise<void>((r) => arrived.push(r)), new Promise<void>((r) => arrived.push(r))];
    const inFlight = [request('GET /slow'), request('GET /slow')];
    await Promise.all(both);
    const closed = server.close();
    release();
    const answers = await Promise.all(inFlight);
    await closed;
    expect(answers.map((r) => [r.status, r.headers.connection, r.closed, ids(r).length])).toEqual([
      [200, 'close', true, 1],
      [200, 'close', true, 1],
    ]);
  });
});
