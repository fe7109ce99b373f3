/**
 * What the HTTP edge answered itself (http/wire.ts `onAnswered`: a malformed or ambiguous
 * request, an expectation or CONNECT refused, bytes the parser could not read, a URL the router
 * could not read) counted and logged as every other request is, under `unmatched`: no route was
 * matched. Before, they reached neither the metrics nor the log, so a client sending malformed
 * requests, or a proxy in front rewriting them badly, showed nowhere but in its own errors.
 */
import type { EdgeAnswer } from '../http/wire.js';
import { type Logger, requestLineWriter } from './logger.js';
import type { RequestMetrics } from './metrics.js';

export const UNMATCHED = 'unmatched';

export function observeEdge(opts: { metrics?: RequestMetrics; log?: Logger }): ((answer: EdgeAnswer) => void) | undefined {
  const { metrics, log } = opts;
  if (!metrics && !log) return undefined;
  // A 501 of the edge is the client's doing (CONNECT to a server that is no proxy, a transfer
  // coding it does not speak): a port scanner's requests are no server failure to alert on.
  const write = log ? requestLineWriter(log, (status) => (status >= 500 && status !== 501 ? 'error' : 'info')) : undefined;
  return (a) => {
    metrics?.request(UNMATCHED, a.status, a.seconds);
    write?.({ reqId: a.reqId, operation: UNMATCHED, method: a.method, status: a.status, duration_ms: Math.round(a.seconds * 1e4) / 10 });
  };
}
