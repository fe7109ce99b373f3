/**
 * Raw HTTP/1.1 over a socket, for what no HTTP client will send (NUL bytes, absolute-form
 * targets, duplicate headers …): writes the bytes as given and reads one response.
 */
import { connect } from 'node:net';
import { expect } from 'vitest';

export interface WireResponse {
  status: number;
  /** Lower-cased names; the last value of a repeated field. */
  headers: Record<string, string>;
  /** Every header field in order, names lower-cased (a repeated field appears each time). */
  fields: [string, string][];
  body: Buffer;
  text: string;
  /** The server closed the connection after this response. */
  closed: boolean;
}

/** Sends `request` (a string is sent as latin1, byte for byte) to `base`'s host and port. */
export function sendRaw(base: string, request: string | Buffer): Promise<WireResponse> {
  const u = new URL(base);
  const bytes = typeof request === 'string' ? Buffer.from(request, 'latin1') : request;
  const head = bytes.subarray(0, 5).toString('latin1') === 'HEAD '; // no body follows the head
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      const parsed = parse(Buffer.concat(chunks), head);
      if (parsed === null && !closed) return; // not complete yet
      done = true;
      socket.destroy();
      if (parsed === null) reject(new Error(`no complete response: ${JSON.stringify(Buffer.concat(chunks).toString('latin1'))}`));
      else resolve({ ...parsed, closed });
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      // A complete response on a connection the server keeps open.
      const parsed = parse(Buffer.concat(chunks), head);
      if (parsed !== null && parsed.headers.connection !== 'close') finish(false);
    });
    socket.on('end', () => finish(true));
    socket.on('close', () => finish(true));
    // The server may cut the connection while the request is still being written.
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ECONNRESET' && e.code !== 'EPIPE') reject(e);
    });
    socket.write(bytes);
  });
}

/** Sends `request` and reads until the server closes the connection: the status lines in order, and all bytes. */
export function sendRawUntilClosed(base: string, request: string): Promise<{ statuses: number[]; text: string }> {
  const u = new URL(base);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(u.port), u.hostname);
    const chunks: Buffer[] = [];
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('close', () => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ statuses: [...text.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((m) => Number(m[1])), text });
    });
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (e.code !== 'ECONNRESET' && e.code !== 'EPIPE') reject(e);
    });
    socket.write(Buffer.from(request, 'latin1'));
  });
}

function parse(data: Buffer, head = false): Omit<WireResponse, 'closed'> | null {
  const end = data.indexOf('\r\n\r\n');
  if (end === -1) return null;
  const [statusLine, ...lines] = data.subarray(0, end).toString('latin1').split('\r\n');
  const headers: Record<string, string> = {};
  const fields: [string, string][] = [];
  for (const line of lines) {
    const colon = line.indexOf(':');
    const field: [string, string] = [line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()];
    fields.push(field);
    headers[field[0]] = field[1];
  }
  const length = head ? 0 : Number(headers['content-length'] ?? 0);
  const body = data.subarray(end + 4);
  if (body.length < length) return null;
  return { status: Number(statusLine.split(' ')[1]), headers, fields, body: body.subarray(0, length), text: body.subarray(0, length).toString('utf8') };
}

/** Asserts an RFC 7807 problem of `kind` with `status`, and returns its body. */
export function expectWireProblem(res: WireResponse, status: number, kind: string): Record<string, unknown> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
  expect(res.headers['cache-control']).toBe('no-store');
  const p = JSON.parse(res.text);
  expect(p).toMatchObject({ type: `https://storelens.dev/problems/${kind}`, status });
  expect(typeof p.title === 'string' && typeof p.detail === 'string').toBe(true);
  return p;
}

export interface WireCase {
  name: string;
  request: string;
  status: number;
  kind: string;
  /** The server closes the connection: the parser cannot resume after this. */
  closes: boolean;
}

const HOST = 'Host: storelens.test\r\n';

