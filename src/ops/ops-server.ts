/**
 * The operations listener (`--ops-port`, on `--ops-host`, loopback unless told otherwise): the
 * probes (health.ts) and the Prometheus metrics at `/-/metrics`, on a port of its own so that
 * a process serving no requests (`storelens worker`) answers them too, and so that metrics are
 * never on the public port. It is closed last, after the database: while a process drains, its
 * readiness answers 503 here.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../http/problems.js';
import { answerProbe, type Health } from './health.js';

export const METRICS_PATH = '/-/metrics';

/** What `/-/metrics` answers (metrics.ts). */
export interface MetricsSource {
  readonly contentType: string;
  text(): Promise<string>;
}

export interface OpsListener {
  /** e.g. `http://127.0.0.1:9090` */
  readonly url: string;
  readonly port: number;
  close(): Promise<void>;
}

export async function listenOps(opts: { port: number; host: string; health: Health; metrics?: MetricsSource }): Promise<OpsListener> {
  const { health, metrics } = opts;
  const server: Server = createServer((req, res) => {
    if (answerProbe(health, req, res)) return;
    const path = (req.url ?? '').split('?')[0];
    if (path === METRICS_PATH && metrics && (req.method === 'GET' || req.method === 'HEAD')) {
      metrics.text().then(
        (text) => {
          res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
          res.end(req.method === 'HEAD' ? undefined : text);
        },
        (e: Error) => {
          res.writeHead(500, { 'content-type': PROBLEM_CONTENT_TYPE });
          res.end(JSON.stringify(problemBody('internal-error', `metrics could not be collected: ${e.message}`)));
        },
      );
      return;
    }
    res.writeHead(404, { 'content-type': PROBLEM_CONTENT_TYPE });
    res.end(JSON.stringify(problemBody('not-found', `Nothing at ${req.method} ${path}: this listener answers /-/liveness, /-/readiness and ${METRICS_PATH}.`)));
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, opts.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  let closing: Promise<void> | undefined;
  return {
    url: `http://${host}:${address.port}`,
    port: address.port,
    close: () =>
      (closing ??= new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      })),
  };
}
