/**
 * The public surface's requests told like the workspace app's (compose/request-log.ts): each
 * answered request counted by its route template and status (ops/metrics.ts) and written as
 * one log line — request id, operation (the template: `/api/data/{slug}/{month}`, never the
 * path), method, status, duration. Only when the process observes (`--ops-port` for the
 * metrics; the log of `serve` and `start`): the bare handler stays as fast as before otherwise.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger } from 'fastify';
import { answerRequestId } from '../http/wire.js';
import { publicRequestPath, publicRouteTemplate } from '../core/public-paths.js';
import { answeredStatus, type Logger, requestLineWriter } from '../ops/logger.js';
import type { RequestMetrics } from '../ops/metrics.js';
import type { PublicHandler } from './handler.js';

export interface PublicObserving {
  metrics?: RequestMetrics;
  log?: FastifyBaseLogger;
}

export function observePublic(handle: PublicHandler, opts: PublicObserving): PublicHandler {
  const { metrics, log } = opts;
  if (!metrics && !log) return handle;
  const write = log ? requestLineWriter(log as Logger) : undefined;
  return (req, res) => {
    const start = performance.now();
    if (!handle(req, res)) return false;
    const done = () => record(req, res, (performance.now() - start) / 1000, false);
    if (res.writableFinished) done();
    else {
      res.once('finish', done);
      // A response cut short (the client went away mid-body) never finishes: told as aborted.
      res.once('close', () => res.writableFinished || record(req, res, (performance.now() - start) / 1000, true));
    }
    return true;
  };

  function record(req: IncomingMessage, res: ServerResponse, seconds: number, aborted: boolean): void {
    const operation = publicRouteTemplate(publicRequestPath(req.url ?? ''));
    const status = answeredStatus(res, aborted);
    metrics?.request(operation, status, seconds);
    write?.({ reqId: String(answerRequestId(res) ?? res.getHeader('x-request-id')), operation, method: req.method ?? '', status, ...(aborted ? { aborted } : {}), duration_ms: Math.round(seconds * 1e4) / 10 });
  }
}
