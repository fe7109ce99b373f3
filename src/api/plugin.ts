/**
 * The /api/v1 Fastify plugin: routes from the route table, and the checks in DESIGN's order
 * — 401 → 404 (unknown route, unavailable, pilot/activation) → 403 → 429 → 400
 * (Idempotency-Key, then params and body) → 409. Its content-type parser, not-found and error
 * handlers are encapsulated: register it with `{ prefix: '/api/v1' }` next to other routes.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { z } from 'zod';
import type { Db } from '../db/index.js';
import type { KeyWithWorkspace } from '../db/api-keys.js';
import { getOrCreateSetting } from '../db/settings.js';
import type { Workspace } from '../db/schema.js';
import { authenticate, touchIfDue } from './auth.js';
import { capabilityReader, type Capability } from './capabilities.js';
import { docsPage } from './docs-page.js';
import { apiErrorHandler } from './error-handler.js';
import { fingerprint, idempotencyKeyOf, idempotencyRunner } from './idempotency.js';
import { buildOpenApi } from './openapi.js';
import { ApiProblem, PROBLEM_CONTENT_TYPE, type ProblemKind, sendProblem } from './problems.js';
import { DEFAULT_LIMITS, rateLimiter } from './rate-limit.js';
import { type AnyRoute, type CallKind, type OperationResult, isMutating } from './route-def.js';
import { ROUTES, fastifyPath } from './route-table.js';

/** Largest accepted request body (bytes); larger ⇒ 413. */
export const BODY_LIMIT = 64 * 1024;

export interface ApiOptions {
  db: Db;
  /** Clock (injected in tests). */
  now?: () => Date;
  /** Capability manifest; default config/capabilities.json of the package. */
  capabilitiesPath?: string;
  /** Per-minute limits by call kind; default read 120, write 20, report 5. */
  rateLimits?: Partial<Record<CallKind, number>>;
  bodyLimit?: number;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    apiRoute?: AnyRoute;
  }
  interface FastifyRequest {
    apiAuth?: KeyWithWorkspace;
  }
}

const DOC_PATHS = new Set(['/openapi.json', '/docs']);

export const apiPlugin: FastifyPluginAsync<ApiOptions> = async (app, opts) => {
  const { db } = opts;
  const now = opts.now ?? (() => new Date());
  const capability = capabilityReader(opts.capabilitiesPath);
  const limiter = rateLimiter(db, now, { ...DEFAULT_LIMITS, ...opts.rateLimits });
  const idempotency = idempotencyRunner(db, now);
  const cursorSecret = await getOrCreateSetting(db, 'cursor_secret', () => randomBytes(32).toString('hex'));
  const bodyLimit = opts.bodyLimit ?? BODY_LIMIT;
  const prefix = app.prefix;
  const reads = new ReadCache(READ_CACHE_ENTRIES);

  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string', bodyLimit }, (_req, body, done) => done(null, body));
  app.setErrorHandler(apiErrorHandler(bodyLimit));
  // Callback style: no promise per response.
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  });

  app.addHook('onRequest', async (req, reply) => {
    const route = req.routeOptions.config?.apiRoute;
    if (!route) return;
    const at = now();
    const auth = await authenticate(db, req.headers.authorization, at);
    req.apiAuth = auth;
    checkAvailability(route, capability(route.operationId), auth.workspace);
    if (!auth.key.scopes.includes(route.scope)) {
      throw new ApiProblem('insufficient-scope', `This operation needs the scope ${route.scope}, which this key lacks.`, {}, { required_scope: route.scope });
    }
    const { headers } = await limiter.hit(auth.key.id, route.kind, auth.touchDue ? at : undefined);
    reply.headers(headers);
  });

  app.setNotFoundHandler(async (req, reply) => {
    const path = relativePath(req.url, prefix);
    if (DOC_PATHS.has(path)) throw methodNotAllowed(req.method, ['GET']);
    const at = now();
    await touchIfDue(db, await authenticate(db, req.headers.authorization, at), at);
    const allowed = ROUTES.filter((r) => templateRegex(r.path).test(path)).map((r) => r.method);
    // The router refuses over-long path parameters; that is not a method problem.
    if (allowed.length && !allowed.includes(req.method as AnyRoute['method'])) throw methodNotAllowed(req.method, allowed);
    return sendProblem(reply, new ApiProblem('not-found', `There is no operation at ${req.method} ${prefix}${path}.`));
  });

  for (const route of ROUTES) {
    app.route({
      method: route.method,
      url: fastifyPath(route.path),
      exposeHeadRoute: false,
      config: { apiRoute: route },
      handler: async (req, reply) => {
        const auth = req.apiAuth!;
        // A read answered before in this workspace at the same data versions: the same body again.
        const cacheKey = isMutating(route) || route.headers ? undefined : `${route.operationId} ${auth.workspace.id} ${req.url}`;
        const stamp = `${auth.workspace.accounts_version}:${auth.workspace.ranking_version}`;
        if (cacheKey !== undefined) {
          const hit = reads.get(cacheKey);
          if (hit && hit.stamp === stamp) return reply.code(200).type(JSON_TYPE).send(hit.body);
        }
        const idemKey = isMutating(route) ? idempotencyKeyOf(req.headers['idempotency-key']) : undefined;
        const params = validate(route.params, req.params, 'invalid-parameters');
        const query = validate(route.query ?? EMPTY, req.query, 'invalid-parameters');
        if (route.headers) validate(route.headers, req.headers, 'invalid-parameters');
        const rawBody = route.body ? jsonBody(req) : undefined;
        const body = validate(route.body, rawBody, 'invalid-body');
        const handler = route.handler;
        if (!handler) throw new ApiProblem('operation-unavailable', `${route.operationId} is not available yet.`);
        const ctx = { db, tx: db.kysely, now: now(), workspace: auth.workspace, key: auth.key, params, query, body, headers: req.headers, cursorSecret };
        if (idemKey === undefined) {
          const result = await handler(ctx);
          if (cacheKey === undefined || !result.cacheable || result.status !== 200 || result.problem) return send(reply, result);
          const body = JSON.stringify(result.body);
          reads.set(cacheKey, { stamp, body });
          return reply.code(200).type(JSON_TYPE).send(body);
        }
        const fp = fingerprint(route.method, route.path, (req.params ?? {}) as Record<string, string>, rawBody);
        const result = await idempotency.run(auth.workspace.id, idemKey, fp, (tx) => handler({ ...ctx, tx }));
        if (result.replayed) reply.header('idempotent-replayed', 'true');
        return send(reply, result);
      },
    });
  }

  app.get('/openapi.json', { exposeHeadRoute: false }, async (_req, reply) =>
    reply.type('application/json; charset=utf-8').send(JSON.stringify(buildOpenApi(capability, prefix))),
  );
  app.get('/docs', { exposeHeadRoute: false }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send(docsPage(buildOpenApi(capability, prefix))),
  );
};

