/**
 * The HTTP/1.1 edge both servers share (`storelens serve`, which may mount the API, and
 * `storelens api`): what happens before a request reaches a handler. Every error here is
 * problem+json too, including the ones Node's parser raises before any request exists:
 *
 *   - a request the parser rejects (bad request line, NUL or raw non-ASCII bytes in the target,
 *     malformed header, conflicting Content-Length / Transfer-Encoding …) ⇒ 400; request line
 *     and headers over Node's limit ⇒ 431; oversized chunk extensions ⇒ 413; a request not
 *     received in time ⇒ 408; all with `Connection: close` (the parser cannot resume);
 *   - HTTP/1.1 without Host ⇒ 400 (`Connection: close`, as Node would, but as a problem); so is
 *     a Host that is no host name or address with an optional port (RFC 9112 §3.2: an invalid
 *     Host value ⇒ 400), as it may name the server in answers (HOST); an HTTP/1.0 request
 *     without one is taken as naming the address it came in on;
 *   - `Expect` other than `100-continue` ⇒ 417; CONNECT (this is no proxy) ⇒ 501; a transfer
 *     coding other than chunked (Node would hand the coded bytes on as the body) ⇒ 501;
 *   - a request target in absolute form (`GET http://host/path HTTP/1.1`, RFC 9112 §3.2.2) is
 *     answered as its origin form (`/path`), so every route and rule sees the same URL; a
 *     target in neither form (another scheme, user information, no host) ⇒ 400, as is `*`
 *     (RFC 9112 §3.2.4) with any method but OPTIONS, and a target with a `#fragment`;
 *   - two Host, Authorization, Idempotency-Key or Content-Type fields ⇒ 400 (which one counts
 *     depends on the hop reading them);
 *   - `Connection: Upgrade` is ignored (nothing is upgraded): the request is answered as any
 *     other, and the connection goes on answering the next ones, bad ones included.
 *
 * An ordinary origin-form request pays one character test, one scan of its target for `#` and
 * one header lookup here, besides the Host check (one regular expression); the duplicate-field
 * scan runs only for what reaches Fastify.
 */
