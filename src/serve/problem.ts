/**
 * RFC 7807 problem responses of the public surface, built once: every error here has a fixed
 * body (the request is never echoed back), so each is a ready Buffer plus its header list.
 * Kinds, statuses and titles come from the shared registry (../http/problems.ts).
 */
import { prepareProblem, type PreparedProblem, type ProblemKind } from '../http/problems.js';
import type { NotFoundReason } from '../core/public-paths.js';

export { PROBLEM_BASE, PROBLEM_CONTENT_TYPE } from '../http/problems.js';

export const PUBLIC_ALLOW = 'GET, HEAD, OPTIONS';
/** Short, so a month published a minute later is not hidden behind a cached 404 for an hour. */
export const NOT_FOUND_CACHE = 'public, s-maxage=60';

/** A response ready to write: status, flat header list (name, value, name, value …) and body. */
export type PreparedResponse = PreparedProblem;

function prepare(kind: ProblemKind, detail: string, extra: readonly string[]): PreparedResponse {
  return prepareProblem(kind, detail, ['Access-Control-Allow-Origin', '*', ...extra]);
}

const NOT_FOUND_DETAIL: Record<NotFoundReason | 'query-string' | 'not-published', string> = {
  'query-string': 'Public statistics URLs take no query string; remove everything after "?".',
  'trailing-slash': 'Public statistics URLs have no trailing slash.',
  'unknown-slug': 'Unknown page slug. Valid slugs: platform-stores, agentic-commerce, platform-apps, platform-advertising, platform-trends, methodology.',
  'malformed-month': 'The month must be written YYYY-MM, e.g. 2025-01.',
  'not-published': 'Nothing is published at this URL (for a month: it was never published).',
  'no-such-path': 'There is no public statistics resource at this URL.',
};

export type NotFoundKind = keyof typeof NOT_FOUND_DETAIL;

const notFound = new Map<NotFoundKind, PreparedResponse>(
  (Object.keys(NOT_FOUND_DETAIL) as NotFoundKind[]).map((k) => [
    k,
    prepare('not-found', NOT_FOUND_DETAIL[k], ['Cache-Control', NOT_FOUND_CACHE]),
  ]),
);

export function notFoundResponse(kind: NotFoundKind): PreparedResponse {
  return notFound.get(kind)!;
}

export const METHOD_NOT_ALLOWED: PreparedResponse = prepare(
  'method-not-allowed',
  'The public statistics are read-only: use GET or HEAD (or OPTIONS).',
  ['Allow', PUBLIC_ALLOW, 'Cache-Control', NOT_FOUND_CACHE],
);

/**
 * OPTIONS: the methods, and a browser's CORS preflight answered for a script on another origin
 * (a newsroom's chart reading /api/data/…) that revalidates with If-None-Match or
 * If-Modified-Since, which are not CORS-safelisted request headers. Any origin: the statistics
 * are public and read-only, and no credential is ever involved.
 */
export const PREFLIGHT: PreparedResponse = {
  status: 204,
  headers: [
    'Allow', PUBLIC_ALLOW,
    'Access-Control-Allow-Origin', '*',
    'Access-Control-Allow-Methods', 'GET, HEAD',
    'Access-Control-Allow-Headers', 'If-None-Match, If-Modified-Since',
    'Access-Control-Max-Age', '86400',
    'Cache-Control', NOT_FOUND_CACHE,
  ],
  body: Buffer.alloc(0),
};

/** Before the first publication appears in the output folder. */
export const NO_PUBLICATION: PreparedResponse = prepare(
  'no-publication',
  'No statistics have been published yet; try again shortly.',
  ['Cache-Control', 'no-store', 'Retry-After', '5'],
);

/**
 * A file of the publication could not be read when a request needed it (e.g. its release was
 * garbage-collected by a later publish while this process still served it): the next attempt
 * is answered from the release then live.
 */
export const FILE_UNAVAILABLE: PreparedResponse = prepare(
  'file-unavailable',
  'This file is being replaced by a newer publication; try again in a moment.',
  ['Cache-Control', 'no-store', 'Retry-After', '1'],
);
