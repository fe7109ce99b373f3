/**
 * A signed POST to a checked target (outbound/ssrf.ts), as webhook deliveries and outreach steps
 * send it: Standard Webhooks signatures, the connection pinned to the checked addresses, no
 * redirect followed, a timeout, the answer's body never read.
 */
import { createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction, TcpNetConnectOpts } from 'node:net';
import { createSecureContext, rootCertificates, type SecureContext } from 'node:tls';
import type { CheckedTarget, ResolvedAddress } from './ssrf.js';

/** Each address tried in turn (Node's default since 20, said here whatever the process's flags). */
const everyAddress: Pick<TcpNetConnectOpts, 'autoSelectFamily'> = { autoSelectFamily: true };

/** Success is a 2xx answer within this. */
export const SEND_TIMEOUT_MS = 15_000;
/** `v1,<base64 HMAC-SHA256 of "id.timestamp.body">` per secret, space-separated. */
export function signatureHeader(secrets: readonly string[], id: string, timestamp: number, body: string): string {
  return secrets
    .map((s) => `v1,${createHmac('sha256', Buffer.from(s.replace(/^whsec_/, ''), 'base64')).update(`${id}.${timestamp}.${body}`).digest('base64')}`)
    .join(' ');
}

export interface SendResult {
  statusCode: number | null;
  error: string | null;
  retryAfterMs: number | null;
}

/**
 * One POST to a checked target, connected to its checked addresses only (each in turn until one
 * answers); never follows redirects.
 * No answer within `timeoutMs` counted from `startedAt` (performance.now() when the attempt began,
 * its name resolution included; default now) fails it.
 */
export function send(
  target: CheckedTarget,
  body: string,
  headers: Record<string, string>,
  o: { ca?: string | Buffer; timeoutMs?: number; startedAt?: number; nowMs?: number } = {},
): Promise<SendResult> {
  const timeoutMs = o.timeoutMs ?? SEND_TIMEOUT_MS;
  const left = timeoutMs - (o.startedAt === undefined ? 0 : performance.now() - o.startedAt);
  const late: SendResult = { statusCode: null, error: `no answer within ${timeoutMs / 1000} s`, retryAfterMs: null };
  // Nothing left: not even connected, so the receiver never gets a message whose answer nobody waits for.
  if (left <= 0) return Promise.resolve(late);
  // Every checked address and no other: a host whose first address does not answer (an IPv6
  // address without a route, one of several servers down) is reached at the next one, each
  // tried in turn as Node's Happy Eyeballs (RFC 8305) tries them.
  const checked = target.addresses;
  const lookup: LookupFunction = (_host, options, cb) => {
    if ((options as { all?: boolean }).all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, checked);
    else cb(null, checked[0].address, checked[0].family);
  };
  const isHttps = target.url.protocol === 'https:';
  const mod = isHttps ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = mod.request(
      target.url,
      {
        method: 'POST',
        headers: { ...headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), 'user-agent': 'storelens-webhooks/1' },
        lookup,
        ...everyAddress,
        agent: false,
        ...(isHttps ? { servername: /^[0-9.]+$|:/.test(target.host) ? undefined : target.host, secureContext: o.ca ? contextWith(o.ca) : undefined } : {}),
      },
      (res) => {
        const code = res.statusCode ?? 0;
        const ok = code >= 200 && code < 300;
        const error = ok ? null : code >= 300 && code < 400 ? `redirect (HTTP ${code}) not followed` : `HTTP ${code}`;
        done({ statusCode: code, error, retryAfterMs: retryAfter(res.headers['retry-after'], o.nowMs ?? Date.now()) });
        // The status decides: the body is never read. Reading it kept the connection (and the
        // process, past its SIGTERM) as long as a receiver kept sending one that never ends.
        res.on('error', () => undefined);
        res.destroy();
      },
    );
    const timer = setTimeout(() => {
      done(late);
      req.destroy();
    }, left);
    req.on('error', (e) => done({ statusCode: null, error: failure(e), retryAfterMs: null }));
    req.end(body);
  });
}

/** What failed: every address's own failure when each was tried (an AggregateError has no message of its own). */
function failure(e: unknown): string {
  if (e instanceof AggregateError && e.errors.length) return [...new Set(e.errors.map((x) => (x as Error).message))].join('; ');
  return (e as Error).message;
}

const contexts = new Map<string | Buffer, SecureContext>();
/** The system's roots plus `ca`, built once (building a context parses every root certificate). */
function contextWith(ca: string | Buffer): SecureContext {
  let c = contexts.get(ca);
  if (!c) contexts.set(ca, (c = createSecureContext({ ca: [...rootCertificates, ca] })));
  return c;
}

function retryAfter(v: string | undefined, nowMs: number): number | null {
  if (!v) return null;
  if (/^\d+$/.test(v.trim())) return Number(v.trim()) * 1000;
  const t = Date.parse(v);
  return Number.isNaN(t) ? null : Math.max(0, t - nowMs);
}
