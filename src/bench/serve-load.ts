/**
 * The serve benchmark: requests per second for a 200 and a 304 on `/api/data/{slug}`, from the
 * `serve` server and from a bare `node:http` server answering the same bytes and headers from
 * memory (and a request id, as `serve` sends), in the same run, alternated round by round so both meet the same machine (no
 * Accept-Encoding: the file as it is). Then the page `/data/{slug}` as a browser asks for it
 * (`gzip, deflate, br`): the first request, which compresses it, and the requests per second
 * once it is compressed. Called by `npm run bench`; not a test.
 */
import { randomUUID } from 'node:crypto';
import { createServer, request, type OutgoingHttpHeader, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import autocannon from 'autocannon';
import { urlPath as publicPath, type Slug } from '../core/public-paths.js';
import { resolveCurrentRelease } from '../publish/release.js';
import { loadPublication } from '../serve/publication.js';
import { startServer } from '../serve/server.js';

export interface ServeBenchOptions {
  /** Output folder with a publication (written by `storelens publish`). */
  out: string;
  slug?: Slug;
  /** Seconds per measurement. */
  durationSeconds?: number;
  connections?: number;
  pipelining?: number;
  /** autocannon worker threads (0 = load generated on the main thread, beside the servers). */
  workers?: number;
  /** Back-to-back pairs of measurements per case. */
  rounds?: number;
  /** Progress lines (e.g. to stderr). */
  log?: (line: string) => void;
}

export interface ReqPerSec {
  ok: number;
  notModified: number;
}

export interface ServeBenchResult {
  path: string;
  bytes: number;
  /** Best req/s of each server over the rounds. */
  serve: ReqPerSec;
  bare: ReqPerSec;
  /** Median over the rounds of serve / bare measured back to back (goal ≥ 0.9). */
  ratio: ReqPerSec;
  /** The page asked for as a browser does. */
  compressed: CompressedPage;
}

export interface CompressedPage {
  path: string;
  /** The file's length, and what went on the wire in `coding`. */
  bytes: number;
  sentBytes: number;
  coding: string;
  /** The first request, which compresses the page (ms, on loopback). */
  firstMs: number;
  /** Requests per second once it is compressed. */
  reqPerSec: number;
}

const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br';

export async function benchServe(opts: ServeBenchOptions): Promise<ServeBenchResult> {
  const slug = opts.slug ?? 'agentic-commerce';
  const urlPath = publicPath({ kind: 'latest-json', slug });
  const dir = await resolveCurrentRelease(opts.out);
  if (dir === null) throw new Error(`${opts.out}: nothing published to benchmark`);
  const artifact = (await loadPublication(dir)).byPath.get(urlPath);
  if (!artifact || artifact.body === null) throw new Error(`${opts.out}: ${urlPath} is not published`);

  const serve = await startServer({ out: opts.out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
  const bare = await startBare(artifact.etag, artifact.okHeaders, artifact.notModifiedHeaders, artifact.body);
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}`;
  const pagePath = publicPath({ kind: 'html', slug });
  const page = (await loadPublication(dir)).byPath.get(pagePath);
  if (!page) throw new Error(`${opts.out}: ${pagePath} is not published`);
  let compressed: CompressedPage | undefined;
  const best = { serve: { ok: 0, notModified: 0 }, bare: { ok: 0, notModified: 0 } };
  const ratios: { ok: number[]; notModified: number[] } = { ok: [], notModified: [] };
  try {
    const run = async (base: string, conditional: boolean, duration = opts.durationSeconds ?? 5, path = urlPath, headers: Record<string, string> = {}) => {
      const r = await autocannon({
        url: base + path,
        connections: opts.connections ?? 50,
        pipelining: opts.pipelining ?? 1,
        duration,
        workers: opts.workers ?? 1,
        headers: conditional ? { 'if-none-match': artifact.etag } : headers,
      });
      if (r.errors || r.timeouts || r['4xx'] || r['5xx']) throw new Error(`bench ${base}: errors in the run`);
      return r.requests.average;
    };
    // Warm both up (JIT, sockets) before measuring.
    for (const base of [bareUrl, serve.url]) await run(base, false, 1);
    // Back-to-back pairs, the order alternating, so both servers meet the same machine; on a
    // shared machine the per-pair ratio is steadier than either figure alone.
    for (let round = 0; round < (opts.rounds ?? 3); round++) {
      for (const conditional of [false, true]) {
        const key = conditional ? 'notModified' : 'ok';
        const order = round % 2 === 0 ? (['bare', 'serve'] as const) : (['serve', 'bare'] as const);
        const pair = { bare: 0, serve: 0 };
        for (const which of order) {
          pair[which] = await run(which === 'bare' ? bareUrl : serve.url, conditional);
          opts.log?.(`serve bench: ${which} ${conditional ? '304' : '200'} round ${round + 1}: ${Math.round(pair[which])} req/s`);
          best[which][key] = Math.max(best[which][key], pair[which]);
        }
        ratios[key].push(pair.serve / pair.bare);
      }
    }
    const accept = { 'accept-encoding': BROWSER_ACCEPT_ENCODING };
    const t0 = performance.now();
    const first = await sizeOf(serve.url + pagePath, accept);
    const firstMs = performance.now() - t0;
    const reqPerSec = await run(serve.url, false, undefined, pagePath, accept);
    compressed = { path: pagePath, bytes: page.bytes, sentBytes: first.bytes, coding: first.coding, firstMs: Math.round(firstMs * 10) / 10, reqPerSec: Math.round(reqPerSec) };
    opts.log?.(`serve bench: ${pagePath} in ${first.coding}: ${compressed.reqPerSec} req/s`);
  } finally {
    await serve.close();
    await new Promise((r) => bare.close(r));
  }
  return {
    path: urlPath,
    bytes: artifact.body.length,
    serve: round0(best.serve),
    bare: round0(best.bare),
    ratio: { ok: median(ratios.ok), notModified: median(ratios.notModified) },
    compressed: compressed!,
  };
}

/** One GET: the bytes of its body as sent and its Content-Encoding (`identity` when none). */
function sizeOf(url: string, headers: Record<string, string>): Promise<{ bytes: number; coding: string }> {
  return new Promise((resolve, reject) => {
    request(url, { headers, agent: false }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ bytes, coding: res.headers['content-encoding'] ?? 'identity' }));
      res.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

const round0 = (r: ReqPerSec): ReqPerSec => ({ ok: Math.round(r.ok), notModified: Math.round(r.notModified) });

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const m = s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
  return Math.round(m * 1000) / 1000;
}

/**
 * The reference: one resource, its bytes and headers in memory, a string compare for 304, and
 * the X-Request-Id every answer of `serve` carries (a new one per request, as `serve` makes one
 * when the caller sends none), so that both send the same header fields and the ratio is the
 * server's own cost.
 */
function startBare(
  etag: string,
  okHeaders: readonly string[],
  notModifiedHeaders: readonly string[],
  body: Buffer,
): Promise<Server> {
  const server = createServer((req, res) => {
    if (req.headers['if-none-match'] === etag) {
      res.writeHead(304, [...notModifiedHeaders, 'X-Request-Id', randomUUID()] as OutgoingHttpHeader[]);
      res.end();
    } else {
      res.writeHead(200, [...okHeaders, 'X-Request-Id', randomUUID()] as OutgoingHttpHeader[]);
      res.end(body);
    }
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}
