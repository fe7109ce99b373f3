/**
 * The public statistics surface as one plain `node:http` request handler (SPEC.md "Public
 * statistics", DESIGN.md "serve: HTTP rules"). It answers every path under `/api/data` and
 * `/data` from the in-memory publication and returns false for anything else, which the
 * caller hands on (to Fastify). Order of the checks:
 *   1. method: GET and HEAD only, else 405 with `Allow: GET, HEAD`;
 *   2. a non-empty query string ⇒ 404 (a bare `?` is an empty query);
 *   3. the path in the live publication's table ⇒ 304 when a validator matches, else 200 (a
 *      document's body from memory; a card's streamed from its release folder, see file-body.ts;
 *      a HEAD or a 304 never touches the disk);
 *   4. otherwise 404 saying why (trailing slash, unknown slug, malformed month, unpublished),
 *      or 503 while nothing at all is published.
 */
import type { IncomingMessage, OutgoingHttpHeader, ServerResponse } from 'node:http';
import { ifNoneMatchMatches, notModifiedSince } from './conditional.js';
import { sendFileBody, type BodyCache, type FileBodyHooks } from './file-body.js';
import { METHOD_NOT_ALLOWED, NO_PUBLICATION, notFoundResponse, type PreparedResponse } from './problem.js';
import type { Publication } from './publication.js';
import { isPublicPath, resolvePublicPath } from '../core/public-paths.js';

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
  return function handlePublic(req, res) {
    const url = req.url ?? '';
    const q = url.indexOf('?');
    const path = q === -1 ? url : url.slice(0, q);
    if (!isPublicPath(path)) return false;

    const method = req.method;
    const head = method === 'HEAD';
    if (method !== 'GET' && !head) {
      send(res, METHOD_NOT_ALLOWED, false);
      return true;
    }
    if (q !== -1 && q + 1 < url.length) {
      send(res, notFoundResponse('query-string'), head);
      return true;
    }

    const publication = source.current; // read once: the whole answer comes from this release
    const artifact = publication?.byPath.get(path);
    if (artifact !== undefined) {
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
      return true;
    }

    const resolution = resolvePublicPath(path);
    if ('reason' in resolution) send(res, notFoundResponse(resolution.reason), head);
    else if (publication === null) send(res, NO_PUBLICATION, head);
    else send(res, notFoundResponse('not-published'), head);
    return true;
  };
}

function send(res: ServerResponse, r: PreparedResponse, head: boolean): void {
  res.writeHead(r.status, r.headers as Headers);
  if (head) res.end();
  else res.end(r.body);
}
