/**
 * Graceful close of a listening HTTP server (`api`, `serve`, `start`): the app's own close
 * stops accepting and closes idle keep-alive connections; the responses in flight are sent with
 * `Connection: close`, so their connections end once answered instead of idling until the
 * grace runs out; after `graceMs` whatever is left is cut.
 *
 * The connections are followed, not the requests: a listener on every request (and one on every
 * response's close) cost a few percent of a 304 (the serve benchmark). At close, each open
 * connection's response under way is told to close it, and every request after that is too.
 */
import type { Server, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { inFlightOn } from './wire.js';

/** Returns the close function of `server`, whose app `closeApp` closes; safe to call more than once. */
export function gracefulClose(server: Server, closeApp: () => Promise<void>, graceMs: number): () => Promise<void> {
  const connections = new Set<Socket>();
  server.on('connection', (socket: Socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
  });
  let closing: Promise<void> | null = null;
  const lastOnItsConnection = (res: ServerResponse | null) => {
    if (res && !res.headersSent) res.setHeader('connection', 'close');
  };
  return () =>
    (closing ??= (async () => {
      server.prependListener('request', (_req, res: ServerResponse) => lastOnItsConnection(res));
      for (const socket of connections) lastOnItsConnection(inFlightOn(socket));
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      try {
        await closeApp();
      } finally {
        clearTimeout(cut);
      }
    })());
}
