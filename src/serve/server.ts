/**
 * Listening and shutting down (app.ts builds the app). Shutdown is graceful: no new
 * connections, idle keep-alive connections closed at once, requests in flight finished; after
 * `graceMs` whatever is left is cut.
 */
import type { AddressInfo } from 'node:net';
import { SHUTDOWN_GRACE_MS } from '../core/defaults.js';
import { gracefulClose } from '../http/graceful-close.js';
import { buildServeApp, type ServeApp, type ServeAppOptions } from './app.js';

export interface StartServerOptions extends ServeAppOptions {
  port: number;
  host: string;
  /** How long requests in flight may take to finish on shutdown (ms). */
  graceMs?: number;
}

export interface RunningServer {
  readonly serve: ServeApp;
  /** e.g. `http://127.0.0.1:8080` (no trailing slash). */
  readonly url: string;
  readonly address: AddressInfo;
  /** Graceful close; safe to call more than once. */
  close(): Promise<void>;
}

export async function startServer(opts: StartServerOptions): Promise<RunningServer> {
  const serve = await buildServeApp(opts);
  const { app } = serve;
  try {
    await app.listen({ port: opts.port, host: opts.host });
  } catch (e) {
    await app.close();
    throw e;
  }
  const address = app.server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    serve,
    address,
    url: `http://${host}:${address.port}`,
    close: gracefulClose(app.server, () => app.close(), opts.graceMs ?? SHUTDOWN_GRACE_MS),
  };
}

/**
 * Closes the server on the first of `signals` (SIGTERM and SIGINT by default) and resolves
 * with that signal once it is closed. The handlers are removed afterwards.
 */
export function closeOnSignals(
  server: RunningServer,
  opts: { signals?: NodeJS.Signals[]; onSignal?: (signal: NodeJS.Signals) => void } = {},
): Promise<NodeJS.Signals> {
  const signals = opts.signals ?? ['SIGTERM', 'SIGINT'];
  return new Promise((resolve, reject) => {
    const handlers = signals.map((signal) => [signal, () => onSignal(signal)] as const);
    const onSignal = (signal: NodeJS.Signals) => {
      for (const [s, h] of handlers) process.off(s, h);
      opts.onSignal?.(signal);
      server.close().then(() => resolve(signal), reject);
    };
    for (const [s, h] of handlers) process.on(s, h);
  });
}
