/** The workspace app on a server of its own (no listen): problem+json and no-store everywhere, down to the wire. */
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { MAX_PARAM_LENGTH, wireServerOptions, type ServerTimeouts } from '../http/wire.js';
import { answerProbe, type Health } from '../ops/health.js';
import { observeEdge } from '../ops/edge-answers.js';
import type { Logger } from '../ops/logger.js';
import { apiErrorHandler } from '../api/error-handler.js';
import { BODY_LIMIT } from '../api/plugin.js';
import { ApiProblem, sendProblem } from '../api/problems.js';
import { API_PREFIX, registerWorkspaceApp, type WorkspaceAppOptions } from './workspace-app.js';

export interface BuildApiAppOptions extends WorkspaceAppOptions {
  logger?: boolean;
  /** Connection limits of the server (defaults in http/wire.ts). */
  timeouts?: ServerTimeouts;
  /** Answers /-/liveness and /-/readiness (ops/health.ts) before the app. */
  health?: Health;
  /** The process's log (ops/logger.ts), the app's requests' too; instead of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Reverse proxies whose X-Forwarded-For names the client (`--trusted-proxy`, http/wire.ts). */
  trustedProxies?: readonly string[];
}

export async function buildApiApp(opts: BuildApiAppOptions): Promise<FastifyInstance> {
  const { logger = false, timeouts, health, loggerInstance, trustedProxies, ...appOptions } = opts;
  const app = Fastify({
    ...(loggerInstance ? { loggerInstance, logController: new LogController({ disableRequestLogging: true }) } : { logger }),
    bodyLimit: opts.bodyLimit ?? BODY_LIMIT,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    // Wire errors, framework errors and absolute-form targets as problems (http/wire.ts).
    ...wireServerOptions({
      timeouts,
      trustedProxies,
      answerFirst: health && ((req, res) => answerProbe(health, req, res)),
      onAnswered: observeEdge({ metrics: appOptions.metrics, log: appOptions.requestLog ? (loggerInstance as Logger | undefined) : undefined }),
    }),
  });
  // Callback style: no promise per response.
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  app.setErrorHandler(apiErrorHandler(opts.bodyLimit ?? BODY_LIMIT));
  await registerWorkspaceApp(app, appOptions);
  app.setNotFoundHandler(async (req, reply) =>
    sendProblem(reply, new ApiProblem('not-found', `There is nothing at ${req.method} ${req.url.split('?')[0]}; the API lives under ${API_PREFIX}.`)),
  );
  return app;
}
