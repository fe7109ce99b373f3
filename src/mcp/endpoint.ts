/**
 * The MCP endpoint, `/api/v1/mcp`: Streamable HTTP on the 2026-07-28 specification (no protocol
 * sessions; every request stands alone) through the official SDK's `createMcpHandler`. The
 * caller is authenticated per HTTP request by the executor (an API key, or an OAuth access
 * token when the assistant connector is on), a 401 points MCP clients at the protected-resource
 * metadata, and each request gets a fresh server listing exactly the tools this caller may
 * call now. A tool call runs the operation through the executor REST uses — availability,
 * scope, rate limit, Idempotency-Key, validation, handler — and answers a problem as a tool error.
 */
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { type CallToolResult, McpServer, type RequestId, ProtocolError, ProtocolErrorCode, type Tool, type StandardSchemaWithJSON, createMcpHandler, localhostAllowedOrigins, originValidationResponse } from '@modelcontextprotocol/server';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Authenticated } from '../api/auth.js';
import type { OperationExecutor, OperationResponse } from '../api/executor.js';
import { toProblem } from '../api/error-handler.js';
import { ApiProblem, isApiProblem, methodNotAllowed, sendProblem } from '../api/problems.js';
import { type AnyRoute, type CallKind, isMutating } from '../api/route-def.js';
import { SCOPES } from '../api/scopes.js';
import { NAMED_TWICE, repeatedMember } from '../core/json-members.js';
import { type PublicationSource, registerStatisticsResources } from './resources.js';
import { callerOf, operationTools, problemInToolWords } from './tools.js';

export const MCP_PATH = '/mcp';
/**
 * The largest MCP message read. A tool call's arguments become a body held to the API's body
 * limit by the executor (a tool error, 413, as REST answers), so the message around them may be
 * larger than that limit; only a message over this one is refused as HTTP 413.
 */
export const MCP_MESSAGE_LIMIT = 1024 * 1024;
const SERVER_INFO = { name: 'storelens', title: 'storelens workspace API', version: '1.0.0' };

export interface McpOptions {
  /** The public statistics to offer as resources (none when absent). */
  publication?: PublicationSource;
  /**
   * Hostnames a browser `Origin` may name (DNS-rebinding guard); requests without an Origin
   * (assistants, scripts) always pass. Default: localhost names plus the host of `publicUrl`.
   */
  allowedOrigins?: string[];
  /** The origin clients reach this server at (`https://api.example.com`); default: from each request's Host. */
  publicUrl?: string;
  /** Where the RFC 9728 protected-resource metadata is (set when the OAuth sign-in is on), given the server origin. */
  resourceMetadataUrl?: (origin: string) => string;
  /**
   * The assistant connector: the caller an OAuth access token signs in, checked for the MCP URL
   * of `origin` (undefined when the header is no access token; an API key goes to the executor).
   */
  accessToken?: (authorization: string | string[] | undefined, origin: string) => Promise<Authenticated | undefined>;
}

/**
 * What an MCP request did, for the request's metrics and log line (compose/request-log.ts): who
 * called, and the tool it called if any — an operation of the route table, so the label it makes
 * (`mcp:<operation id>`) has a bounded set of values.
 */
export interface McpCall {
  auth?: Authenticated;
  tool?: { name: string; kind: CallKind; status: number; replayed: boolean };
}

declare module 'fastify' {
  interface FastifyRequest {
    mcpCall?: McpCall;
  }
}

interface Ctx {
  executor: OperationExecutor;
  routes: readonly AnyRoute[];
  prefix: string;
  opts: McpOptions;
}

/**
 * The SDK warns on the console, at every start, that JSON responses drop notifications sent
 * before a result. Our tools send none (each is one executor call), so the warning only adds
 * noise to a server's log; every other console line goes through.
 */
function withoutJsonModeWarning<T>(make: () => T): T {
  const warn = console.warn;
  console.warn = (...args: unknown[]) => {
    if (typeof args[0] === 'string' && args[0].startsWith("responseMode: 'json' drops mid-call notifications")) return;
    warn(...args);
  };
  try {
    return make();
  } finally {
    console.warn = warn;
  }
}

/**
 * Registers `{prefix}/mcp`: POST carries every message. The server offers no SSE stream and
 * keeps no session, so GET (the stream a client may open) and DELETE (ending a session) answer
 * 405, as the Streamable HTTP transport says (a client takes it as "no stream"), and so does
 * any other method: the API's problem+json with `Allow: POST`, before any credential or body is read.
 */
