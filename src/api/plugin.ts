/**
 * The /api/v1 Fastify plugin: a thin REST adapter over the operation executor (executor.ts),
 * which runs DESIGN's checks — 401 → 404 (unknown route, unavailable, pilot/activation) → 403 →
 * 429 → 400 (Idempotency-Key, then params and body) → 409. The adapter admits a call before its
 * body is read (onRequest), turns the HTTP request into a plain one and writes the answer. Its
 * content-type parser, not-found and error handlers are encapsulated: register it with
 * `{ prefix: '/api/v1' }` next to other routes.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import { selectCoding } from '../http/accept-encoding.js';
import { authenticate, touchIfDue } from './auth.js';
import { BODY_LIMIT, unreadableJsonBody } from './body.js';
import { capabilityReader } from './capabilities.js';
import { DOCS_POLICY, docsPage } from './docs-page.js';
import { apiErrorHandler } from './error-handler.js';
import { type Admission, type ExecutorOptions, JSON_TYPE, type OperationExecutor, type OperationResponse, createExecutor } from './executor.js';
import { buildOpenApi, type DocumentedWebhooks } from './openapi.js';
import { ApiProblem, methodNotAllowed, PROBLEM_CONTENT_TYPE, sendProblem } from './problems.js';
import type { AnyRoute, CallKind } from './route-def.js';
import type { OutboundRuntime } from '../outbound/runtime.js';
import { ifNoneMatchMatches } from '../http/conditional.js';


/** Fastify path syntax: `/webhooks/{id}` ⇒ `/webhooks/:id`. */
const fastifyPath = (path: string): string => path.replace(/\{(\w+)\}/g, ':$1');

export { BODY_LIMIT } from './body.js';

/**
 * Another endpoint under the api's prefix whose calls run operations through its executor (the
 * MCP endpoint, composed in compose/workspace-app.ts); it shares the api's body parsing, error
 * handling and no-store.
 */
export type ApiEndpoint = (app: FastifyInstance, executor: OperationExecutor, routes: readonly AnyRoute[]) => void;

export interface ApiOptions {
  db: Db;
  /** The operations to serve, in documentation order (the composition's route table: compose/modules.ts). */
  routes: readonly AnyRoute[];
  /** What openapi.json documents as sent to registered endpoints (the composition's: compose/modules.ts). */
  webhooks?: DocumentedWebhooks;
  /** Clock (injected in tests). */
  now?: () => Date;
  /** Capability manifest; default config/capabilities.json of the package. */
  capabilitiesPath?: string;
  /** Per-minute limits by call kind; default read 120, write 20, report 5. */
  rateLimits?: Partial<Record<CallKind, number>>;
  bodyLimit?: number;
  /** Told after a mutating operation committed (see ExecutorOptions.onWrite). */
  onWrite?: ExecutorOptions['onWrite'];
  /** How a key is found by its hash (see ExecutorOptions.findKey). */
  findKey?: ExecutorOptions['findKey'];
  /** Check every JSON success body against its route's response schema (see ExecutorOptions.validateResponses). */
  validateResponses?: boolean;
  /** Where a response mismatch is reported (default: console.error). */
  log?: (line: string) => void;
  /** The handlers' secret box and SSRF settings (see ExecutorOptions.outbound). */
  outbound?: OutboundRuntime;
  /** Endpoints beside the operations' routes (the composition adds the MCP endpoint). */
  endpoints?: readonly ApiEndpoint[];
}

declare module 'fastify' {
  interface FastifyContextConfig {
    apiRoute?: AnyRoute;
  }
  interface FastifyRequest {
    apiAdmission?: Admission;
  }
}

const DOC_PATHS = new Set(['/openapi.json', '/docs']);

