/** Listening, and graceful shutdown, for the api app (the factory lives in app.ts). */
import type { FastifyInstance } from 'fastify';
import { buildApiApp, type BuildApiAppOptions } from './app.js';

export interface ListeningApi {
  app: FastifyInstance;
  url: string;
  close(): Promise<void>;
}

export async function listenApi(opts: BuildApiAppOptions & { port: number; host: string }): Promise<ListeningApi> {
  const { port, host, ...appOpts } = opts;
  const app = await buildApiApp({ timeouts: { requestMs: 30_000, headersMs: 15_000 }, ...appOpts });
  await app.listen({ port, host });
  const addr = app.server.address();
  const actual = typeof addr === 'object' && addr ? addr.port : port;
  return { app, url: `http://${host.includes(':') ? `[${host}]` : host}:${actual}/api/v1`, close: () => app.close() };
}
