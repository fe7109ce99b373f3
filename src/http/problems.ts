/**
 * The one registry of RFC 7807 problem kinds for both HTTP surfaces (the public statistics of
 * `serve` and the workspace API): each kind has a stable `type` URI under PROBLEM_BASE, one
 * status and one title. Pure: no Fastify, no sockets (wire.ts and the surfaces send them).
 */

/** Stable problem type URIs: PROBLEM_BASE + kind. */
export const PROBLEM_BASE = 'https://storelens.dev/problems/';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export interface ProblemSpec {
  readonly status: number;
  readonly title: string;
}

/** Plain HTTP errors either surface answers, from the wire and routing up; titles are the reason phrases. */
export const HTTP_PROBLEMS = {
  'invalid-request': { status: 400, title: 'Bad Request' },
  'not-found': { status: 404, title: 'Not Found' },
  'method-not-allowed': { status: 405, title: 'Method Not Allowed' },
  'request-timeout': { status: 408, title: 'Request Timeout' },
  'payload-too-large': { status: 413, title: 'Payload Too Large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported Media Type' },
  'expectation-failed': { status: 417, title: 'Expectation Failed' },
  'header-fields-too-large': { status: 431, title: 'Request Header Fields Too Large' },
  'internal-error': { status: 500, title: 'Internal Server Error' },
  'not-implemented': { status: 501, title: 'Not Implemented' },
} as const satisfies Record<string, ProblemSpec>;

/** The workspace API's own kinds (under /api/v1). */
export const API_PROBLEMS = {
  'malformed-json': { status: 400, title: 'Malformed JSON body' },
  'invalid-body': { status: 400, title: 'Invalid request body' },
  'invalid-parameters': { status: 400, title: 'Invalid parameters' },
  'invalid-cursor': { status: 400, title: 'Invalid cursor' },
  'idempotency-key-required': { status: 400, title: 'Idempotency-Key required' },
  unauthorized: { status: 401, title: 'Missing or invalid API key' },
  'insufficient-scope': { status: 403, title: 'The key lacks the required scope' },
  'operation-unavailable': { status: 404, title: 'Operation unavailable' },
  'pilot-required': { status: 404, title: 'Pilot access required' },
  'activation-required': { status: 404, title: 'Activation required' },
  'idempotency-key-reused': { status: 409, title: 'Idempotency-Key reused with different input' },
  'idempotency-request-in-progress': { status: 409, title: 'A request with this Idempotency-Key is in progress' },
  conflict: { status: 409, title: 'Conflict' },
  'insufficient-funds': { status: 409, title: 'Insufficient funds' },
  'spend-cap-reached': { status: 409, title: 'Monthly spend cap reached' },
  unprocessable: { status: 422, title: 'Request cannot be completed' },
  'rate-limited': { status: 429, title: 'Rate limit exceeded' },
  'service-unavailable': { status: 503, title: 'Temporarily unavailable' },
} as const satisfies Record<string, ProblemSpec>;

/** The public statistics surface's own kinds (under /api/data and /data). */
export const PUBLIC_PROBLEMS = {
  'no-publication': { status: 503, title: 'Service Unavailable' },
  'file-unavailable': { status: 503, title: 'Service Unavailable' },
} as const satisfies Record<string, ProblemSpec>;

export const PROBLEM_KINDS = { ...HTTP_PROBLEMS, ...API_PROBLEMS, ...PUBLIC_PROBLEMS } as const;

export type ProblemKind = keyof typeof PROBLEM_KINDS;
export type HttpProblemKind = keyof typeof HTTP_PROBLEMS;

export const problemType = (kind: ProblemKind): string => PROBLEM_BASE + kind;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  [extension: string]: unknown;
}

/** The body of a problem of `kind`; `status` overrides the kind's own (a 4xx without a kind of its own). */
export function problemBody(kind: ProblemKind, detail: string, extensions: Record<string, unknown> = {}, status?: number): ProblemBody {
  const k = PROBLEM_KINDS[kind];
  return { type: problemType(kind), title: k.title, status: status ?? k.status, detail, ...extensions };
}

/** A problem ready to write as it is: status, flat header list (name, value, name, value …) and body. */
export interface PreparedProblem {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: Buffer;
}

/**
 * A problem of `kind` built once, for a surface that answers it without echoing the request:
 * its bytes, Content-Type, Content-Length and nosniff, then `extra` headers.
 */
export function prepareProblem(kind: ProblemKind, detail: string, extra: readonly string[]): PreparedProblem {
  const p = problemBody(kind, detail);
  const body = Buffer.from(JSON.stringify(p));
  const headers = ['Content-Type', PROBLEM_CONTENT_TYPE, 'Content-Length', String(body.length), 'X-Content-Type-Options', 'nosniff', ...extra];
  return { status: p.status, headers, body };
}

/** The plain HTTP kind answering `status`: its own when there is one, else invalid-request (4xx) or internal-error. */
export function httpProblemKind(status: number): HttpProblemKind {
  for (const [kind, spec] of Object.entries(HTTP_PROBLEMS) as [HttpProblemKind, ProblemSpec][]) {
    if (spec.status === status) return kind;
  }
  return status < 500 ? 'invalid-request' : 'internal-error';
}
