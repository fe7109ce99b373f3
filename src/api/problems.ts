/**
 * RFC 7807 problem details: every error of /api/v1 is one of these kinds, each with a stable
 * `type` URI. 5xx problems never carry internals.
 */
import type { FastifyReply } from 'fastify';

export const PROBLEM_BASE = 'https://storelens.dev/problems/';

export const PROBLEM_KINDS = {
  'invalid-request': { status: 400, title: 'Invalid request' },
  'malformed-json': { status: 400, title: 'Malformed JSON body' },
  'invalid-body': { status: 400, title: 'Invalid request body' },
  'invalid-parameters': { status: 400, title: 'Invalid parameters' },
  'invalid-cursor': { status: 400, title: 'Invalid cursor' },
  'idempotency-key-required': { status: 400, title: 'Idempotency-Key required' },
  unauthorized: { status: 401, title: 'Missing or invalid API key' },
  'insufficient-scope': { status: 403, title: 'The key lacks the required scope' },
  'not-found': { status: 404, title: 'Not found' },
  'operation-unavailable': { status: 404, title: 'Operation unavailable' },
  'pilot-required': { status: 404, title: 'Pilot access required' },
  'activation-required': { status: 404, title: 'Activation required' },
  'method-not-allowed': { status: 405, title: 'Method not allowed' },
  'idempotency-key-reused': { status: 409, title: 'Idempotency-Key reused with different input' },
  'idempotency-request-in-progress': { status: 409, title: 'A request with this Idempotency-Key is in progress' },
  conflict: { status: 409, title: 'Conflict' },
  'payload-too-large': { status: 413, title: 'Request body too large' },
  'unsupported-media-type': { status: 415, title: 'Unsupported media type' },
  unprocessable: { status: 422, title: 'Request cannot be completed' },
  'rate-limited': { status: 429, title: 'Rate limit exceeded' },
  'internal-error': { status: 500, title: 'Internal error' },
  'service-unavailable': { status: 503, title: 'Temporarily unavailable' },
} as const satisfies Record<string, { status: number; title: string }>;

export type ProblemKind = keyof typeof PROBLEM_KINDS;

export const problemType = (kind: ProblemKind): string => PROBLEM_BASE + kind;

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  [extension: string]: unknown;
}

/** An error answered as a problem; thrown from hooks and handlers. */
export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly kind: ProblemKind,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'ApiProblem';
    this.status = PROBLEM_KINDS[kind].status;
  }

  body(): ProblemBody {
    const k = PROBLEM_KINDS[this.kind];
    return { type: problemType(this.kind), title: k.title, status: k.status, detail: this.detail, ...this.extensions };
  }
}

export const isApiProblem = (e: unknown): e is ApiProblem => e instanceof ApiProblem;

export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export function sendProblem(reply: FastifyReply, p: ApiProblem): FastifyReply {
  for (const [name, value] of Object.entries(p.headers)) reply.header(name, value);
  return reply.code(p.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(p.body()));
}
