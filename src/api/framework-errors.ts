/**
 * Fastify `frameworkErrors` (a root-level option): errors raised before routing, such as a
 * malformed URL, answered as problem+json. A server that mounts apiPlugin should pass this
 * (both storelens servers do, through ../http/wire.ts).
 */
export { answerFrameworkError as apiFrameworkErrors } from '../http/wire.js';
