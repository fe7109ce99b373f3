/**
 * Compressed bodies of the public text artifacts (HTML, JSON, CSV, markdown, RSS): each file is
 * compressed once per coding and process, on the first request that asks for it, and kept in an
 * LRU bounded by bytes. Measured on a 20,000-store, 13-month demo publication (docs/publishing.md
 * "Compression"): a statistics page of 0.9–1.9 MB is 60–110 KB gzipped and 45–75 KB in brotli
 * at quality 5, a month's JSON of 0.4–0.8 MB 20–45 KB, at 4–15 ms per MB of input for either
 * coding; brotli's top quality (11) gains a further fifth but costs about a second per MB, which
 * the first reader of a page would wait.
 *
 * - Only text types are offered compressed, and only from COMPRESSIBLE_MIN_BYTES up: below a
 *   kilobyte, body and headers fit one TCP segment either way. A PNG (or any other type) never is.
 * - An encoded body that is not smaller than the file is not sent: the answer is identity.
 * - Entries are keyed by the artifact's key, its strong ETag (which names exactly those bytes:
 *   a new release that changes a file changes its ETag) and its length, so a swap of the live
 *   release never meets an old body under a new ETag, and a file a new release left as it was
 *   keeps its compressed bodies.
 * - Concurrent first requests for one body share one compression (in-flight promises by key).
 * - Compression runs on libuv's thread pool (zlib's async API), off the event loop.
 */
import { readFile } from 'node:fs/promises';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import type { ContentCoding } from '../http/accept-encoding.js';
import type { BodyCache } from './file-body.js';
import type { Artifact } from './publication.js';

/** Brotli quality: 5 is within a few percent of 6–9 and as fast as gzip -6 on these files. */
export const BROTLI_QUALITY = 5;
/** gzip level (zlib's default). */
export const GZIP_LEVEL = 6;
/** Default bound of the cache of compressed bodies: a 20,000-store demo's live files take about 6 MB in both codings. */
export const DEFAULT_ENCODED_CACHE_BYTES = 32 * 1024 * 1024;

/** `false`: the encoded bytes were not smaller than the file. */
type Kept = Buffer | false;

/** What a kept entry weighs: its bytes, its key and the entry's own. */
const weight = (value: Kept, key: string): number => (value === false ? 0 : value.length) + 2 * key.length + 100;

/**
 * Compressions under way at once, at most. Each holds its file and the coder's working memory
 * (brotli's about 9 MB), and runs on libuv's thread pool that file reads share: 200 first
 * requests of distinct files at once held 2.2 GB before there was a bound. A request that finds
 * them all busy gets the file as it is (always a valid answer), not a queue.
 */
export const MAX_CONCURRENT_COMPRESSIONS = 2;

export interface EncodedBodiesOptions {
  /** Bound of the cache, in bytes (DEFAULT_ENCODED_CACHE_BYTES). */
  maxBytes?: number;
  /** Compressions at once (MAX_CONCURRENT_COMPRESSIONS). */
  maxConcurrent?: number;
  /** Card bodies recently served (file-body.ts), looked in before a release's file is read. */
  fileCache?: BodyCache | null;
}

export class EncodedBodies {
  private readonly kept: LRUCache<string, Kept>;
  private readonly pending = new Map<string, Promise<Buffer | null>>();
  private readonly fileCache: BodyCache | null;
  private readonly maxConcurrent: number;
  /** Compressions run (not answered from the cache or shared with one in flight). */
  compressions = 0;

  constructor(opts: EncodedBodiesOptions = {}) {
    const maxBytes = Math.max(1, opts.maxBytes ?? DEFAULT_ENCODED_CACHE_BYTES);
    this.kept = new LRUCache<string, Kept>({ maxSize: maxBytes, maxEntrySize: maxBytes, sizeCalculation: weight });
    this.fileCache = opts.fileCache ?? null;
    this.maxConcurrent = Math.max(1, opts.maxConcurrent ?? MAX_CONCURRENT_COMPRESSIONS);
  }

  /** Whether encode() would answer without a compression beyond the bound: known, under way, or a free slot. */
  available(artifact: Artifact, coding: ContentCoding): boolean {
    const key = keyOf(artifact, coding);
    return this.kept.has(key) || this.pending.has(key) || this.pending.size < this.maxConcurrent;
  }

  /** The encoded body when known: a Buffer, null when not smaller than the file, undefined when not yet compressed. */
  peek(artifact: Artifact, coding: ContentCoding): Buffer | null | undefined {
    const v = this.kept.get(keyOf(artifact, coding));
    return v === undefined ? undefined : v === false ? null : v;
  }

  /** The encoded body, compressed now if need be (once for concurrent callers); null when not smaller. */
  encode(artifact: Artifact, coding: ContentCoding): Promise<Buffer | null> {
    const key = keyOf(artifact, coding);
    const known = this.kept.get(key);
    if (known !== undefined) return Promise.resolve(known === false ? null : known);
    let p = this.pending.get(key);
    if (p === undefined) {
      this.compressions++;
      p = this.identity(artifact)
        .then((body) => compress(body, coding))
        .then((encoded) => {
          const smaller = encoded.length < artifact.bytes ? encoded : null;
          this.kept.set(key, smaller ?? false);
          return smaller;
        })
        .finally(() => this.pending.delete(key));
      this.pending.set(key, p);
    }
    return p;
  }

  /** Bytes the cache holds now (what maxBytes bounds). */
  get heldBytes(): number {
    return this.kept.calculatedSize;
  }

  /** The file's bytes: from memory, from the card cache, or read from its release folder and checked. */
  private async identity(artifact: Artifact): Promise<Buffer> {
    if (artifact.body !== null) return artifact.body;
    const cached = this.fileCache?.get(artifact.key + '\0' + artifact.etag);
    if (cached !== undefined && cached.length === artifact.bytes) return cached;
    const body = await readFile(artifact.file);
    if (body.length !== artifact.bytes) throw new Error(`${artifact.file}: ${body.length} bytes, expected ${artifact.bytes}`);
    return body;
  }
}

/** The ETag names the bytes (a hash of them): one file kept once however many releases or paths serve it. */
const keyOf = (artifact: Artifact, coding: ContentCoding): string => `${artifact.etag}\0${artifact.bytes}\0${coding}`;

function compress(body: Buffer, coding: ContentCoding): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const done = (error: Error | null, out: Buffer) => (error ? reject(error) : resolve(out));
    if (coding === 'gzip') gzip(body, { level: GZIP_LEVEL }, done);
    else
      brotliCompress(
        body,
        {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY,
            [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        },
        done,
      );
  });
}
