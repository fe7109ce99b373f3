/**
 * Bodies of on-disk artifacts (share cards): streamed from their release folder on a GET, with
 * a small LRU of recently served bodies bounded by bytes so hot cards skip the disk. The path
 * opened is the artifact's (release folder + manifest key, fixed at load); request input never
 * names a file. A HEAD or a 304 never comes here.
 *
 * Failure handling: the file is opened and fstat'ed before any header is written, so a file that
 * vanished (its release garbage-collected by a later publish) or changed length answers a 503
 * problem with `Retry-After: 1`. Once the 200's headers are out, a read error or a short read
 * destroys the response (and its socket) instead of sending a body of the wrong length. Every
 * descriptor is closed on every path: the read stream owns it from creation (autoClose), and
 * `pipeline` destroys the stream when the response fails or the client goes away.
 */
import { close, createReadStream, fstat, open } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { LRUCache } from 'lru-cache';
import { writeAnswerHead } from '../http/wire.js';
import { FILE_UNAVAILABLE } from './problem.js';
import type { FileArtifact } from './publication.js';

/** Default bound of the body cache. */
export const DEFAULT_FILE_CACHE_BYTES = 32 * 1024 * 1024;
/** One read of up to this many bytes: a typical card (~70 KB) is a single chunk. */
const MAX_CHUNK = 256 * 1024;

/**
 * Least-recently-used bodies, bounded by their total length. Keyed by manifest key and strong
 * ETag, which name exactly these bytes, so entries stay valid across publications.
 */
export type BodyCache = LRUCache<string, Buffer>;

/** A body cache of `maxBytes` in all; a body above `maxEntryBytes` (default a sixteenth) is never kept, as it would evict too much. */
export function bodyCache(maxBytes: number, maxEntryBytes?: number): BodyCache {
  return new LRUCache<string, Buffer>({
    maxSize: maxBytes,
    maxEntrySize: Math.min(maxBytes, maxEntryBytes ?? Math.max(1, Math.floor(maxBytes / 16))),
    sizeCalculation: (body) => Math.max(1, body.length),
  });
}

export interface FileBodyHooks {
  /** A file could not be served (the request got a 503, or its connection was cut). */
  onError?: (error: Error, artifact: FileArtifact) => void;
}

const noop = () => undefined;

class ShortReadError extends Error {
  constructor(file: string, got: number, want: number) {
    super(`${file}: read ${got} bytes, expected ${want}`);
    this.name = 'ShortReadError';
  }
}

/** Answers a GET for an on-disk artifact with a 200 and its bytes (or a 503, see above). */
export function sendFileBody(
  res: ServerResponse,
  artifact: FileArtifact,
  cache: BodyCache | null,
  hooks: FileBodyHooks = {},
): void {
  const cacheKey = cache === null ? '' : artifact.key + '\0' + artifact.etag;
  const cached = cache?.get(cacheKey);
  if (cached !== undefined && cached.length === artifact.bytes) {
    writeAnswerHead(res, 200, artifact.okHeaders);
    res.end(cached);
    return;
  }
  const fail = (error: Error) => {
    hooks.onError?.(error, artifact);
    if (res.destroyed || res.writableEnded) return;
    if (res.headersSent) {
      res.destroy();
      return;
    }
    writeAnswerHead(res, FILE_UNAVAILABLE.status, FILE_UNAVAILABLE.headers);
    res.end(FILE_UNAVAILABLE.body);
  };
  open(artifact.file, 'r', (openError, fd) => {
    if (openError) return fail(openError);
    fstat(fd, (statError, st) => {
      if (statError || !st.isFile() || st.size !== artifact.bytes) {
        close(fd, noop);
        return fail(statError ?? new Error(`${artifact.file}: ${st.isFile() ? `${st.size} bytes, expected ${artifact.bytes}` : 'not a regular file'}`));
      }
      if (res.destroyed) {
        close(fd, noop); // the client went away while the file was being opened
        return;
      }
      writeAnswerHead(res, 200, artifact.okHeaders);
      if (artifact.bytes === 0) {
        close(fd, noop);
        res.end();
        return;
      }
      const want = artifact.bytes;
      const stream = createReadStream(artifact.file, {
        fd,
        autoClose: true,
        start: 0,
        end: want - 1,
        highWaterMark: Math.min(want, MAX_CHUNK),
      });
      const keep: Buffer[] | null = cache !== null && want <= cache.maxEntrySize ? [] : null;
      let got = 0;
      pipeline(
        stream,
        async function* checkLength(source: AsyncIterable<Buffer>) {
          for await (const chunk of source) {
            got += chunk.length;
            keep?.push(chunk);
            yield chunk;
          }
          // Never end a response short of its Content-Length: fail it instead.
          if (got !== want) throw new ShortReadError(artifact.file, got, want);
          // The whole file is read: keep it now, before the response has ended.
          if (keep !== null) cache!.set(cacheKey, keep.length === 1 ? keep[0] : Buffer.concat(keep, want));
        },
        res,
        (error) => {
          // pipeline has destroyed the stream (closing its descriptor) and the response on error.
          if (error && (error as NodeJS.ErrnoException).code !== 'ERR_STREAM_PREMATURE_CLOSE') fail(error);
        },
      );
    });
  });
}
