/**
 * Fastify `frameworkErrors` (a root-level option): errors raised before routing, such as a
 * malformed URL, answered as problem+json. A server that mounts apiPlugin should pass this.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiProblem, sendProblem } from './problems.js';

export function apiFrameworkErrors(_err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  reply.header('cache-control', 'no-store');
  void sendProblem(reply, new ApiProblem('invalid-request', 'The request URL or headers could not be read.'));
}
