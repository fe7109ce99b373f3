/** A standalone api app (no listen): /api/v1, with problem+json and no-store everywhere else too, down to the wire. */
import Fastify, { type FastifyInstance } from 'fastify';
import { wireServerOptions, type ServerTimeouts } from '../http/wire.js';
import { apiErrorHandler } from './error-handler.js';
import { BODY_LIMIT, apiPlugin, type ApiOptions } from './plugin.js';
import { ApiProblem, sendProblem } from './problems.js';
import { webPlugin } from '../web/plugin.js';
import { assistantConnector } from '../oauth/connector.js';
import { oauthPlugin } from '../oauth/plugin.js';
import type { OAuthOptions } from '../oauth/provider.js';

export { apiPlugin, type ApiOptions } from './plugin.js';

export interface BuildApiAppOptions extends ApiOptions {
  logger?: boolean;
  /** Connection limits of the server (defaults in http/wire.ts). */
  timeouts?: ServerTimeouts;
  /** The assistant connector's OAuth authorization server (on by default; false: API keys only). */
  oauth?: OAuthOptions | false;
}

export async function buildApiApp(opts: BuildApiAppOptions): Promise<FastifyInstance> {
  const { logger = false, timeouts, oauth: oauthOptions, ...apiOptions } = opts;
  const now = opts.now ?? (() => new Date());
  const connector = oauthOptions === false ? undefined : await assistantConnector(opts.db, now, oauthOptions ?? { allowLocal: opts.webhooks?.guard.allowLocal });
  const oauth = connector?.oauth;
  // MCP clients find the sign-in from the 401 and present access tokens for the MCP URL.
  if (connector) apiOptions.mcp = { ...apiOptions.mcp, ...connector.mcp };
  const app = Fastify({
    logger,
    bodyLimit: opts.bodyLimit ?? BODY_LIMIT,
    routerOptions: { maxParamLength: 500 },
    // Wire errors, framework errors and absolute-form targets as problems (http/wire.ts).
    ...wireServerOptions({ timeouts }),
  });
  // Callback style: no promise per response.
  app.addHook('onSend', (_req, reply, payload, done) => {
    reply.header('cache-control', 'no-store');
    done(null, payload);
  });
  app.setErrorHandler(apiErrorHandler(opts.bodyLimit ?? BODY_LIMIT));
  await app.register(apiPlugin, { ...apiOptions, prefix: '/api/v1' });
  // Member sign-in and Integrations → API & MCP (and the assistant connector's OAuth pages).
  await app.register(webPlugin, { db: opts.db, now: opts.now, publicUrl: opts.mcp?.publicUrl, oauth });
  if (oauth) await app.register(oauthPlugin, { oauth, publicUrl: opts.mcp?.publicUrl });
  app.setNotFoundHandler(async (req, reply) =>
    sendProblem(reply, new ApiProblem('not-found', `There is nothing at ${req.method} ${req.url.split('?')[0]}; the API lives under /api/v1.`)),
  );
  return app;
}
