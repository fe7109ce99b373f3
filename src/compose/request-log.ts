/**
 * What the workspace app tells about each request it answered, at one place (an onResponse
 * hook on the app's root): the metrics (counted by operation and status; ops/metrics.ts) and
 * one log line — the request id, the operation (its id, or the route template of another
 * route: never the URL, whose query string may hold a code or a token), method, status,
 * duration, and the workspace and key id of an admitted API caller. No header, body or query
 * is logged. Problem bodies carry the request id too (`request_id`), so a caller's report
 * names the log line.
 *
 * An MCP request (`/api/v1/mcp`) is counted as `mcp`, or as `mcp:<operation id>` when it called
 * a tool (every tool is an operation of the route table, so the set of labels stays bounded),
 * with the HTTP status; its line adds the tool's own status (`tool_status`: the REST status the
 * call would have had), and a tool call refused by the rate limit or answered as a replay is
 * counted as a REST one is.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { answeredStatus, type Logger, type RequestLine, requestLineWriter } from '../ops/logger.js';
import type { RequestMetrics } from '../ops/metrics.js';

export interface RequestObserving {
  /** Count each response (the process's metrics). */
  metrics?: RequestMetrics;
  /** Write one log line per request to the app's logger (`app.log`). */
  log?: boolean;
}

export function observeRequests(app: FastifyInstance, opts: RequestObserving): void {
  const { metrics, log } = opts;
  app.addHook('onSend', (req, reply, payload, done) => {
    // A problem body names the request (the X-Request-Id answered with it).
    if (typeof payload === 'string' && payload.endsWith('}') && String(reply.getHeader('content-type') ?? '').startsWith('application/problem+json')) {
      return done(null, `${payload.slice(0, -1)},"request_id":${JSON.stringify(req.id)}}`);
    }
    done(null, payload);
  });
  if (!metrics && !log) return;
  const write = log ? requestLineWriter(app.log as Logger) : undefined;
  const tell = (req: FastifyRequest, reply: FastifyReply, aborted: boolean) => {
    const options = req.routeOptions;
    const route = options.config?.apiRoute;
    const tool = req.mcpCall?.tool;
    const operation = route?.operationId ?? (req.mcpCall ? (tool ? `mcp:${tool.name}` : 'mcp') : (options.url ?? 'unmatched'));
    const status = answeredStatus(reply.raw, aborted);
    const seconds = reply.elapsedTime / 1000;
    if (metrics) {
      metrics.request(operation, status, seconds);
      // Only the per-key limit of an operation: the sign-in throttle's 429 is no call kind's refusal.
      if (status === 429 && route) metrics.rateLimited(route.kind);
      else if (tool?.status === 429) metrics.rateLimited(tool.kind);
      else if (tool ? tool.replayed : route && reply.getHeader('idempotent-replayed') === 'true') metrics.replayed(operation);
    }
    if (write) write(requestLine(req, reply, operation, status, seconds, aborted));
  };
  // Fastify tells only of responses that finished; one whose client went away (mid-upload, while
  // it waited on the database, mid-body) is told when its connection closes.
  app.addHook('onRequest', (req, reply, done) => {
    reply.raw.once('close', () => reply.raw.writableFinished || tell(req, reply, true));
    done();
  });
  app.addHook('onResponse', (req, reply, done) => {
    tell(req, reply, false);
    done();
  });
}

function requestLine(req: FastifyRequest, reply: FastifyReply, operation: string, status: number, seconds: number, aborted: boolean): RequestLine {
  const auth = req.apiAdmission?.auth ?? req.mcpCall?.auth;
  return {
    reqId: req.id,
    operation,
    method: req.method,
    status,
    tool_status: req.mcpCall?.tool?.status,
    ...(aborted ? { aborted } : {}),
    duration_ms: Math.round(seconds * 1e4) / 10,
    workspace: auth?.workspace.id,
    key_id: auth?.key.id,
  };
}