const EMPTY = z.strictObject({});
const JSON_TYPE = 'application/json; charset=utf-8';

/** Serialized cacheable reads (see OperationResult.cacheable), by operation, workspace and URL. */
const READ_CACHE_ENTRIES = 500;

class ReadCache {
  private readonly entries = new Map<string, { stamp: string; body: string }>();
  constructor(private readonly max: number) {}
  get(key: string) {
    return this.entries.get(key);
  }
  set(key: string, value: { stamp: string; body: string }): void {
    this.entries.delete(key);
    // Oldest first out (Map keeps insertion order).
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, value);
  }
}

function checkAvailability(route: AnyRoute, cap: Capability, ws: Workspace): void {
  if (cap.availability === 'available') return;
  if (cap.availability === 'unavailable') {
    throw new ApiProblem('operation-unavailable', `${route.operationId} is published for compatibility but unavailable in the current wallet-live state.`);
  }
  if (cap.availability === 'pilot' && ws.pilot_access !== 1) {
    throw new ApiProblem('pilot-required', `${route.operationId} is available only to workspaces with approved pilot access.`);
  }
  if (cap.availability === 'activation-gated') {
    const needed = cap.activation ?? route.activation ?? route.operationId;
    if (!(JSON.parse(ws.activations) as string[]).includes(needed)) {
      throw new ApiProblem('activation-required', `${route.operationId} needs the "${needed}" activation for this workspace.`, {}, { activation: needed });
    }
  }
}

function validate(schema: z.ZodType | undefined, input: unknown, kind: ProblemKind): any {
  if (!schema) return undefined;
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issues = r.error.issues.map((i) => ({ path: i.path.map(String).join('.'), message: i.message }));
  const detail = issues.map((i) => (i.path ? `${i.path}: ${i.message}` : i.message)).join('; ');
  throw new ApiProblem(kind, detail || 'The request is invalid.', {}, { errors: issues });
}

function jsonBody(req: FastifyRequest): unknown {
  const raw = req.body;
  if (typeof raw !== 'string' || raw.trim() === '') {
    throw new ApiProblem('invalid-body', 'This operation needs a JSON body (Content-Type: application/json).');
  }
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiProblem('malformed-json', 'The request body is not valid JSON.');
  }
}

function send(reply: FastifyReply, r: OperationResult): FastifyReply {
  return reply
    .code(r.status)
    .type(r.problem ? PROBLEM_CONTENT_TYPE : JSON_TYPE)
    .send(JSON.stringify(r.body));
}

function methodNotAllowed(method: string, allowed: string[]): ApiProblem {
  const allow = [...new Set(allowed)].join(', ');
  return new ApiProblem('method-not-allowed', `${method} is not allowed here; allowed: ${allow}.`, { allow });
}

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
