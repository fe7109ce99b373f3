/** Maps every error inside /api/v1 to a problem; 5xx bodies never carry internals. */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { describeFailure } from '../core/errors.js';
import { isDatabaseUnavailable, violatedConstraint } from '../db/errors.js';
import { ApiProblem, isApiProblem, sendProblem } from './problems.js';

/** The 413 of a body over the limit. */
export const bodyTooLarge = (bodyLimit: number): ApiProblem => new ApiProblem('payload-too-large', `Request bodies are limited to ${bodyLimit} bytes.`);

export function toProblem(err: unknown, bodyLimit: number): ApiProblem {
  if (isApiProblem(err)) return err;
  const e = err as Partial<FastifyError>;
  if (e.statusCode === 413 || e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return bodyTooLarge(bodyLimit);
  if (e.statusCode === 415 || e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return new ApiProblem('unsupported-media-type', 'Send request bodies as application/json.');
  }
  if (typeof e.statusCode === 'number' && e.statusCode >= 400 && e.statusCode < 500) {
    return new ApiProblem('invalid-request', 'The request could not be read (check Content-Length, encoding and URL).');
  }
  // A rule the database enforces (a uniqueness, a reference) that a concurrent request broke
  // first: the request changed nothing, and a retry (same Idempotency-Key) runs it again.
  const constraint = violatedConstraint(err);
  if (constraint !== undefined) {
    return new ApiProblem('conflict', `The request conflicts with a concurrent change (${constraint}); nothing was changed. Read the resource again and retry.`, {}, { constraint });
  }
  if (isDatabaseUnavailable(err)) {
    return new ApiProblem('service-unavailable', 'The service is temporarily unavailable; retry shortly.', { 'retry-after': '1' });
  }
  return new ApiProblem('internal-error', 'An internal error occurred.');
}

export function apiErrorHandler(bodyLimit: number) {
  return (err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const p = toProblem(err, bodyLimit);
    // A database that does not answer fails every request until it does: each is told in one
    // warning naming the cause, not as an error with the stack of code that did nothing wrong.
    if (p.status === 503 && isDatabaseUnavailable(err)) req.log.warn({ cause: describeFailure(err) }, 'database unavailable');
    else if (p.status >= 500) req.log.error({ err }, 'api error');
    return sendProblem(reply, p);
  };
}
