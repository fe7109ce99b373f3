/**
 * The public statistics surface as one plain `node:http` request handler (SPEC.md "Public
 * statistics", DESIGN.md "serve: HTTP rules"). It answers every path under `/api/data` and
 * `/data` from the in-memory publication and returns false for anything else, which the
 * caller hands on (to Fastify). Order of the checks:
 *   1. method: GET and HEAD; OPTIONS answers 204 with the methods and the CORS preflight's
 *      headers (problem.ts PREFLIGHT); anything else 405 with `Allow: GET, HEAD, OPTIONS`;
 *   2. a non-empty query string ⇒ 404 (a bare `?` is an empty query); the path is matched with
 *      its percent-encoded unreserved characters decoded (core/public-paths.ts normalizePublicPath);
 *   3. the path in the live publication's table ⇒ the representation to send is chosen from
 *      Accept-Encoding (http/accept-encoding.ts): a text body of a kilobyte or more in br or gzip
 *      when the client takes it and it comes out smaller (encoded-body.ts, compressed once per
 *      file and coding), else the file as it is; then 304 when a validator matches that
 *      representation (its own ETag), else 200 (a document's body from memory; a card's streamed
 *      from its release folder, see file-body.ts; a HEAD or a 304 of a card never touches the
 *      disk);
 *   4. otherwise 404 saying why (trailing slash, unknown slug, malformed month, unpublished),
 *      or 503 while nothing at all is published.
 * Paths under `/releases` (releases.ts) take the same checks, answered from the releases the
 * live publication lists.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { selectCoding } from '../http/accept-encoding.js';
import { writeAnswerHead } from '../http/wire.js';
import { ifNoneMatchMatches, notModifiedSince } from '../http/conditional.js';
import { EncodedBodies } from './encoded-body.js';
import { sendFileBody, type BodyCache, type FileBodyHooks } from './file-body.js';
import { FILE_UNAVAILABLE, METHOD_NOT_ALLOWED, NO_PUBLICATION, notFoundResponse, PREFLIGHT, type PreparedResponse } from './problem.js';
import { CONTENT_LENGTH_AT, type Artifact, type Publication, type Representation } from './publication.js';
import { ReleaseArtifacts } from './releases.js';
import { isPublicPath, normalizePublicPath, parseReleasePath, resolvePublicPath } from '../core/public-paths.js';

/** Answers the request and returns true, or returns false without touching `res`. */
export type PublicHandler = (req: IncomingMessage, res: ServerResponse) => boolean;

export interface PublicationSource {
  readonly current: Publication | null;
}

export interface PublicHandlerOptions extends FileBodyHooks {
  /** Recently served card bodies; null (the default) reads every card GET from disk. */
  fileCache?: BodyCache | null;
  /** Compressed bodies (encoded-body.ts); by default a cache of DEFAULT_ENCODED_CACHE_BYTES of its own. */
  encoded?: EncodedBodies;
}

export function createPublicHandler(source: PublicationSource, opts: PublicHandlerOptions = {}): PublicHandler {
  const fileCache = opts.fileCache ?? null;
  const encoded = opts.encoded ?? new EncodedBodies({ fileCache });
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

  /**
   * The representation Accept-Encoding selects: a compressed one (its body compressed first
   * when it is not yet, since its ETag stands for it only when it is smaller than the file),
   * or the file as it is.
   */
  function answer(req: IncomingMessage, res: ServerResponse, artifact: Artifact, head: boolean): void {
    const encodings = artifact.encodings;
    const coding = encodings === null ? null : selectCoding(req.headers['accept-encoding']);
    if (coding === null) return answerIdentity(req, res, artifact, head);
    const rep = encodings![coding];
    const known = encoded.peek(artifact, coding);
    if (known !== undefined) return answerEncoded(req, res, artifact, rep, known, head);
    // A client holding this representation's tag got it because compressing made the file smaller
    // (no other way to have it): its revalidation is answered without compressing the file again.
    const inm = req.headers['if-none-match'];
    if (inm !== undefined && inm.trim() !== '*' && ifNoneMatchMatches(inm, rep.opaqueTag)) return answerNotModified(res, rep);
    // Every compression slot busy with other files: the file as it is rather than a queue.
    if (!encoded.available(artifact, coding)) return answerIdentity(req, res, artifact, head);
    encoded.encode(artifact, coding).then(
      (body) => {
        if (!res.destroyed) answerEncoded(req, res, artifact, rep, body, head);
      },
      (error: Error) => {
        if (artifact.file !== null) opts.onError?.(error, artifact);
        if (!res.destroyed && !res.headersSent) send(res, FILE_UNAVAILABLE, head);
      },
    );
  }

  /** The compressed representation `rep`, its bytes `body` (null: not smaller, so the file as it is). */
  function answerEncoded(req: IncomingMessage, res: ServerResponse, artifact: Artifact, rep: Representation, body: Buffer | null, head: boolean): void {
    if (body === null) return answerIdentity(req, res, artifact, head);
    if (notModified(req, rep.opaqueTag, artifact.lastModifiedMs)) return answerNotModified(res, rep);
    const headers = rep.okHeaders.slice();
    headers[CONTENT_LENGTH_AT] = String(body.length);
    writeAnswerHead(res, 200, headers);
    if (head) res.end();
    else res.end(body);
  }

  /** 304 when a validator matches, else 200: a body from memory, or streamed from its file. */
  function answerIdentity(req: IncomingMessage, res: ServerResponse, artifact: Artifact, head: boolean): void {
    if (notModified(req, artifact.opaqueTag, artifact.lastModifiedMs)) {
      answerNotModified(res, artifact);
    } else if (artifact.body !== null) {
      writeAnswerHead(res, 200, artifact.okHeaders);
      // Node sends no body for HEAD whatever end() is given; skip the copy anyway.
      if (head) res.end();
      else res.end(artifact.body);
    } else if (head) {
      writeAnswerHead(res, 200, artifact.okHeaders); // headers from the manifest: no disk
      res.end();
    } else {
      sendFileBody(res, artifact, fileCache, opts);
    }
  }
}

/** 304 with the representation's headers (its ETag, Vary, validators), no body. */
function answerNotModified(res: ServerResponse, rep: Pick<Representation, 'notModifiedHeaders'>): void {
  writeAnswerHead(res, 304, rep.notModifiedHeaders);
  res.end();
}

/** If-None-Match against the representation's ETag (weak comparison), or If-Modified-Since when none is sent. */
function notModified(req: IncomingMessage, opaqueTag: string, lastModifiedMs: number): boolean {
  const inm = req.headers['if-none-match'];
  if (inm !== undefined) return ifNoneMatchMatches(inm, opaqueTag);
  const ims = req.headers['if-modified-since'];
  return ims !== undefined && notModifiedSince(ims, lastModifiedMs);
}

function send(res: ServerResponse, r: PreparedResponse, head: boolean): void {
  writeAnswerHead(res, r.status, r.headers);
  if (head) res.end();
  else res.end(r.body);
}
