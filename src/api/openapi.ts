/**
 * openapi.json (OpenAPI 3.1) generated from the route table: every operation with its scope
 * (security requirement and `x-required-scope`), `x-availability` from the capability
 * manifest, its call kind and rate limit, parameters, bodies and problem responses; and
 * `webhooks`, the messages a registered endpoint receives, as the composition hands them in
 * (webhooks/openapi.ts).
 */
import type { z } from 'zod';
import { BODY_LIMIT, bodyLimitText } from './body.js';
import type { CapabilityLookup } from './capabilities.js';
import { IDEMPOTENCY_KEY_MAX, IDEMPOTENCY_TTL_MS } from './idempotency.js';
import { API_PROBLEM_KINDS, PROBLEM_BASE, PROBLEM_MEDIA_TYPE } from './problems.js';
import { DEFAULT_LIMITS } from './rate-limit.js';
import { API_BASE, type AnyRoute, isMutating } from './route-def.js';
import { jsonSchema, Problem } from './schemas.js';
import { SCOPES, SCOPE_DESCRIPTIONS } from './scopes.js';

type Json = Record<string, unknown>;

/** The messages sent to registered endpoints, as openapi.json's `webhooks` documents them, and the header parameters they name. */
export interface DocumentedWebhooks {
  messages: Record<string, Json>;
  parameters: Record<string, Json>;
}

const NO_WEBHOOKS: DocumentedWebhooks = { messages: {}, parameters: {} };

const retention = `${IDEMPOTENCY_TTL_MS / 3_600_000} hours`;

const statusResponses = (bodyLimit: number): Record<number, { name: string; description: string }> => ({
  400: { name: 'BadRequest', description: 'Invalid parameters, body, cursor, or missing/unusable Idempotency-Key' },
  401: { name: 'Unauthorized', description: 'Missing or invalid API key (carries `WWW-Authenticate: Bearer`)' },
  403: { name: 'Forbidden', description: 'The key lacks the scope the call needs' },
  404: { name: 'NotFound', description: 'Not visible to this workspace, or the operation is unavailable (also pilot-required, activation-required)' },
  409: { name: 'Conflict', description: 'Idempotency-Key reused with different input, a request with it still in progress, or conflicting state' },
  413: { name: 'PayloadTooLarge', description: `Request body over the ${bodyLimitText(bodyLimit)} limit` },
  415: { name: 'UnsupportedMediaType', description: 'Request body not application/json in UTF-8, or sent with a Content-Encoding' },
  422: { name: 'Unprocessable', description: 'Valid JSON, but the request cannot be completed with the supplied resource' },
  429: { name: 'TooManyRequests', description: 'Rate limit exceeded; wait the seconds given in `Retry-After`' },
  503: { name: 'ServiceUnavailable', description: 'Authorization, policy or source data temporarily unavailable' },
});

const rateHeaders = {
  RateLimit: { $ref: '#/components/headers/RateLimit' },
  'RateLimit-Policy': { $ref: '#/components/headers/RateLimitPolicy' },
};

/**
 * The problem statuses an operation can answer. Every one can answer 400: query parameters are
 * strict, so an operation without any refuses an unknown one. Every mutating one can answer 413
 * and 415: a body sent to it is read (and refused) even when it takes none.
 */
function problemStatuses(r: AnyRoute): number[] {
  const s = new Set<number>([400, 401, 403, 404, 429, 503, ...(r.problems ?? [])]);
  if (isMutating(r)) [409, 413, 415].forEach((x) => s.add(x));
  return [...s].sort((a, b) => a - b);
}

