/**
 * Listening, and graceful shutdown, for the api app (the factory lives in api-app.ts). Closing
 * stops accepting connections, answers requests that arrive on open keep-alive connections with
 * 503, closes idle ones at once and lets the requests in flight finish (http/graceful-close.ts);
 * after `graceMs` whatever is left is cut.
 */
import type { FastifyInstance } from 'fastify';
import { SHUTDOWN_GRACE_MS } from '../core/defaults.js';
import { gracefulClose } from '../http/graceful-close.js';
import { buildApiApp, type BuildApiAppOptions } from './api-app.js';

export interface ListeningApi {
  app: FastifyInstance;
  url: string;
  /** Graceful close; safe to call more than once. */
  close(): Promise<void>;
}

export async function listenApi(opts: BuildApiAppOptions & { port: number; host: string; graceMs?: number }): Promise<ListeningApi> {
  const { port, host, graceMs = SHUTDOWN_GRACE_MS, ...appOpts } = opts;
  const app = await buildApiApp({ timeouts: { requestMs: 30_000, headersMs: 15_000 }, ...appOpts });
  await app.listen({ port, host });
  const addr = app.server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  return {
    app,
    url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}/api/v1`,
    close: gracefulClose(app.server, () => app.close(), graceMs),
  };
}
