/**
 * The `serve` application: a Fastify instance (no listening here; see server.ts) whose HTTP
 * server answers the public statistics paths (`/api/data…`, `/data…`) with the plain handler
 * of handler.ts (documents from memory, cards streamed from the release folder through a small
 * LRU of bodies, text compressed once per file and coding into another, encoded-body.ts),
 * before Fastify's routing, and hands every other path
 * to Fastify, where extra plugins (the workspace API under `/api/v1`) are mounted.
 *
 * The public rules (query-string 404, public caching) therefore apply only under the public
 * prefixes; every other response gets `Cache-Control: no-store` unless it sets its own.
 * Fastify's not-found handler hands public paths to the same handler, so `app.inject()` sees
 * the public surface exactly as a socket does. (No Fastify routes are registered for them:
 * besides being unreachable on a socket, registering both `/data` and `/data/*` measurably
 * slowed every request of the process, 304s by about a third.)
 */
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyPluginAsync,
  type FastifyPluginCallback,
  type FastifyServerOptions,
} from 'fastify';
import { httpProblemKind, PROBLEM_CONTENT_TYPE, problemBody } from '../http/problems.js';
import { MAX_PARAM_LENGTH, wireServerOptions, type ServerTimeouts } from '../http/wire.js';
import { bodyCache, type BodyCache, DEFAULT_FILE_CACHE_BYTES } from './file-body.js';
import { EncodedBodies } from './encoded-body.js';
import { createPublicHandler, type PublicHandler } from './handler.js';
import { openLivePublication, type LiveOptions, type LivePublication } from './live-publication.js';
import { isPublicPath, pageUrl, publicRequestPath, SLUGS } from '../core/public-paths.js';
import { answerProbe, type Health } from '../ops/health.js';
import { observeEdge } from '../ops/edge-answers.js';
import type { Logger } from '../ops/logger.js';
import type { RequestMetrics } from '../ops/metrics.js';
import { observePublic } from './observe.js';

/** A Fastify plugin to register on the combined port, e.g. `{ plugin: apiPlugin, options: { prefix: '/api/v1' } }`. */
export interface ServePlugin {
  plugin: FastifyPluginAsync<any> | FastifyPluginCallback<any>;
  options?: Record<string, unknown>;
}

export type ServeTimeouts = ServerTimeouts;

export interface ServeAppOptions {
  /** Output folder written by `storelens publish`. */
  out: string;
  /** Polling and reporting of the live publication. */
  live?: LiveOptions;
  /** Extra Fastify plugins, registered in order after the public surface. */
  plugins?: ServePlugin[];
  /** Or any other setup of the Fastify instance (runs after `plugins`). */
  mount?: (app: FastifyInstance) => Promise<void> | void;
  logger?: FastifyServerOptions['logger'];
  timeouts?: ServeTimeouts;
  /** Bound of the LRU of recently served card bodies (bytes; 0 = every card GET reads the disk). */
  fileCacheBytes?: number;
  /** Bound of the LRU of compressed bodies (bytes; encoded-body.ts DEFAULT_ENCODED_CACHE_BYTES). */
  encodedCacheBytes?: number;
  /** Answers /-/liveness and /-/readiness (ops/health.ts) before the public surface. */
  health?: Health;
  /** The process's log (ops/logger.ts); instead of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Count each public request (by route template and status) among the process's metrics. */
  metrics?: RequestMetrics;
  /** One line per public request on `loggerInstance` (observe.ts). */
  requestLog?: boolean;
  /** Reverse proxies whose X-Forwarded-For names the client (`--trusted-proxy`, http/wire.ts). */
  trustedProxies?: readonly string[];
}

export interface ServeApp {
  readonly app: FastifyInstance;
  readonly live: LivePublication;
  /** The public surface alone, for a caller that runs its own node:http server. */
  readonly handlePublic: PublicHandler;
  /** Recently served card bodies (null when disabled). */
  readonly fileCache: BodyCache | null;
  /** Compressed bodies of the text artifacts. */
  readonly encoded: EncodedBodies;
}

/**
 * Builds the app: loads the live publication of `out` (none yet is fine: public paths answer
 * 503 until the first publish), registers the plugins, and resolves once Fastify is ready.
 */
export async function buildServeApp(opts: ServeAppOptions): Promise<ServeApp> {
  const live = await openLivePublication(opts.out, opts.live);
  const health = opts.health;
  const cacheBytes = opts.fileCacheBytes ?? DEFAULT_FILE_CACHE_BYTES;
  const fileCache = cacheBytes > 0 ? bodyCache(cacheBytes) : null;
  const encoded = new EncodedBodies({ maxBytes: opts.encodedCacheBytes, fileCache });
  const bareHandler = createPublicHandler(live, {
    fileCache,
    encoded,
    // Called at request time only, once `app` exists.
    onError: (error, artifact) => app.log.warn({ err: error, file: artifact.file }, 'card not served'),
  });
  const handlePublic = observePublic(bareHandler, { metrics: opts.metrics, log: opts.requestLog ? opts.loggerInstance : undefined });

  const app = Fastify({
    // The workspace app logs each request itself (compose/request-log.ts), not Fastify.
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance, logController: new LogController({ disableRequestLogging: true }) } : { logger: opts.logger ?? false }),
    // Mounted APIs refuse a long id naming it (MAX_PARAM_LENGTH).
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Wire errors, framework errors and absolute-form targets (http/wire.ts); public paths
    // are answered there, before Fastify.
    ...wireServerOptions({
      timeouts: opts.timeouts,
      trustedProxies: opts.trustedProxies,
      answerFirst: health ? (req, res) => answerProbe(health, req, res) || handlePublic(req, res) : handlePublic,
      onAnswered: observeEdge({ metrics: opts.metrics, log: opts.requestLog ? (opts.loggerInstance as Logger | undefined) : undefined }),
    }),
  });
  app.addHook('onClose', async () => live.close());
  // Not the folder's path: readiness is answered on the public port too (the banner names it).
  health?.add({ name: 'release', check: () => (live.current === null ? 'nothing is published in --out yet' : undefined) });

  app.addHook('onSend', async (_request, reply, payload) => {
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });
  // Whoever opens the server's own address (a newcomer after `npm start`, the feed's channel
  // link) lands on the statistics' first page rather than on a 404.
  app.get('/', (_request, reply) => reply.code(302).header('location', pageUrl('', SLUGS[0])).send());
  app.setNotFoundHandler((request, reply) => {
    if (isPublicPath(publicRequestPath(request.raw.url ?? ''))) {
      // Reached through inject() only: on a socket the server above answers these paths first.
      reply.hijack();
      handlePublic(request.raw, reply.raw);
      return;
    }
    void reply
      .code(404)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problemBody('not-found', `No route ${request.method} ${request.url.split('?')[0]}.`));
  });
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 500;
    if (status >= 500) request.log.error({ err: error }, 'request failed');
    const detail = status >= 500 ? 'The server could not answer this request.' : error.message;
    void reply
      .code(status)
      .type(PROBLEM_CONTENT_TYPE)
      .send(problemBody(httpProblemKind(status), detail, {}, status));
  });

  try {
    for (const { plugin, options } of opts.plugins ?? []) await app.register(plugin, options ?? {});
    if (opts.mount) await opts.mount(app);
    await app.ready();
  } catch (e) {
    live.close();
    await app.close().catch(() => undefined);
    throw e;
  }
  return { app, live, handlePublic, fileCache, encoded };
}