import { randomUUID } from 'node:crypto';
import { createServer, STATUS_CODES, type IncomingMessage, type RequestListener, type Server, type ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { PROBLEM_CONTENT_TYPE, prepareProblem, problemBody, type PreparedProblem, type ProblemKind } from './problems.js';

export interface ServerTimeouts {
  /** Idle keep-alive connections are closed after this (ms); above common load-balancer idles. */
  keepAliveMs?: number;
  /** A request must be received completely within this (ms). */
  requestMs?: number;
  /** Request headers must arrive within this (ms). */
  headersMs?: number;
  /** How often the two limits above are checked (ms); a request may overrun them by up to this. */
  checkMs?: number;
}

export interface WireOptions {
  timeouts?: ServerTimeouts;
  /** Answers some requests before Fastify sees them (the public surface); true when it did. */
  answerFirst?: (req: IncomingMessage, res: ServerResponse) => boolean;
  /**
   * The reverse proxies (addresses or CIDR blocks) whose `X-Forwarded-For`, `-Proto` and `-Host`
   * are believed (`--trusted-proxy`): a request's client address (`req.ip`) is then the right-most
   * address of X-Forwarded-For that is not one of them. Without, the headers are never read and
   * the client address is the connection's.
   */
  trustedProxies?: readonly string[];
  /**
   * Told of every request this edge answers itself, before any handler (malformed, ambiguous,
   * an expectation or a CONNECT refused, bytes the parser could not read, a URL Fastify could not
   * route): the app's own counting and request lines never see them.
   */
  onAnswered?: (answer: EdgeAnswer) => void;
}

/** A request the edge answered itself (WireOptions.onAnswered). */
export interface EdgeAnswer {
  /** The request's id (X-Request-Id; for bytes that were no request, a new one, told to the log only). */
  reqId: string;
  /** Empty when the parser could not read the request line. */
  method: string;
  status: number;
  seconds: number;
}

/**
 * The longest path parameter the router hands on (Fastify's `maxParamLength`). Far above any id
 * the API takes (a store id is at most 500 characters), so that a longer one reaches the
 * operation's schema and is refused naming its parameter, as the same id in a body or a tool's
 * argument is, rather than as a request that could not be read.
 */
export const MAX_PARAM_LENGTH = 8 * 1024;

type WireServerOptions = Required<Pick<FastifyServerOptions, 'serverFactory' | 'clientErrorHandler' | 'frameworkErrors' | 'genReqId' | 'requestIdHeader'>> &
  Pick<FastifyServerOptions, 'trustProxy'>;

/** The Fastify options that put a server behind this edge (spread them into `Fastify({…})`). */
export function wireServerOptions(opts: WireOptions = {}): WireServerOptions {
  return {
    serverFactory: (fastifyHandler) => createWireServer(fastifyHandler, opts),
    clientErrorHandler: opts.onAnswered ? (error, socket) => answerClientError(error, socket, opts.onAnswered) : answerClientError,
    frameworkErrors: opts.onAnswered ? (error, request, reply) => answerFrameworkError(error, request, reply, opts.onAnswered) : answerFrameworkError,
    // The id the edge gave the request (below), for the request's log lines and problem bodies.
    genReqId: (req) => (req as Identified)[REQUEST_ID] ?? randomUUID(),
    requestIdHeader: false,
    ...(opts.trustedProxies?.length ? { trustProxy: [...opts.trustedProxies] } : {}),
  };
}

const REQUEST_ID = Symbol('request id');
type Identified = IncomingMessage & { [REQUEST_ID]?: string };
type IdentifiedResponse = ServerResponse & { [REQUEST_ID]?: string };

/**
 * Writes the head of an answer given before Fastify (the edge's own, the probes', the public
 * surface's): `headers` and the request's X-Request-Id in one array. The id is not set with
 * `setHeader` beforehand for these: a header set that way sends every later `writeHead` of an
 * array through Node's slow path (each field removed, appended and checked again), a tenth of
 * what a 304 costs (the serve benchmark); Fastify's answers set theirs that way anyway.
 */
export function writeAnswerHead(res: ServerResponse, status: number, headers: readonly string[]): void {
  const id = answerRequestId(res);
  res.writeHead(status, (id === undefined ? headers : [...headers, 'X-Request-Id', id]) as string[]);
}

/** The request id the edge gave the request `res` answers (undefined for a response that did not come through it). */
export function answerRequestId(res: ServerResponse): string | undefined {
  return (res as IdentifiedResponse)[REQUEST_ID];
}

/** What an `X-Request-Id` from the caller may be: short, and nothing a header or a log line could misread. */
const SAFE_REQUEST_ID = /^[A-Za-z0-9._~:@+=/-]{1,128}$/;

/**
 * Every request's id, answered as `X-Request-Id` on every response: the caller's (a proxy's or
 * a client's) when it is safe (SAFE_REQUEST_ID: one field, at most 128 characters of that
 * set), else a new random one. It names the request in the log and in problem bodies.
 */
export function requestIdOf(header: string | string[] | undefined): string {
  return typeof header === 'string' && SAFE_REQUEST_ID.test(header) ? header : randomUUID();
}

function createWireServer(fastifyHandler: RequestListener, opts: WireOptions): Server {
  const { answerFirst, onAnswered } = opts;
  const t = opts.timeouts ?? {};
  // Host is checked below, so that its absence is answered as a problem too.
  const options = { requireHostHeader: false, connectionsCheckingInterval: t.checkMs ?? 30_000 };
  const told = (req: IncomingMessage, id: string, status: number, start: number) => onAnswered?.({ reqId: id, method: req.method ?? '', status, seconds: (performance.now() - start) / 1000 });
  const server = createServer(options, (req, res) => {
    const start = performance.now();
    const id = requestIdOf(req.headers['x-request-id']);
    (req as Identified)[REQUEST_ID] = id;
    (res as IdentifiedResponse)[REQUEST_ID] = id;
    if (answerMalformed(req, res)) return told(req, id, res.statusCode, start);
    if (answerFirst !== undefined && answerFirst(req, res)) return;
    if (answerAmbiguous(req, res)) return told(req, id, res.statusCode, start);
    res.setHeader('x-request-id', id);
    fastifyHandler(req, res);
  });
  server.on('checkExpectation', (req: IncomingMessage, res: ServerResponse) => {
    const id = requestIdOf(req.headers['x-request-id']);
    (res as IdentifiedResponse)[REQUEST_ID] = id;
    send(res, EXPECTATION_FAILED);
    told(req, id, EXPECTATION_FAILED.status, performance.now());
  });
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    // Node hands the socket over without its own error listener: a client that resets the
    // connection (unread bytes at its close) raised an 'error' nobody heard, which ended the process.
    socket.on('error', () => socket.destroy());
    endWith(socket, NOT_A_PROXY);
    told(req, randomUUID(), NOT_A_PROXY.status, performance.now());
  });
  server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => answerAsOrdinary(server, req, socket, head));
  server.keepAliveTimeout = t.keepAliveMs ?? 72_000;
  server.requestTimeout = t.requestMs ?? 30_000;
  server.headersTimeout = t.headersMs ?? 20_000;
  return server;
}

