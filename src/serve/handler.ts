/**
 * The public statistics surface as one plain `node:http` request handler (SPEC.md "Public
 * statistics", DESIGN.md "serve: HTTP rules"). It answers every path under `/api/data` and
 * `/data` from the in-memory publication and returns false for anything else, which the
 * caller hands on (to Fastify). Order of the checks:
 *   1. method: GET and HEAD; OPTIONS answers 204 with the methods and the CORS preflight's
 *      headers (problem.ts PREFLIGHT); anything else 405 with `Allow: GET, HEAD, OPTIONS`;
 *   2. a non-empty query string ⇒ 404 (a bare `?` is an empty query); the path is matched with
 *      its percent-encoded unreserved characters decoded (core/public-paths.ts normalizePublicPath);
 *   3. the path in the live publication's table ⇒ 304 when a validator matches, else 200 (a
 *      document's body from memory; a card's streamed from its release folder, see file-body.ts;
 *      a HEAD or a 304 never touches the disk);
 *   4. otherwise 404 saying why (trailing slash, unknown slug, malformed month, unpublished),
 *      or 503 while nothing at all is published.
 * Paths under `/releases` (releases.ts) take the same checks, answered from the releases the
 * live publication lists.
 */
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { ifNoneMatchMatches, notModifiedSince } from '../http/conditional.js';
import { sendFileBody, type BodyCache, type FileBodyHooks } from './file-body.js';
import { FILE_UNAVAILABLE, METHOD_NOT_ALLOWED, NO_PUBLICATION, notFoundResponse, PREFLIGHT, type PreparedResponse } from './problem.js';
import type { Artifact, Publication } from './publication.js';
import { ReleaseArtifacts } from './releases.js';
import { isPublicPath, normalizePublicPath, parseReleasePath, resolvePublicPath } from '../core/public-paths.js';

/** Answers the request and returns true, or returns false without touching `res`. */
export type PublicHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface PublicationSource {
  readonly current: Publication | null;
}

type Headers = OutgoingHttpHeader[];

export interface PublicHandlerOptions extends FileBodyHooks {
  /** Recently served card bodies; null (the default) reads every card GET from disk. */
  fileCache?: BodyCache | null;
}

export function createPublicHandler(source: PublicationSource, opts: PublicHandlerOptions = {}): PublicHandler {
  const fileCache = opts.fileCache ?? null;
  const releases = new ReleaseArtifacts();
  return function handlePublic(req, res) {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = normalizePublicPath(q === -1 ? url : url.slice(0, q));
    if (!isPublicPath(path)) return false;

    const method = req.method;
    const head = method === 'HEAD';
    if (method !== 'GET' && !head) {
      send(res, method === 'OPTIONS' ? PREFLIGHT : METHOD_NOT_ALLOWED, false);
      return true;
    }
    if (q !== -1 && q + 1 < url.length) {
      send(res, notFoundResponse('query-string'), head);
      return true;
    }

    const publication = source.current; // read once: the whole answer comes from this release
    if (path.startsWith('/releases')) {
      answerRelease(req, res, path, head, publication);
      return true;
    }
    const artifact = publication?.byPath.get(path);
    if (artifact !== undefined) {
      answer(req, res, artifact, head);
      return true;
    }

    const resolution = resolvePublicPath(path);
    if ('reason' in resolution) send(res, notFoundResponse(resolution.reason), head);
    else if (publication === null) send(res, NO_PUBLICATION, head);
    else send(res, notFoundResponse('not-published'), head);
    return true;
  };

  /** `/releases.json` and `/releases/{id}/…` (releases.ts), answered from the releases `publication` lists. */
  function answerRelease(req: IncomingMessage, res: ServerResponse, path: string, head: boolean, publication: Publication | null): void {
    const r = parseReleasePath(path);
    if ('reason' in r) return send(res, notFoundResponse(r.reason), head);
    if (publication === null) return send(res, NO_PUBLICATION, head);
    if ('list' in r) {
      const list = releases.listing(publication);
      return list === null ? send(res, notFoundResponse('not-published'), head) : answer(req, res, list, head);
    }
    releases.find(publication, r.release, r.key).then(
      (artifact) => (artifact === null ? send(res, notFoundResponse('not-published'), head) : answer(req, res, artifact, head)),
      () => send(res, FILE_UNAVAILABLE, head),
    );
  }

  /** 304 when a validator matches, else 200: a body from memory, or streamed from its file. */
  function answer(req: IncomingMessage, res: ServerResponse, artifact: Artifact, head: boolean): void {
    const inm = req.headers['if-none-match'];
    const ims = inm === undefined ? req.headers['if-modified-since'] : undefined;
    if (
      inm !== undefined
        ? ifNoneMatchMatches(inm, artifact.opaqueTag)
        : ims !== undefined && notModifiedSince(ims, artifact.lastModifiedMs)
    ) {
      res.writeHead(304, artifact.notModifiedHeaders as Headers);
      res.end();
    } else if (artifact.body !== null) {
      res.writeHead(200, artifact.okHeaders as Headers);
      // Node sends no body for HEAD whatever end() is given; skip the copy anyway.
      if (head) res.end();
      else res.end(artifact.body);
    } else if (head) {
      res.writeHead(200, artifact.okHeaders as Headers); // headers from the manifest: no disk
      res.end();
    } else {
      sendFileBody(res, artifact, fileCache, opts);
    }
  }
}

function send(res: ServerResponse, r: PreparedResponse, head: boolean): void {
  res.writeHead(r.status, r.headers as Headers);
  if (head) res.end();
  else res.end(r.body);
}