/** Requests Node's HTTP layer rejects before any route; every server answers them alike. */
export const WIRE_CASES: WireCase[] = [
  { name: 'a NUL byte in the path', request: `GET /api/v1/acc\0ounts HTTP/1.1\r\n${HOST}\r\n`, status: 400, kind: 'invalid-request', closes: true },
  { name: 'a raw non-ASCII byte in the path', request: `GET /api/data/caf\xe9 HTTP/1.1\r\n${HOST}\r\n`, status: 400, kind: 'invalid-request', closes: true },
  { name: 'a request line that is not HTTP', request: 'HELLO THERE\r\n\r\n', status: 400, kind: 'invalid-request', closes: true },
  { name: 'an unknown HTTP version', request: `GET /api/v1/accounts HTTP/7.3\r\n${HOST}\r\n`, status: 400, kind: 'invalid-request', closes: true },
  { name: 'a header name with a space', request: `GET /api/v1/accounts HTTP/1.1\r\n${HOST}Bad Name: x\r\n\r\n`, status: 400, kind: 'invalid-request', closes: true },
  {
    name: 'two different Content-Length fields',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Length: 1\r\nContent-Length: 2\r\n\r\n{}`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  {
    name: 'Content-Length beside Transfer-Encoding',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  { name: 'HTTP/1.1 without Host', request: 'GET /api/v1/accounts HTTP/1.1\r\n\r\n', status: 400, kind: 'invalid-request', closes: true },
  // The Host may name the server in its answers (a header's quoted parameter, a URL): a quote or a space would break out.
  { name: 'a Host with a quote', request: 'GET /api/v1/accounts HTTP/1.1\r\nHost: evil.test",error="insufficient_scope\r\n\r\n', status: 400, kind: 'invalid-request', closes: true },
  { name: 'a Host with a space', request: 'GET /api/v1/accounts HTTP/1.1\r\nHost: a b\r\n\r\n', status: 400, kind: 'invalid-request', closes: true },
  { name: 'an empty Host', request: 'GET /api/v1/accounts HTTP/1.1\r\nHost: \r\n\r\n', status: 400, kind: 'invalid-request', closes: true },
  {
    name: 'two Host fields',
    request: `GET /api/v1/accounts HTTP/1.1\r\n${HOST}Host: other.test\r\n\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  {
    name: 'two Authorization fields',
    request: `GET /api/v1/accounts HTTP/1.1\r\n${HOST}Authorization: Bearer a\r\nAuthorization: Bearer b\r\n\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  { name: 'a URL over the size limit', request: `GET /api/v1/${'a'.repeat(20_000)} HTTP/1.1\r\n${HOST}\r\n`, status: 431, kind: 'header-fields-too-large', closes: true },
  {
    name: 'a header over the size limit',
    request: `GET /api/v1/accounts HTTP/1.1\r\n${HOST}X-Padding: ${'p'.repeat(20_000)}\r\n\r\n`,
    status: 431,
    kind: 'header-fields-too-large',
    closes: true,
  },
  {
    name: 'chunk extensions over the size limit',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n2;${'e'.repeat(20_000)}\r\n{}\r\n0\r\n\r\n`,
    status: 413,
    kind: 'payload-too-large',
    closes: true,
  },
  {
    name: 'an Expect other than 100-continue',
    request: `GET /api/v1/accounts HTTP/1.1\r\n${HOST}Expect: something-else\r\n\r\n`,
    status: 417,
    kind: 'expectation-failed',
    closes: false,
  },
  { name: 'CONNECT (no proxy here)', request: 'CONNECT storelens.test:443 HTTP/1.1\r\nHost: storelens.test:443\r\n\r\n', status: 501, kind: 'not-implemented', closes: true },
  { name: 'a target of another scheme', request: `GET ftp://storelens.test/api/v1/accounts HTTP/1.1\r\n${HOST}\r\n`, status: 400, kind: 'invalid-request', closes: true },
  {
    name: 'an absolute-form target with user information',
    request: `GET http://user@storelens.test/api/v1/openapi.json HTTP/1.1\r\n${HOST}\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  {
    name: 'an absolute-form target with an empty host',
    request: `GET http:///api/v1/openapi.json HTTP/1.1\r\n${HOST}\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  {
    name: 'an absolute-form target with a port but no host',
    request: `GET http://:80/api/v1/openapi.json HTTP/1.1\r\n${HOST}\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  {
    name: 'a transfer coding other than chunked',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nTransfer-Encoding: gzip, chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 501,
    kind: 'not-implemented',
    closes: true,
  },
  {
    name: 'a transfer coding in a second Transfer-Encoding field',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nTransfer-Encoding: gzip\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    status: 501,
    kind: 'not-implemented',
    closes: true,
  },
  {
    name: 'two Idempotency-Key fields',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nIdempotency-Key: first-key-0001\r\nIdempotency-Key: second-key-002\r\nContent-Length: 2\r\n\r\n{}`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  {
    name: 'two Content-Type fields',
    request: `POST /api/v1/outcomes HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Type: text/plain\r\nIdempotency-Key: first-key-0001\r\nContent-Length: 2\r\n\r\n{}`,
    status: 400,
    kind: 'invalid-request',
    closes: true,
  },
  { name: 'the asterisk form with GET (OPTIONS only)', request: `GET * HTTP/1.1\r\n${HOST}\r\n`, status: 400, kind: 'invalid-request', closes: true },
  { name: 'a fragment in the target', request: `GET /api/v1/accounts#limit=5 HTTP/1.1\r\n${HOST}\r\n`, status: 400, kind: 'invalid-request', closes: true },
  {
    name: 'a path Fastify cannot decode',
    request: `GET /api/v1/accounts/%E0%A4%A HTTP/1.1\r\n${HOST}\r\n`,
    status: 400,
    kind: 'invalid-request',
    closes: false,
  },
];