export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (app, opts) => {
  const { db, routes } = opts;
  const now = opts.now ?? (() => new Date());
  const capability = capabilityReader(opts.capabilitiesPath);
  const executor = await createExecutor({ db, now, capability, rateLimits: opts.rateLimits, onWrite: opts.onWrite, findKey: opts.findKey, outbound: opts.outbound, validateResponses: opts.validateResponses, log: opts.log, bodyLimit: opts.bodyLimit });
  const bodyLimit = opts.bodyLimit ?? BODY_LIMIT;
  const prefix = app.prefix;
  // The document changes only with the manifest (read at call time): built again when an operation's capability changes.
  let built: { key: string; doc: ReturnType<typeof buildOpenApi>; json: string } | undefined;
  const openApiBuilt = () => {
    const key = JSON.stringify(routes.map((r) => capability(r)));
    if (built?.key !== key) {
      const doc = buildOpenApi(routes, capability, opts.webhooks, prefix, bodyLimit);
      built = { key, doc, json: JSON.stringify(doc) };
    }
    return built;
  };

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit }, (req, body, done) => {
    const refused = unreadableJsonBody(req.headers['content-type'], req.headers['content-encoding']);
    if (refused) return done(refused, undefined);
    const text = utf8Text(body as Buffer);
    if (typeof text === 'string') done(null, text);
    else done(text, undefined);
  });
  app.setErrorHandler(apiErrorHandler(bodyLimit));
  // Callback style: no promise per response.
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  // 401 → 404 → 403 → 429 before the body is read; later problems carry the rate-limit headers too.
  app.addHook('onRequest', async (req, reply) => {
    const route = req.routeOptions.config?.apiRoute;
    if (!route) return;
    // `/accounts/` matches `/accounts/{id}` with an empty id: no resource lives there.
    if (hasEmptyParam(req.params)) return notFound(req, reply);
    const admission = await executor.admit(route, req.headers);
    req.apiAdmission = admission;
    reply.headers(admission.headers);
  });

  const notFound = async (req: FastifyRequest, reply: FastifyReply) => {
    const path = relativePath(req.url, prefix);
    if (DOC_PATHS.has(path)) throw methodNotAllowed(req.method, ['GET', 'HEAD']);
    const at = now();
    await touchIfDue(db, await authenticate(db, req.headers.authorization, at), at);
    const allowed: string[] = routes.filter((r) => templateRegex(r.path).test(path)).flatMap((r) => (r.method === 'GET' ? ['GET', 'HEAD'] : [r.method]));
    // The router refuses over-long path parameters; that is not a method problem.
    if (allowed.length && !allowed.includes(req.method as AnyRoute['method'])) throw methodNotAllowed(req.method, allowed);
    return sendProblem(reply, new ApiProblem('not-found', `There is no operation at ${req.method} ${prefix}${path}.`));
  };
  app.setNotFoundHandler(notFound);

  for (const route of routes) {
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      // HEAD of a read answers as its GET would, without the body (RFC 9110 §9.3.2): the same
      // checks, the same count against the rate limit.
      exposeHeadRoute: route.method === 'GET',
      config: { apiRoute: route },
      handler: async (req, reply) => {
        const request = {
          params: req.params as Record<string, string>,
          query: req.query as Record<string, unknown>,
          headers: req.headers,
          rawBody: req.body as string | undefined,
          target: req.url,
          ...(req.method === 'HEAD' && { bodyless: true as const }),
        };
        return send(reply, await executor.perform(route, request, req.apiAdmission!), req);
      },
    });
  }

  for (const endpoint of opts.endpoints ?? []) endpoint(app, executor, routes);

  app.get('/openapi.json', async (_req, reply) => reply.type('application/json; charset=utf-8').send(openApiBuilt().json));
  app.get('/docs', async (_req, reply) => reply.type('text/html; charset=utf-8').header('content-security-policy', DOCS_POLICY).send(docsPage(openApiBuilt().doc)));
};

// fatal: bytes that are not UTF-8 are refused, not replaced by U+FFFD; ignoreBOM: a BOM stays and is not JSON.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The body as text (the executor parses it), or a malformed-json problem when it is not UTF-8 (RFC 8259 §8.1). */
function utf8Text(body: Buffer): string | ApiProblem {
  try {
    return UTF8.decode(body);
  } catch {
    return new ApiProblem('malformed-json', 'The request body is not valid UTF-8 (RFC 8259 JSON is UTF-8).');
  }
}

function hasEmptyParam(params: unknown): boolean {
  for (const v of Object.values(params as Record<string, string>)) if (v === '') return true;
  return false;
}

function send(reply: FastifyReply, r: OperationResponse, req: FastifyRequest): FastifyReply {
  if (notModified(r, req)) return reply.code(304).headers(r.headers).send();
  const acceptEncoding = req.headers['accept-encoding'];
  reply
    .code(r.status)
    .headers(r.headers)
    .type(r.problem ? PROBLEM_CONTENT_TYPE : (r.contentType ?? JSON_TYPE));
  if (!r.gzipped) return reply.send(r.body);
  // A cacheable read goes out gzipped to a caller that takes it (compressed once per page).
  reply.header('vary', 'accept-encoding');
  if (selectCoding(acceptEncoding, GZIP_ONLY) !== 'gzip') return reply.send(r.body);
  return reply.header('content-encoding', 'gzip').send(r.gzipped());
}

/**
 * A GET (or HEAD) of a versioned resource whose ETag the caller's If-None-Match names, with the
 * weak comparison RFC 9110 §13.1.2 gives it: answered 304 with its headers and no body. The
 * resource is read all the same (the ETag is its version); only the body is saved.
 */
function notModified(r: OperationResponse, req: FastifyRequest): boolean {
  const etag = r.headers.etag;
  const ifNoneMatch = req.headers['if-none-match'];
  if (etag === undefined || ifNoneMatch === undefined || r.status !== 200 || r.problem) return false;
  return (req.method === 'GET' || req.method === 'HEAD') && ifNoneMatchMatches(ifNoneMatch, etag.slice(1, -1));
}

/** The API's cacheable reads (pages of accounts, which carry no ETag) are kept gzipped: that is the one coding it offers (serve's files are offered in br too). */
const GZIP_ONLY = { br: false, gzip: true };

function relativePath(url: string, prefix: string): string {
  const path = url.split('?')[0] ?? '';
  return path.startsWith(prefix) ? path.slice(prefix.length) : path;
}

const regexCache = new Map<string, RegExp>();
function templateRegex(template: string): RegExp {
  let re = regexCache.get(template);
  if (!re) {
    re = new RegExp(`^${template.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{\w+\}/g, '[^/]+')}$`);
    regexCache.set(template, re);
  }
  return re;
}