export function registerMcp(app: FastifyInstance, executor: OperationExecutor, routes: readonly AnyRoute[], opts: McpOptions = {}): void {
  const ctx: Ctx = { executor, routes, prefix: app.prefix, opts };
  const allowed = [...localhostAllowedOrigins(), ...(opts.allowedOrigins ?? []), ...(opts.publicUrl ? [new URL(opts.publicUrl).hostname] : [])];
  const handler = withoutJsonModeWarning(() => createMcpHandler(({ authInfo }) => serverFor(ctx, authInfo?.extra?.caller as Caller), { responseMode: 'json' }));
  app.addHook('onClose', async () => handler.close());

  app.route({
    method: app.supportedMethods.filter((m) => m !== 'POST'),
    url: MCP_PATH,
    onRequest: async (req) => {
      // Counted and logged as the endpoint's other protocol requests (`mcp`), not by its path.
      req.mcpCall = {};
      throw methodNotAllowed(req.method, ['POST']);
    },
    handler: async () => undefined,
  });
  // The caller is known (or refused) before the message is read: a message may be larger than a
  // REST body (MCP_MESSAGE_LIMIT), and only a caller with a key or token gets it read.
  const callers = new WeakMap<FastifyRequest, Caller>();
  app.route({
    method: 'POST',
    url: MCP_PATH,
    bodyLimit: MCP_MESSAGE_LIMIT,
    onRequest: async (req, reply) => {
      const call: McpCall = {};
      req.mcpCall = call;
      const origin = originOf(req, opts);
      const refused = originValidationResponse(webRequest(req, origin), allowed);
      if (refused) return sendWeb(reply, refused);
      try {
        const auth = (await opts.accessToken?.(req.headers.authorization, origin)) ?? (await executor.authenticate(req.headers.authorization));
        call.auth = auth;
        callers.set(req, { auth, origin, requestId: req.id, call });
      } catch (e) {
        if (isApiProblem(e) && e.status === 401 && opts.resourceMetadataUrl) return sendProblem(reply, withResourceMetadata(e, opts.resourceMetadataUrl(origin)));
        const p = toProblem(e, 0);
        if (p.status !== 503) throw e;
        // The database is away: the caller cannot be told yet, and every tool call answers the
        // 503 problem as a tool error (a client retries it) rather than failing the transport.
        callers.set(req, { unavailable: p, origin, requestId: req.id, call });
      }
    },
    handler: async (req, reply) => {
      const caller = callers.get(req)!;
      const sent = asSent(req.body);
      if (sent.refused) return reply.code(400).type('application/json; charset=utf-8').send(sent.refused);
      caller.sent = sent.calls;
      const info = caller.auth ? { clientId: caller.auth.key.id, scopes: caller.auth.key.scopes } : { clientId: 'unknown', scopes: [] };
      const res = await handler.fetch(webRequest(req, caller.origin), { authInfo: { token: 'verified', ...info, extra: { caller } } });
      return sendWeb(reply, res);
    },
  });
}

/** Who calls (as authenticated for this HTTP request), or the 503 that kept us from knowing. */
type Caller = ({ auth: Authenticated; unavailable?: undefined } | { auth?: undefined; unavailable: ApiProblem }) & {
  origin: string;
  /** The id of the HTTP request carrying the call (its X-Request-Id), which a tool's problem names as REST's does. */
  requestId: string;
  /** Told which tool ran and how it answered. */
  call: McpCall;
  /** What this request's tool calls sent that the SDK's parse of the message loses (asSent), by message id. */
  sent?: Map<RequestId, SentArguments>;
};

/** What a tool call's arguments were as sent, where the SDK's parse of the message tells otherwise. */
interface SentArguments {
  /**
   * The arguments, when they name `__proto__`. The SDK reads a message's arguments with a record
   * schema, and zod never copies a `__proto__` member (so no parsed object can get another
   * prototype): the tool would run as if it had not been given, where any other argument the tool
   * does not declare is refused. Handed the arguments as sent, the executor refuses it as it
   * refuses any other (400, naming it).
   */
  args?: Record<string, unknown>;
  /**
   * The path of a member the arguments name twice (`['note']`), of which the parse kept the last
   * (RFC 8259 leaves a repeated name to the parser): refused as a tool error naming it, as REST
   * refuses a repeated parameter or body member (OperationTool.request).
   */
  repeated?: string[];
}

/**
 * An MCP request body as sent, before the SDK parses it: its tool calls' SentArguments by message
 * id, or the JSON-RPC error refusing a message that names a member twice elsewhere than in a tool
 * call's arguments (`"name"` twice in a tools/call, anywhere in a batch), which the SDK would read
 * one way and a proxy or the client's log another. The error has the SDK's form for a message it cannot take (HTTP 400,
 * `-32600`), with the message's id when it has one.
 */