/**
 * This server upgrades to no other protocol, so an Upgrade request is answered as an ordinary
 * one (RFC 9110 §7.8 lets a server ignore Upgrade). Node's parser cannot do that on its own: it
 * keeps the upgrade flag of that request, and on the same connection takes the next request's
 * parse error for upgrade bytes, so a malformed request or an oversized header after it would
 * get no answer until the timeout (and bytes pipelined behind it would be dropped). With this
 * listener Node hands over the socket instead; the request goes back to a fresh parser without
 * its Upgrade field, followed by the bytes read after it (its body, pipelined requests).
 */
function answerAsOrdinary(server: Server, req: IncomingMessage, socket: Duplex, head: Buffer): void {
  const raw = req.rawHeaders;
  let text = `${req.method} ${req.url} HTTP/${req.httpVersion}\r\n`;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length !== 7 || raw[i].toLowerCase() !== 'upgrade') text += `${raw[i]}: ${raw[i + 1]}\r\n`;
  socket.unshift(Buffer.concat([Buffer.from(`${text}\r\n`, 'latin1'), head]));
  server.emit('connection', socket);
}

/**
 * The origin form (`/path?query`) of an absolute-form request target (`http://host/path?query`,
 * `https://host:8443`), or null when `target` is not one (origin form, `*`, another scheme,
 * user information in the authority, no host).
 */
export function originForm(target: string): string | null {
  const authority = ABSOLUTE.exec(target);
  if (authority === null) return null;
  const rest = target.slice(authority[0].length);
  if (rest === '') return '/';
  if (rest.charCodeAt(0) === 63) return `/${rest}`; // '?'
  return rest.charCodeAt(0) === 47 ? rest : null; // '/'
}

