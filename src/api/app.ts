/** A standalone api app (no listen): /api/v1 plus problem+json 404s everywhere else. */
import Fastify, { type FastifyInstance } from 'fastify';
import { ApiProblem, sendProblem } from './problems.js';
import { apiPlugin, type ApiOptions } from './plugin.js';
import { apiFrameworkErrors } from './framework-errors.js';

export { apiPlugin, type ApiOptions } from './plugin.js';

export interface BuildApiAppOptions extends ApiOptions {
  logger?: boolean;
}

export async function buildApiApp(opts: BuildApiAppOptions): Promise<FastifyInstance> {
  const { logger = false, ...apiOptions } = opts;
  const app = Fastify({ logger, frameworkErrors: apiFrameworkErrors });
  await app.register(apiPlugin, { ...apiOptions, prefix: '/api/v1' });
  app.setNotFoundHandler(async (req, reply) =>
    sendProblem(reply, new ApiProblem('not-found', `There is nothing at ${req.method} ${req.url.split('?')[0]}; the API lives under /api/v1.`)),
  );
  return app;
}
