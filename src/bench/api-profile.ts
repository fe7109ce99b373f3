/**
 * Where a request's time goes, for the api benchmark (api.ts): two simple profiles of a run of
 * the server in this process, neither of which needs the code it measures to know of it.
 *
 *  - Phases (wall time, mean per request, read off Fastify's own clock): `admission` from the
 *    request's arrival to the handler (routing, the key lookup, scope and availability, the rate
 *    limit counter, reading the body), `operation` the handler (the executor: idempotency, the
 *    query or the write, the page's JSON and gzip), `sending` from the payload to the response
 *    written. On PostgreSQL they include the round trips' waits, which a CPU profile cannot see.
 *  - CPU (V8's sampling profiler over the same kind of run): each sample charged to the nearest
 *    frame on its stack that belongs to a part of the request (key lookup, rate limit,
 *    idempotency, the accounts page, the executor), else to the database driver, the HTTP server
 *    and framework, metrics and log, garbage collection, or idle (waiting: the database, the
 *    network, the load generator). Writing the response to its socket is the HTTP server's,
 *    though the executor's send (plugin.ts) is below it on the stack.
 *
 * And the baseline GET /accounts is compared with: a bare node:http server that answers the
 * very bytes and headers of the page the API answered.
 */
import { createServer, type IncomingMessage, type OutgoingHttpHeaders } from 'node:http';
import { Session } from 'node:inspector/promises';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';

export interface PhaseTimes {
  requests: number;
  /** Mean milliseconds per request. */
  admission: number;
  operation: number;
  sending: number;
}

/** Hooks on the app (before it listens) that time the phases of every request; read() gives the means since the last reset(). */
export function timePhases(app: FastifyInstance): { read(): PhaseTimes; reset(): void } {
  let n = 0;
  let admission = 0;
  let operation = 0;
  let sending = 0;
  const at = new WeakMap<object, number[]>();
  app.addHook('preHandler', (req, reply, done) => {
    at.set(req, [reply.elapsedTime]);
    done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    at.get(req)?.push(reply.elapsedTime);
    done(null, payload);
  });
  app.addHook('onResponse', (req, reply, done) => {
    const t = at.get(req);
    if (t?.length === 2) {
      const end = reply.elapsedTime;
      n++;
      admission += t[0]!;
      operation += t[1]! - t[0]!;
      sending += end - t[1]!;
    }
    done();
  });
  return {
    read: () => ({ requests: n, admission: admission / Math.max(n, 1), operation: operation / Math.max(n, 1), sending: sending / Math.max(n, 1) }),
    reset: () => {
      n = admission = operation = sending = 0;
    },
  };
}

