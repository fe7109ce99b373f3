/**
 * A webhook receiver for tests: a real HTTPS server on loopback with a self-signed certificate
 * made here (openssl; trusted by passing `ca` to the deliverer), for the name `hooks.test` and
 * 127.0.0.1. It records every request and verifies each with the `standardwebhooks` library.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';

export interface Received {
  id: string;
  timestamp: string;
  signature: string;
  sequence: string | undefined;
  body: string;
  json: any;
  /** Secrets (of those given to verify) whose signature the library accepted. */
  at: number;
}

export interface Answer {
  status: number;
  headers?: Record<string, string>;
  /** Wait this long before answering. */
  delayMs?: number;
  /** Answer once this settles (a gate the test opens). */
  after?: Promise<unknown>;
  /** Never answer (the socket stays open until closed). */
  hang?: boolean;
  /** Close the connection without answering (a receiver that is down). */
  drop?: boolean;
}

export interface Receiver {
  url: (path?: string) => string;
  port: number;
  received: Received[];
  /** Requests in progress now, by webhook-id (for the concurrency test). */
  concurrentMax: Map<string, number>;
  respond: (r: Received) => Answer;
  close(): Promise<void>;
}

let cert: { key: string; cert: string } | undefined;

/** One self-signed certificate per test process. */
export function selfSigned(): { key: string; cert: string } {
  if (cert) return cert;
  const dir = mkdtempSync(join(tmpdir(), 'storelens-cert-'));
  try {
    execFileSync(
      'openssl',
      ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2', '-subj', '/CN=hooks.test',
        '-addext', 'subjectAltName=DNS:hooks.test,IP:127.0.0.1', '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem')],
      { stdio: 'ignore' },
    );
    cert = { key: readFileSync(join(dir, 'key.pem'), 'utf8'), cert: readFileSync(join(dir, 'cert.pem'), 'utf8') };
    return cert;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

export async function startReceiver(o: { tls?: boolean; host?: string } = {}): Promise<Receiver> {
  const received: Received[] = [];
  const active = new Map<string, number>();
  const concurrentMax = new Map<string, number>();
  const sockets = new Set<import('node:net').Socket>();
  const r: Receiver = {
    url: () => '',
    port: 0,
    received,
    concurrentMax,
    respond: () => ({ status: 200 }),
    close: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((res) => server.close(() => res()));
    },
  };
  const handler: http.RequestListener = (req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const h = (n: string) => req.headers[n] as string | undefined;
      const rec: Received = {
        id: h('webhook-id') ?? '',
        timestamp: h('webhook-timestamp') ?? '',
        signature: h('webhook-signature') ?? '',
        sequence: h('webhook-sequence'),
        body,
        json: body ? JSON.parse(body) : undefined,
        at: Date.now(),
      };
      received.push(rec);
      const n = (active.get(rec.id) ?? 0) + 1;
      active.set(rec.id, n);
      concurrentMax.set(rec.id, Math.max(concurrentMax.get(rec.id) ?? 0, n));
      const a = r.respond(rec);
      const finish = () => {
        active.set(rec.id, active.get(rec.id)! - 1);
        if (!res.writableEnded) res.writeHead(a.status, a.headers).end();
      };
      if (a.drop) {
        active.set(rec.id, active.get(rec.id)! - 1);
        req.socket.destroy();
        return;
      }
      if (a.hang) {
        res.on('close', () => active.set(rec.id, active.get(rec.id)! - 1));
        return;
      }
      if (a.after) void a.after.then(finish, finish);
      else if (a.delayMs) setTimeout(finish, a.delayMs);
      else finish();
    });
  };
  const server = o.tls === false ? http.createServer(handler) : https.createServer(selfSigned(), handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((res) => server.listen(0, '127.0.0.1', () => res()));
  const port = (server.address() as AddressInfo).port;
  r.port = port;
  const scheme = o.tls === false ? 'http' : 'https';
  r.url = (path = '/hook') => `${scheme}://${o.host ?? 'hooks.test'}:${port}${path}`;
  return r;
}

/** Verifies a request with the standardwebhooks library; returns the parsed payload or throws. */
export function verify(secret: string, rec: Received): unknown {
  return new Webhook(secret).verify(rec.body, { 'webhook-id': rec.id, 'webhook-timestamp': rec.timestamp, 'webhook-signature': rec.signature });
}
