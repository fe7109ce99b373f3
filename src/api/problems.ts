/**
 * The API's problems: every error of /api/v1 is one of these kinds (the registry lives in
 * ../http/problems.ts, shared with the public surface), each with a stable `type` URI.
 * 5xx problems never carry internals.
 */
import type { FastifyReply } from 'fastify';
import { API_PROBLEM_KINDS, type ApiProblemKind, PROBLEM_CONTENT_TYPE, problemBody, type ProblemBody } from '../http/problems.js';

export {
  API_PROBLEM_KINDS,
  type ApiProblemKind,
  PROBLEM_BASE,
  PROBLEM_CONTENT_TYPE,
  PROBLEM_MEDIA_TYPE,
  problemType,
  type ProblemBody,
} from '../http/problems.js';

/** An error answered as a problem; thrown from hooks and handlers. */
export class ApiProblem extends Error {
  readonly status: number;
  constructor(
    readonly kind: ApiProblemKind,
    readonly detail: string,
    readonly headers: Record<string, string> = {},
    readonly extensions: Record<string, unknown> = {},
  ) {
    super(detail);
    this.name = 'ApiProblem';
    this.status = API_PROBLEM_KINDS[kind].status;
  }

  body(): ProblemBody {
    return problemBody(this.kind, this.detail, this.extensions);
  }
}

/** The row `find` answers, or the problem `missing()` (a 404) when there is none. */
export async function found<T>(find: Promise<T | undefined>, missing: () => ApiProblem): Promise<T> {
  const row = await find;
  if (!row) throw missing();
  return row;
}

/** A 405 naming the methods the resource answers, in its `Allow` header too (RFC 9110 §15.5.6). */
export function methodNotAllowed(method: string, allowed: readonly string[]): ApiProblem {
  const allow = [...new Set(allowed)].join(', ');
  return new ApiProblem('method-not-allowed', `${method} is not allowed here; allowed: ${allow}.`, { allow });
}

export const isApiProblem = (e: unknown): e is ApiProblem => e instanceof ApiProblem;

export function sendProblem(reply: FastifyReply, p: ApiProblem): FastifyReply {
  for (const [name, value] of Object.entries(p.headers)) reply.header(name, value);
  return reply.code(p.status).type(PROBLEM_CONTENT_TYPE).send(JSON.stringify(p.body()));
}