function parameters(r: AnyRoute): Json[] {
  const out: Json[] = [];
  const add = (where: 'path' | 'query' | 'header', schema: z.ZodType | undefined) => {
    if (!schema) return;
    const js = jsonSchema(schema, 'input') as { properties?: Record<string, Json>; required?: string[] };
    for (const [name, prop] of Object.entries(js.properties ?? {})) {
      const { description, ...s } = prop;
      out.push({ name, in: where, required: where === 'path' || (js.required ?? []).includes(name), description, schema: s });
    }
  };
  add('path', r.params);
  add('query', r.query);
  add('header', r.headers);
  if (isMutating(r)) out.push({ $ref: '#/components/parameters/IdempotencyKey' });
  else if (r.versioned) out.push({ $ref: '#/components/parameters/IfNoneMatch' });
  return out;
}

function operation(r: AnyRoute, capability: CapabilityLookup, statuses: ReturnType<typeof statusResponses>): Json {
  const cap = capability(r);
  const declared: Json = {
    ...(r.versioned ? { ETag: { $ref: '#/components/headers/ETag' } } : {}),
    ...(r.location ? { Location: { description: `Where the resource is read: \`${API_BASE}${r.location}\``, required: true, schema: { type: 'string' } } } : {}),
  };
  const success = {
    headers: { ...rateHeaders, ...declared, ...(isMutating(r) ? { 'Idempotent-Replayed': { $ref: '#/components/headers/IdempotentReplayed' } } : {}) },
    content: {
      'application/json': { schema: jsonSchema(r.response, 'output') },
      ...Object.fromEntries(Object.entries(r.alternateContent ?? {}).map(([type, description]) => [type, { schema: { type: 'string', description } }])),
    },
  };
  const responses: Json = { [String(r.status ?? 200)]: { description: 'Success', ...success } };
  for (const [status, description] of Object.entries(r.otherStatuses ?? {})) responses[status] = { description, ...success };
  if (r.versioned && !isMutating(r)) responses['304'] = { description: 'Not Modified: If-None-Match names the current ETag; no body', headers: { ...rateHeaders, ...declared } };
  for (const s of problemStatuses(r)) responses[String(s)] = { $ref: `#/components/responses/${statuses[s]!.name}` };
  const op: Json = {
    operationId: r.operationId,
    summary: r.summary,
    description: [r.description, `Scope: \`${r.scope}\`. Call kind: ${r.kind} (${DEFAULT_LIMITS[r.kind]} per minute per key). Availability: ${cap.availability}.`]
      .filter(Boolean)
      .join('\n\n'),
    tags: [r.tag],
    security: [{ bearerAuth: [r.scope] }],
    'x-required-scope': r.scope,
    'x-availability': cap.availability,
    'x-call-kind': r.kind,
    'x-rate-limit-per-minute': DEFAULT_LIMITS[r.kind],
    parameters: parameters(r),
    responses,
  };
  if (cap.availability === 'activation-gated') op['x-activation'] = cap.activation ?? r.activation ?? r.operationId;
  if (r.body) op.requestBody = { required: true, content: { 'application/json': { schema: jsonSchema(r.body, 'input') } } };
  return op;
}