function asSent(body: unknown): { calls?: Map<RequestId, SentArguments>; refused?: string } {
  if (typeof body !== 'string') return {};
  let message: unknown;
  try {
    message = JSON.parse(body);
  } catch {
    return {}; // the SDK answers its parse error
  }
  type Sent = { method?: unknown; id?: RequestId; params?: { arguments?: unknown } };
  const single = message && typeof message === 'object' && !Array.isArray(message) ? (message as Sent) : undefined;
  const isCall = (m: Sent | undefined): m is Sent & { id: RequestId } => !!m && typeof m === 'object' && m.method === 'tools/call' && (typeof m.id === 'string' || typeof m.id === 'number');
  let calls: Map<RequestId, SentArguments> | undefined;
  const repeated = repeatedMember(body);
  if (repeated) {
    const [where, args, ...inArguments] = repeated;
    if (!isCall(single) || where !== 'params' || args !== 'arguments' || inArguments.length === 0) {
      const id = single && repeated[0] !== 'id' && (typeof single.id === 'string' || typeof single.id === 'number') ? single.id : null;
      const said = `Bad Request: ${repeated.join('.')} is ${NAMED_TWICE}`;
      return { refused: JSON.stringify({ jsonrpc: '2.0', error: { code: ProtocolErrorCode.InvalidRequest, message: said }, id }) };
    }
    (calls ??= new Map()).set(single.id, { repeated: inArguments });
  }
  // JSON spells the name as it is, or with \u escapes.
  if (body.includes('__proto__') || body.includes('\\u')) {
    for (const m of (Array.isArray(message) ? message : [message]) as Sent[]) {
      const args = isCall(m) ? m.params?.arguments : undefined;
      if (args && typeof args === 'object' && !Array.isArray(args) && Object.hasOwn(args, '__proto__')) (calls ??= new Map()).set(m.id!, { ...calls.get(m.id!), args: args as Record<string, unknown> });
    }
  }
  return { calls };
}

/** A problem as the executor would have answered it. */
const problemResponse = (p: ApiProblem): OperationResponse => ({ status: p.status, headers: p.headers, body: JSON.stringify(p.body()), problem: true });

/** The 401 of an MCP request also tells the client where to sign in (RFC 9728 §5.1) and what to ask for. */
function withResourceMetadata(p: ApiProblem, metadataUrl: string): ApiProblem {
  const base = p.headers['www-authenticate'] ?? 'Bearer realm="storelens"';
  const header = `${base}, resource_metadata="${metadataUrl}", scope="${SCOPES.join(' ')}"`;
  return new ApiProblem(p.kind, `${p.detail} Assistants sign in with OAuth: see ${metadataUrl}.`, { ...p.headers, 'www-authenticate': header }, p.extensions);
}

function serverFor(ctx: Ctx, caller: Caller): McpServer {
  const server = new McpServer(SERVER_INFO, {
    // Every request stands alone (no session, no stream), so no notification ever reaches a
    // client: the tool list (and the resource list) is never announced as changing. The SDK
    // advertises listChanged once a tool is registered unless told otherwise.
    capabilities: { tools: { listChanged: false } },
    instructions:
      'storelens: a workspace\'s scored in-market accounts (with evidence), its pipeline (deals, contacts, outcomes), watches and webhooks. Every tool is one REST operation of /api/v1 with the same rules; a failure is a tool error carrying the RFC 7807 problem.',
  });
  const listed: Tool[] = [];
  for (const tool of operationTools(ctx.routes)) {
    const config = {
      title: tool.title,
      description: tool.description,
      annotations: {
        title: tool.title,
        readOnlyHint: !isMutating(tool.route),
        // Anything but adding: a PATCH or DELETE, or an action that replaces or ends a state.
        destructiveHint: tool.route.method === 'PATCH' || tool.route.method === 'PUT' || tool.route.method === 'DELETE' || tool.route.destructive === true,
        idempotentHint: isMutating(tool.route),
        openWorldHint: false,
      },
    };
    server.registerTool(
      tool.name,
      { ...config, inputSchema: passThrough(tool.inputSchema), ...(tool.outputSchema ? { outputSchema: passThrough(tool.outputSchema) } : {}) },
      async (parsed: Record<string, unknown>, { mcpReq }) => {
        const sent = caller.sent?.get(mcpReq.id);
        const args = sent?.args ?? parsed ?? {};
        const r = caller.auth ? await ctx.executor.execute(tool.route, tool.request(args, callerOf(caller.auth), sent?.repeated), caller.auth) : problemResponse(caller.unavailable);
        caller.call.tool = { name: tool.name, kind: tool.route.kind, status: r.status, replayed: r.headers['idempotent-replayed'] === 'true' };
        return toolResult(r, caller.requestId);
      },
    );
    if (caller.auth && ctx.executor.permits(tool.route, caller.auth)) listed.push({ name: tool.name, ...config, inputSchema: tool.inputSchema as unknown as Tool['inputSchema'], ...(tool.outputSchema ? { outputSchema: tool.outputSchema as Tool['outputSchema'] } : {}) });
  }
  // tools/list names only the operations this caller may call now. Every operation of the table
  // stays callable, so a tool listed to the assistant before its key lost a scope (or the
  // operation became unavailable) answers the same 403 or 404 problem REST does, as a tool
  // error, rather than the protocol error an unknown tool gets.
  //
  // With the database away the caller is unknown, and so are its tools: an empty list would be
  // taken as "no tools" for the whole connection (the list is announced as never changing), so
  // the listing fails, as a JSON-RPC error carrying the 503 problem, and the client lists again.
  server.server.setRequestHandler('tools/list', () => {
    if (caller.unavailable) throw new ProtocolError(ProtocolErrorCode.InternalError, `${caller.unavailable.detail} (${caller.unavailable.kind})`, { ...caller.unavailable.body(), request_id: caller.requestId });
    return { tools: listed };
  });
  const publication = ctx.opts.publication?.();
  if (publication) registerStatisticsResources(server, publication, ctx.opts.publicUrl ?? caller.origin);
  return server;
}

