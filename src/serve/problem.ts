/**
 * RFC 7807 problem responses of the public surface, built once: every error here has a fixed
 * body (the request is never echoed back), so each is a ready Buffer plus its header list.
 */
import type { NotFoundReason } from '../public-paths.js';

/** Stable problem type URIs; the API under /api/v1 uses the same base. */
export const PROBLEM_BASE = 'https://storelens.dev/problems/';
export const PROBLEM_CONTENT_TYPE = 'application/problem+json';

export const PUBLIC_ALLOW = 'GET, HEAD';
/** Short, so a month published a minute later is not hidden behind a cached 404 for an hour. */
export const NOT_FOUND_CACHE = 'public, s-maxage=60';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
}

/** A response ready to write: status, flat header list (name, value, name, value …) and body. */
export interface PreparedResponse {
  readonly status: number;
  readonly headers: readonly string[];
  readonly body: Buffer;
}

export function problem(kind: string, title: string, status: number, detail: string): Problem {
  return { type: PROBLEM_BASE + kind, title, status, detail };
}

function prepare(p: Problem, extra: readonly string[]): PreparedResponse {
  const body = Buffer.from(JSON.stringify(p));
  const headers = [
    'Content-Type', PROBLEM_CONTENT_TYPE,
    'Content-Length', String(body.length),
    'Access-Control-Allow-Origin', '*',
    'X-Content-Type-Options', 'nosniff',
    ...extra,
  ];
  return { status: p.status, headers, body };
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
    prepare(problem('not-found', 'Not Found', 404, NOT_FOUND_DETAIL[k]), ['Cache-Control', NOT_FOUND_CACHE]),
  ]),
);

export function notFoundResponse(kind: NotFoundKind): PreparedResponse {
  return notFound.get(kind)!;
}

export const METHOD_NOT_ALLOWED: PreparedResponse = prepare(
  problem('method-not-allowed', 'Method Not Allowed', 405, 'The public statistics are read-only: use GET or HEAD.'),
  ['Allow', PUBLIC_ALLOW, 'Cache-Control', NOT_FOUND_CACHE],
);

/** Before the first publication appears in the output folder. */
export const NO_PUBLICATION: PreparedResponse = prepare(
  problem('no-publication', 'Service Unavailable', 503, 'No statistics have been published yet; try again shortly.'),
  ['Cache-Control', 'no-store', 'Retry-After', '5'],
);

/**
 * A file of the publication could not be read when a request needed it (e.g. its release was
 * garbage-collected by a later publish while this process still served it): the next attempt
 * is answered from the release then live.
 */
export const FILE_UNAVAILABLE: PreparedResponse = prepare(
  problem('file-unavailable', 'Service Unavailable', 503, 'This file is being replaced by a newer publication; try again in a moment.'),
  ['Cache-Control', 'no-store', 'Retry-After', '1'],
);