export function buildOpenApi(routes: readonly AnyRoute[], capability: CapabilityLookup, webhooks: DocumentedWebhooks = NO_WEBHOOKS, basePath = '/api/v1', bodyLimit = BODY_LIMIT): Json {
  const statuses = statusResponses(bodyLimit);
  const paths: Record<string, Json> = {};
  for (const r of routes) (paths[r.path] ??= {})[r.method.toLowerCase()] = operation(r, capability, statuses);
  const problemSchema = jsonSchema(Problem, 'output');
  const responses: Json = {};
  for (const { name, description } of Object.values(statuses)) {
    const headers: Json = {};
    if (name === 'Unauthorized') headers['WWW-Authenticate'] = { schema: { type: 'string' }, description: '`Bearer realm="storelens"`' };
    if (name === 'TooManyRequests' || name === 'ServiceUnavailable') headers['Retry-After'] = { $ref: '#/components/headers/RetryAfter' };
    // Only a request whose Idempotency-Key is still in progress says when to retry.
    if (name === 'Conflict') headers['Retry-After'] = { description: 'With `idempotency-request-in-progress`: seconds to wait before retrying', schema: { type: 'integer', minimum: 1 } };
    if (name === 'TooManyRequests') Object.assign(headers, rateHeaders);
    responses[name] = { description, headers, content: { [PROBLEM_MEDIA_TYPE]: { schema: { $ref: '#/components/schemas/Problem' } } } };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'storelens workspace REST API',
      version: '1',
      description: [
        'Workspace-scoped REST API. Every call needs `Authorization: Bearer <API_KEY>` and the scope listed on its operation; anything outside the key\'s workspace answers 404.',
        `Rate limits per key per minute: read ${DEFAULT_LIMITS.read}, write ${DEFAULT_LIMITS.write}, report ${DEFAULT_LIMITS.report} (fixed one-minute windows); 429 carries Retry-After. Every response carries RateLimit-Policy and RateLimit headers (draft-ietf-httpapi-ratelimit-headers).`,
        `Mutating operations need an Idempotency-Key (1–${IDEMPOTENCY_KEY_MAX} characters), remembered for ${retention} per workspace: the same key with the same input replays the stored result (Idempotent-Replayed: true); with changed input ⇒ 409 and nothing changes.`,
        'Errors are RFC 7807 application/problem+json with stable `type` URIs under ' + PROBLEM_BASE + '. Checks run in this order: 401, 404 (unknown route, unavailable operation, pilot or activation missing), 403, 429, 400 (Idempotency-Key, then parameters and body), 409.',
        'Lists are bounded: pass `next_cursor` back as `cursor`; null means the end. Cursors are opaque and keep walking the ranking they started on, which is kept at least an hour after it changes; a tampered cursor, one used with other filters, or one whose ranking has expired ⇒ 400.',
        'Every operation is labelled with `x-availability` from the capability manifest: available, pilot, activation-gated or unavailable. Unavailable operations remain published for compatibility but answer 404.',
      ].join('\n\n'),
    },
    servers: [{ url: basePath }],
    tags: [...new Set(routes.map((r) => r.tag))].map((name) => ({ name })),
    paths,
    webhooks: webhooks.messages,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: `API key created under Integrations → API & MCP. Scopes: ${SCOPES.map((s) => `\`${s}\` (${SCOPE_DESCRIPTIONS[s]})`).join('; ')}.`,
        },
      },
      schemas: { Problem: problemSchema },
      responses,
      parameters: {
        IdempotencyKey: {
          name: 'Idempotency-Key',
          in: 'header',
          required: true,
          description: `A stable logical request ID (1–${IDEMPOTENCY_KEY_MAX} characters), remembered for ${retention}.`,
          schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX },
        },
        IfNoneMatch: {
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The ETag of a copy the caller has (`"3"`, or a list, or `*`): when it names the current one, 304 without a body.',
          schema: { type: 'string' },
        },
        ...webhooks.parameters,
      },
      headers: {
        RateLimit: { description: 'Remaining quota and seconds to reset, e.g. `"read";r=119;t=42`', schema: { type: 'string' } },
        RateLimitPolicy: { description: 'Quota policy, e.g. `"read";q=120;w=60`', schema: { type: 'string' } },
        RetryAfter: { description: 'Seconds to wait before retrying', required: true, schema: { type: 'integer', minimum: 1 } },
        ETag: {
          description: 'The resource\'s `version` as a strong entity tag (`"3"`): send it as If-Match to change exactly that version, or as If-None-Match to read it again only when it changed',
          required: true,
          schema: { type: 'string', pattern: '^"[1-9][0-9]*"$' },
        },
        IdempotentReplayed: { description: '`true` when the response is a replay of a stored result', schema: { type: 'string', enum: ['true'] } },
      },
    },
    'x-problem-types': Object.fromEntries(Object.entries(API_PROBLEM_KINDS).map(([k, v]) => [PROBLEM_BASE + k, v])),
  };
}