/** Scheme and authority; the host may not be empty (RFC 9110 §4.2.1). */
const ABSOLUTE = /^https?:\/\/[^/?#@:][^/?#@]*/i;

/**
 * A Host field as this server takes it (RFC 9110 §7.2: uri-host [":" port]): a name of letters,
 * digits and `-._~`, an IPv4 address, or an IP literal in brackets, then maybe a port. Where no
 * public URL is set, the Host names the server in what it answers (the OAuth issuer, the MCP
 * 401's `WWW-Authenticate: … resource_metadata="…"`, page links), so nothing else may reach them:
 * a quote would end a quoted header parameter and begin another, a space would break the URL.
 * Stricter than the RFC's reg-name, whose sub-delims and percent-encoding no DNS name has.
 */
const HOST = /^(?:[A-Za-z0-9._~-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?$/;

/** The address and port a connection came in on, as a Host field names them (an IPv6 address in brackets). */
function localAuthority(socket: { localAddress?: string; localPort?: number }): string {
  const address = socket.localAddress ?? '127.0.0.1';
  return `${address.includes(':') ? `[${address}]` : address}:${socket.localPort ?? 80}`;
}

/** Rewrites an absolute-form target in place; answers a request no handler should see. */
function answerMalformed(req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url!;
  if (url.charCodeAt(0) !== 47 && (url !== '*' || req.method !== 'OPTIONS')) {
    const origin = originForm(url);
    if (origin === null) {
      send(res, BAD_TARGET);
      return true;
    }
    req.url = origin;
  }
  // A fragment is no part of a request target (RFC 9112 §3.2); the router would read it as a query.
  if (req.url!.includes('#')) {
    send(res, BAD_TARGET);
    return true;
  }
  const host = req.headers.host;
  if (host === undefined ? req.httpVersionMajor === 1 && req.httpVersionMinor === 1 : !HOST.test(host)) {
    send(res, host === undefined ? MISSING_HOST : BAD_HOST);
    return true;
  }
  // HTTP/1.0 may send no Host: the server is then named by the address the request came in on,
  // so what names it in an answer (a 401's metadata link, the OAuth issuer) is a URL that works.
  if (host === undefined) req.headers.host = localAuthority(req.socket);
  // Node decodes chunked and nothing else (and joins repeated fields): `gzip, chunked` would
  // reach the body parser still gzip-coded. RFC 9112 §6.1: an unknown coding ⇒ 501.
  const te = req.headers['transfer-encoding'];
  if (te !== undefined && te.toLowerCase() !== 'chunked') {
    send(res, UNSUPPORTED_TRANSFER_CODING);
    return true;
  }
  return false;
}

/**
 * Answers a request with two Host, Authorization, Idempotency-Key or Content-Type fields (Node
 * keeps the first Host, Authorization or Content-Type and drops the rest, where another hop may
 * keep the last; it joins two Idempotency-Keys into a third key neither names). Only for what
 * Fastify routes: the public surface reads none of these fields.
 */
function answerAmbiguous(req: IncomingMessage, res: ServerResponse): boolean {
  const raw = req.rawHeaders;
  let hosts = 0;
  let authorizations = 0;
  let idempotencyKeys = 0;
  let contentTypes = 0;
  for (let i = 0; i < raw.length; i += 2) {
    const name = raw[i];
    if (name.length === 4 && name.toLowerCase() === 'host') hosts++;
    else if (name.length === 13 && name.toLowerCase() === 'authorization') authorizations++;
    else if (name.length === 15 && name.toLowerCase() === 'idempotency-key') idempotencyKeys++;
    else if (name.length === 12 && name.toLowerCase() === 'content-type') contentTypes++;
  }
  if (hosts > 1) send(res, DUPLICATE_HOST);
  else if (authorizations > 1) send(res, DUPLICATE_AUTHORIZATION);
  else if (idempotencyKeys > 1) send(res, DUPLICATE_IDEMPOTENCY_KEY);
  else if (contentTypes > 1) send(res, DUPLICATE_CONTENT_TYPE);
  else return false;
  return true;
}

type WireProblem = PreparedProblem;

function wireProblem(kind: ProblemKind, detail: string, close: boolean): WireProblem {
  return prepareProblem(kind, detail, close ? ['Cache-Control', 'no-store', 'Connection', 'close'] : ['Cache-Control', 'no-store']);
}

function send(res: ServerResponse, p: WireProblem): void {
  writeAnswerHead(res, p.status, p.headers);
  res.end(p.body);
}

const MISSING_HOST = wireProblem('invalid-request', 'An HTTP/1.1 request needs a Host header.', true);
const BAD_HOST = wireProblem('invalid-request', 'The Host header is not a host name or address (with an optional port).', true);
const DUPLICATE_HOST = wireProblem('invalid-request', 'The request has more than one Host header.', true);
const DUPLICATE_AUTHORIZATION = wireProblem('invalid-request', 'The request has more than one Authorization header; send one.', true);
const DUPLICATE_IDEMPOTENCY_KEY = wireProblem('invalid-request', 'The request has more than one Idempotency-Key header; send one.', true);
const DUPLICATE_CONTENT_TYPE = wireProblem('invalid-request', 'The request has more than one Content-Type header; send one.', true);
const UNSUPPORTED_TRANSFER_CODING = wireProblem('not-implemented', 'The only transfer coding this server reads is chunked; send the body uncoded.', true);
const BAD_TARGET = wireProblem('invalid-request', 'The request target must be a path, an http(s) URL with a host and no user information, or * for OPTIONS; never with a #fragment.', true);
const EXPECTATION_FAILED = wireProblem('expectation-failed', 'The only expectation this server meets is "Expect: 100-continue".', false);

/** What the parser rejected, by Node's error code; anything else is a plain 400. */
const CLIENT_ERRORS: Record<string, WireProblem> = {
  HPE_HEADER_OVERFLOW: wireProblem('header-fields-too-large', 'The request line and headers are larger than this server accepts.', true),
  HPE_CHUNK_EXTENSIONS_OVERFLOW: wireProblem('payload-too-large', 'The chunk extensions of the request body are larger than this server accepts.', true),
  ERR_HTTP_REQUEST_TIMEOUT: wireProblem('request-timeout', 'The request was not received in time.', true),
  HPE_INVALID_URL: wireProblem('invalid-request', 'The request target is not a valid URL; bytes outside printable ASCII must be percent-encoded.', true),
};
const UNPARSABLE = wireProblem('invalid-request', 'The request is not valid HTTP/1.1.', true);
const NOT_A_PROXY = wireProblem('not-implemented', 'This server is no proxy: CONNECT is not supported.', true);

/** The whole response as bytes, for a socket that has no ServerResponse. */
function responseBytes(p: WireProblem): Buffer {
  const lines = [`HTTP/1.1 ${p.status} ${STATUS_CODES[p.status]}`, `Date: ${new Date().toUTCString()}`];
  for (let i = 0; i < p.headers.length; i += 2) lines.push(`${p.headers[i]}: ${p.headers[i + 1]}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), p.body]);
}

/** How long a rejected connection may take to read its answer before it is cut (ms). */
const LINGER_MS = 2_000;

/**
 * Fastify's `clientErrorHandler` (Node's 'clientError'): the parser failed, so there is no
 * request, only the socket; the answer follows any response still under way on it.
 */
export function answerClientError(error: Error & { code?: string }, socket: Duplex, onAnswered?: (answer: EdgeAnswer) => void): void {
  const inFlight = inFlightOn(socket);
  // The failure is in the body of the request being answered: it gets this answer instead, unless its own has begun.
  const ownBody = inFlight !== null && !inFlight.req.complete;
  if (error.code === 'ECONNRESET' || !socket.writable || (ownBody && inFlight.headersSent)) {
    socket.destroy();
    return;
  }
  const p = CLIENT_ERRORS[error.code ?? ''] ?? UNPARSABLE;
  if (ownBody) endNow(socket, p);
  else endWith(socket, p);
  // A body cut short is the request in flight's (its own line tells it); anything else was no request the app saw.
  if (!ownBody) onAnswered?.({ reqId: randomUUID(), method: '', status: p.status, seconds: 0 });
}

/** The response being written on a connection (Node's own field, which it keeps for this), or null between requests. */
export function inFlightOn(socket: Duplex): ServerResponse | null {
  return (socket as Duplex & { _httpMessage?: ServerResponse | null })._httpMessage ?? null;
}

/**
 * Writes `p` as the last bytes of the connection, after the response to an earlier pipelined
 * request still being answered on it (answers go in request order).
 */
function endWith(socket: Duplex, p: WireProblem): void {
  const inFlight = inFlightOn(socket);
  if (inFlight && !inFlight.writableFinished) {
    inFlight.once('finish', () => endWith(socket, p));
    inFlight.once('close', () => {
      if (!inFlight.writableFinished) socket.destroy();
    });
    return;
  }
  endNow(socket, p);
}

/** Writes `p` as the last bytes of the connection; cuts it if the client does not close in time. */
function endNow(socket: Duplex, p: WireProblem): void {
  socket.end(responseBytes(p));
  setTimeout(() => socket.destroy(), LINGER_MS).unref();
}

/** Fastify's `frameworkErrors`: what Fastify rejects before routing (a malformed URL, an over-long parameter). */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply, onAnswered?: (answer: EdgeAnswer) => void): void {
  const body = (error.statusCode ?? 500) >= 500
    ? problemBody('internal-error', 'The server could not answer this request.')
    : problemBody('invalid-request', 'The request URL or headers could not be read.');
  void reply.code(body.status).header('cache-control', 'no-store').type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(body));
  onAnswered?.({ reqId: request.id, method: request.method, status: body.status, seconds: reply.elapsedTime / 1000 });
}
