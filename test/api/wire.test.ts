/** The standalone api server on the wire: what Node rejects is a problem too, and absolute-form targets work. */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { demoWithAccounts } from '../helpers/accounts.js';
import { expectWireProblem, sendRaw, sendRawUntilClosed, WIRE_CASES } from '../helpers/wire.js';
import { startApi, type Harness } from '../helpers/api.js';

let h: Harness;
let origin: string;

beforeAll(async () => {
  h = await startApi('SQLite');
  origin = new URL(h.base).origin;
});
afterAll(async () => h?.close());

describe('requests rejected before routing', () => {
  it.each(WIRE_CASES)('answers $name with $status problem+json', async (c) => {
    const res = await sendRaw(origin, c.request);
    expectWireProblem(res, c.status, c.kind);
    expect(res.closed).toBe(c.closes);
    if (c.closes) expect(res.headers.connection).toBe('close');
  });
});

describe('a CONNECT whose client resets the connection', () => {
  // Node hands a CONNECT's socket to the server without an error listener: a client that closed
  // with the answer unread (a reset) raised an 'error' nobody heard, and the process ended (any
  // caller could stop `storelens api` or `serve` with one request).
  it('is closed on the server, which goes on answering', async () => {
    const closedOnServer = new Promise<void>((resolve) => h.app.server.once('connect', (_req, socket: Socket) => socket.once('close', () => resolve())));
    const client = connect(Number(new URL(origin).port), '127.0.0.1');
    client.on('error', () => undefined);
    client.write('CONNECT storelens.test:443 HTTP/1.1\r\nHost: storelens.test:443\r\n\r\n');
    await new Promise((resolve) => client.once('data', resolve));
    client.resetAndDestroy();
    await closedOnServer;
    expect((await sendRaw(origin, 'GET /nope HTTP/1.1\r\nHost: storelens.test\r\n\r\n')).status).toBe(404);
  });
});

describe('absolute-form request targets', () => {
  it('answers GET http://host/api/v1/… like the origin form, query string included', async () => {
    const demo = await demoWithAccounts(h.db);
    const request = (target: string) =>
      sendRaw(origin, `GET ${target} HTTP/1.1\r\nHost: storelens.test\r\nAuthorization: Bearer ${demo.key}\r\nConnection: close\r\n\r\n`);
    const plain = await request('/api/v1/accounts?limit=1');
    expect(plain.status).toBe(200);
    const absolute = await request('http://storelens.test/api/v1/accounts?limit=1');
    expect(absolute.status).toBe(200);
    expect(JSON.parse(absolute.text)).toEqual(JSON.parse(plain.text));
    expect(JSON.parse(absolute.text).data).toHaveLength(1);
    expect((await request('HTTPS://storelens.test:8443/api/v1/accounts?limit=1')).status).toBe(200);
  });

  it('answers an unknown absolute-form path with the same 404 problem as its origin form', async () => {
    const res = await sendRaw(origin, 'GET http://storelens.test/nope?x=1 HTTP/1.1\r\nHost: storelens.test\r\n\r\n');
    const p = expectWireProblem(res, 404, 'not-found');
    expect(p.detail).toContain('GET /nope;');
  });
});

describe('a request the parser rejects, pipelined behind a valid one', () => {
  it.each([
    ['a NUL byte in the path', 'GET /api/v1/acc\0ounts HTTP/1.1\r\nHost: storelens.test\r\n\r\n', 400],
    ['CONNECT', 'CONNECT storelens.test:443 HTTP/1.1\r\nHost: storelens.test:443\r\n\r\n', 501],
  ])('is answered (%s) after the valid request’s response, which arrives whole', async (_what, second, status) => {
    const demo = await demoWithAccounts(h.db);
    const first = `GET /api/v1/accounts?limit=1 HTTP/1.1\r\nHost: storelens.test\r\nAuthorization: Bearer ${demo.key}\r\n\r\n`;
    const res = await sendRawUntilClosed(origin, first + second);
    expect(res.statuses).toEqual([200, status]);
    expect(res.text).toContain('"object":"list"');
  });
});

describe('a connection that carried an Upgrade request', () => {
  const upgrade = 'GET /nope HTTP/1.1\r\nHost: storelens.test\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n';
  const later = {
    malformed: ['GET /a b c HTTP/1.1\r\nHost: storelens.test\r\n\r\n', 400],
    'a 20 KB header': [`GET /api/v1/nope HTTP/1.1\r\nHost: storelens.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
    'a valid request': ['GET /nope HTTP/1.1\r\nHost: storelens.test\r\nConnection: close\r\n\r\n', 404],
  } as const;

  /** Writes `first`, waits for its whole answer, then writes `second` on the same socket; the statuses until the server closes. */
  const twoWrites = (first: string, second: string): Promise<number[]> =>
    new Promise((resolve, reject) => {
      const u = new URL(origin);
      const socket = connect(Number(u.port), u.hostname);
      let text = '';
      // A failure deadline only (a server that never closes), far from what a loaded machine takes to answer.
      socket.setTimeout(20_000, () => reject(new Error(`no answer in 20 s: ${JSON.stringify(text.slice(0, 200))}`)));
      socket.on('data', (c: Buffer) => {
        const before = text;
        text += c.toString('latin1');
        if (!before.includes('}') && text.includes('}')) socket.write(second);
      });
      socket.on('close', () => resolve([...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1]))));
      socket.on('error', (e: NodeJS.ErrnoException) => {
        if (e.code !== 'ECONNRESET' && e.code !== 'EPIPE') reject(e);
      });
      socket.write(first);
    });

  it.each(Object.entries(later))('answers %s sent after it on the same keep-alive connection', async (_what, [second, status]) => {
    expect(await twoWrites(upgrade, second)).toEqual([404, status]);
  });

  it.each(Object.entries(later))('answers %s pipelined behind it', async (_what, [second, status]) => {
    expect((await sendRawUntilClosed(origin, upgrade + second)).statuses).toEqual([404, status]);
  });

  it('reads its body as its body, not as the next request', async () => {
    const post = 'POST /nope HTTP/1.1\r\nHost: storelens.test\r\nConnection: Upgrade\r\nUpgrade: h2c\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}';
    expect((await sendRawUntilClosed(origin, post + later['a valid request'][0])).statuses).toEqual([404, 404]);
  });
});
