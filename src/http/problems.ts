/**
 * The one registry of RFC 7807 problem kinds for both HTTP surfaces (the public statistics of
 * `serve` and the workspace API): each kind has a stable `type` URI under PROBLEM_BASE, one
 * status and one title. Pure: no Fastify, no sockets (wire.ts and the surfaces send them).
 */

/** Stable problem type URIs: PROBLEM_BASE + kind. */
export const PROBLEM_BASE = 'https://storelens.dev/problems/';
/** The media type of a problem (RFC 7807): openapi.json's response content key. */
export const PROBLEM_MEDIA_TYPE = 'application/problem+json';
/**
 * The Content-Type every problem is answered with, by each writer (Fastify's replies, the wire's
 * prepared bytes, the probes): UTF-8 named, as every JSON answer of both surfaces.
 */
export const PROBLEM_CONTENT_TYPE = `${PROBLEM_MEDIA_TYPE}; charset=utf-8`;

export interface ProblemSpec {
  readonly status: number;
  readonly title: string;
}

/**
 * Where a kind is answered: `http`, the plain HTTP errors either surface answers, from the wire
 * and routing up (titles are the reason phrases); `api`, the workspace API's own (under /api/v1);
 * `public`, the public statistics surface's own (under /api/data and /data); `probe`, the
 * readiness probe's (`/-/readiness`, src/ops/health.ts).
 */
export type ProblemSurface = 'http' | 'api' | 'public' | 'probe';

const PROBLEMS = {
  'invalid-request': { surface: 'http', status: 400, title: 'Bad Request' },
  'not-found': { surface: 'http', status: 404, title: 'Not Found' },
  'method-not-allowed': { surface: 'http', status: 405, title: 'Method Not Allowed' },
  'request-timeout': { surface: 'http', status: 408, title: 'Request Timeout' },
  'payload-too-large': { surface: 'http', status: 413, title: 'Payload Too Large' },
  'unsupported-media-type': { surface: 'http', status: 415, title: 'Unsupported Media Type' },
  'expectation-failed': { surface: 'http', status: 417, title: 'Expectation Failed' },
  'header-fields-too-large': { surface: 'http', status: 431, title: 'Request Header Fields Too Large' },
  'internal-error': { surface: 'http', status: 500, title: 'Internal Server Error' },
  'not-implemented': { surface: 'http', status: 501, title: 'Not Implemented' },
  'malformed-json': { surface: 'api', status: 400, title: 'Malformed JSON body' },
  'invalid-body': { surface: 'api', status: 400, title: 'Invalid request body' },
  'invalid-parameters': { surface: 'api', status: 400, title: 'Invalid parameters' },
  'invalid-cursor': { surface: 'api', status: 400, title: 'Invalid cursor' },
  'idempotency-key-required': { surface: 'api', status: 400, title: 'Idempotency-Key required' },
  unauthorized: { surface: 'api', status: 401, title: 'Missing or invalid API key' },
  'insufficient-scope': { surface: 'api', status: 403, title: 'The key lacks the required scope' },
  'operation-unavailable': { surface: 'api', status: 404, title: 'Operation unavailable' },
  'pilot-required': { surface: 'api', status: 404, title: 'Pilot access required' },
  'activation-required': { surface: 'api', status: 404, title: 'Activation required' },
  'idempotency-key-reused': { surface: 'api', status: 409, title: 'Idempotency-Key reused with different input' },
  'idempotency-request-in-progress': { surface: 'api', status: 409, title: 'A request with this Idempotency-Key is in progress' },
  conflict: { surface: 'api', status: 409, title: 'Conflict' },
  'insufficient-funds': { surface: 'api', status: 409, title: 'Insufficient funds' },
  'spend-cap-reached': { surface: 'api', status: 409, title: 'Monthly spend cap reached' },
  unprocessable: { surface: 'api', status: 422, title: 'Request cannot be completed' },
  'rate-limited': { surface: 'api', status: 429, title: 'Rate limit exceeded' },
  'service-unavailable': { surface: 'api', status: 503, title: 'Temporarily unavailable' },
  'no-publication': { surface: 'public', status: 503, title: 'Service Unavailable' },
  'file-unavailable': { surface: 'public', status: 503, title: 'Service Unavailable' },
  'not-ready': { surface: 'probe', status: 503, title: 'Not ready' },
} as const satisfies Record<string, ProblemSpec & { readonly surface: ProblemSurface }>;

type Problems = typeof PROBLEMS;
export type ProblemKind = keyof Problems;
/** The kinds answered on `surfaces`. */
type KindOn<S extends ProblemSurface> = { [K in ProblemKind]: Problems[K]['surface'] extends S ? K : never }[ProblemKind];
export type HttpProblemKind = KindOn<'http'>;
/** The kinds /api/v1 answers: plain HTTP ones and its own (openapi.json lists them). */
export type ApiProblemKind = KindOn<'http' | 'api'>;

/** Status and title of each kind answered on `surfaces`, in registry order. */
function kindsOn<S extends ProblemSurface>(...surfaces: S[]): Readonly<Record<KindOn<S>, ProblemSpec>> {
  const on = Object.entries(PROBLEMS).filter(([, p]) => (surfaces as ProblemSurface[]).includes(p.surface));
  return Object.freeze(Object.fromEntries(on.map(([kind, { status, title }]) => [kind, { status, title }]))) as Record<KindOn<S>, ProblemSpec>;
}

export const HTTP_PROBLEMS = kindsOn('http');
export const API_PROBLEM_KINDS = kindsOn('http', 'api');
export const PROBLEM_KINDS = kindsOn('http', 'api', 'public', 'probe');

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