/** Parts of a request, by the source file a frame comes from; the nearest one on a sample's stack takes the sample. */
const PARTS: readonly [string, RegExp][] = [
  ['key lookup', /\/api\/(auth|keys-store|keys)\.[jt]s$/],
  ['rate limit', /\/api\/rate-(limit|counters)\.[jt]s$/],
  ['idempotency', /\/api\/idempotency(-store)?\.[jt]s$/],
  ['accounts page (query, rows, JSON)', /\/src\/accounts\/|\/dist\/accounts\//],
  ['executor (scope, validation, gzip)', /\/api\/(executor|plugin|body|response-check|cursor|seq-page)\.[jt]s$|zlib/],
];
/** Frames of writing a response to its socket: the HTTP server's, whatever part of the request called it. */
const WRITING = /^node:(_http_outgoing|net|internal\/stream_base_commons|internal\/streams\/writable)$/;
/** What a sample is charged to when no part of the request is on its stack. */
const ELSEWHERE: readonly [string, RegExp][] = [
  ['database driver', /better-sqlite3|\/pg\/|pg-protocol|pg-pool|kysely|\/db\//],
  ['metrics and log', /pino|sonic-boom|prom-client|request-log|\/ops\/(logger|metrics)\.[jt]s$/],
  ['HTTP server and framework', /fastify|find-my-way|avvio|node:_http|node:net|node:stream|stream_base|\/http\/wire/],
];

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}

/** Runs `run` under V8's sampling profiler; returns its result and the share of samples of each part. */
export async function profileCpu<T>(run: () => Promise<T>): Promise<{ result: T; shares: [string, number][] }> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  let result: T;
  let profile: { nodes: unknown[]; samples?: number[]; timeDeltas?: number[] };
  try {
    result = await run();
  } finally {
    ({ profile } = await session.post('Profiler.stop'));
    session.disconnect();
  }
  const nodes = new Map<number, ProfileNode>();
  const parent = new Map<number, number>();
  for (const n of profile.nodes as ProfileNode[]) {
    nodes.set(n.id, n);
    for (const c of n.children ?? []) parent.set(c, n.id);
  }
  const charged = new Map<number, string>();
  const partOf = (id: number): string => {
    const known = charged.get(id);
    if (known) return known;
    const leaf = nodes.get(id)!.callFrame;
    let part: string | undefined;
    if (leaf.functionName === '(garbage collector)') part = 'garbage collection';
    else if (leaf.functionName === '(idle)') part = 'idle';
    for (let x: number | undefined = id; part === undefined && x !== undefined; x = parent.get(x)) {
      const url = nodes.get(x)!.callFrame.url;
      part = WRITING.test(url) ? 'HTTP server and framework' : PARTS.find(([, re]) => re.test(url))?.[0];
    }
    for (let x: number | undefined = id; part === undefined && x !== undefined; x = parent.get(x)) {
      const url = nodes.get(x)!.callFrame.url;
      part = ELSEWHERE.find(([, re]) => re.test(url))?.[0];
    }
    part ??= 'other';
    charged.set(id, part);
    return part;
  };
  const totals = new Map<string, number>();
  const samples = (profile.samples ?? []) as number[];
  const deltas = (profile.timeDeltas ?? []) as number[];
  let all = 0;
  samples.forEach((id, i) => {
    const d = Math.max(0, deltas[i] ?? 0);
    const part = partOf(id);
    totals.set(part, (totals.get(part) ?? 0) + d);
    all += d;
  });
  const shares = [...totals].map(([p, t]) => [p, t / Math.max(all, 1)] as [string, number]).sort((a, b) => b[1] - a[1]);
  return { result: result!, shares };
}

export interface CapturedPage {
  status: number;
  headers: OutgoingHttpHeaders;
  body: Buffer;
}

/** One page as the API answers it to the load generator (gzip accepted), to serve again from a bare server. */
export async function capturePage(url: string, key: string): Promise<CapturedPage> {
  const { request } = await import('node:http');
  return new Promise((resolve, reject) => {
    const req = request(url, { headers: { authorization: `Bearer ${key}`, 'accept-encoding': 'gzip, deflate' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const headers: OutgoingHttpHeaders = {};
        for (const name of ['content-type', 'content-encoding', 'vary', 'cache-control', 'x-content-type-options']) if (res.headers[name] !== undefined) headers[name] = res.headers[name];
        resolve({ status: res.statusCode ?? 0, headers, body: Buffer.concat(chunks) });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end();
  });
}

/**
 * A bare node:http server answering every request with `page`, or with what `answer` finds for
 * it (404 when nothing): each request target of a benchmark's walks with the API's bytes for it.
 */
export async function bareServer(page: CapturedPage | ((req: IncomingMessage) => CapturedPage | undefined)): Promise<{ url: string; close(): Promise<void> }> {
  const answer = typeof page === 'function' ? page : () => page;
  const headers = new WeakMap<CapturedPage, OutgoingHttpHeaders>();
  const server = createServer((req, res) => {
    const a = answer(req);
    if (!a) {
      res.writeHead(404).end();
      return;
    }
    let h = headers.get(a);
    if (!h) headers.set(a, (h = { ...a.headers, 'content-length': a.body.length }));
    res.writeHead(a.status, h);
    res.end(a.body);
  });
  server.keepAliveTimeout = 72_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