/**
 * A tool's JSON Schema for tools/list (its arguments, or its structured content), and no
 * validation of its own: the executor validates the arguments (after auth, availability, scope
 * and the rate limit, as for REST) with the route's zod schemas and answers the same 400
 * problems, and — with validateResponses — checks every answer against the route's response
 * schema, from which the output schema is made.
 */
function passThrough(json: object): StandardSchemaWithJSON<Record<string, unknown>> {
  const schema = json as Record<string, unknown>;
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'storelens',
      validate: (value: unknown) => ({ value: (value ?? {}) as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/**
 * A tool's answer: the REST body as text, and on success as `structuredContent` too (what the
 * tool's output schema describes). A problem is a tool error (`isError`) whose problem+json is the
 * text alone: clients check structured content against the output schema even on an error (SDK
 * 1.x does), so a problem there would throw in the client instead of reaching the assistant.
 */
const REPLAYED_NOTE =
  'Nothing was done now: this call repeats an identical earlier call (the same arguments, or the same idempotency_key, within 24 hours), and the answer above is that call\'s. To do it again (for example to set a value back), call it with a new idempotency_key.';

/** The same for a refusal kept under an idempotency_key the assistant gave: its cause may be gone since. */
const REPLAYED_PROBLEM_NOTE =
  'Nothing was tried now: this idempotency_key was used before with the same arguments, and the problem above is the answer that call got. If its cause is gone (for example funds were added), call again with a new idempotency_key.';

function toolResult(r: OperationResponse, requestId: string): CallToolResult {
  const replayed = r.headers['idempotent-replayed'] === 'true';
  const meta = { 'storelens/status': r.status, ...(replayed ? { 'storelens/idempotent-replayed': true } : {}), ...(r.headers['retry-after'] ? { 'storelens/retry-after': Number(r.headers['retry-after']) } : {}) };
  // A problem names the request that carried the call, as a REST problem body does, and the
  // arguments of the call rather than the headers REST would have been sent.
  if (r.problem) {
    const content: CallToolResult['content'] = [{ type: 'text', text: JSON.stringify({ ...problemInToolWords(JSON.parse(r.body) as Record<string, unknown>), request_id: requestId }) }];
    if (replayed) content.push({ type: 'text', text: REPLAYED_PROBLEM_NOTE });
    return { content, isError: true, _meta: meta };
  }
  const content: CallToolResult['content'] = [{ type: 'text', text: r.body }];
  // Said in words too: an assistant reads the text, not `_meta`, and an identical call (the same
  // arguments, so the same derived key) made to set something back would otherwise look done.
  if (replayed) content.push({ type: 'text', text: REPLAYED_NOTE });
  if (r.contentType !== undefined) return { content, _meta: meta };
  const parsed = JSON.parse(r.body) as unknown;
  const structured = parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : undefined;
  return { content, ...(structured ? { structuredContent: structured } : {}), _meta: meta };
}

function originOf(req: FastifyRequest, opts: McpOptions): string {
  return opts.publicUrl ? opts.publicUrl.replace(/\/$/, '') : `${req.protocol}://${req.host}`;
}

function webRequest(req: FastifyRequest, origin: string): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  const body = typeof req.body === 'string' ? req.body : undefined;
  return new Request(origin + req.url, { method: req.method, headers, body: req.method === 'POST' ? (body ?? '') : undefined });
}

async function sendWeb(reply: FastifyReply, res: Response): Promise<FastifyReply> {
  reply.code(res.status);
  res.headers.forEach((value, name) => {
    if (name !== 'content-length') reply.header(name, value);
  });
  if (!res.body) return reply.send('');
  const type = res.headers.get('content-type') ?? '';
  if (type.startsWith('text/event-stream')) return reply.send(Readable.fromWeb(res.body as unknown as NodeReadableStream));
  return reply.send(await res.text());
}
