/**
 * Graceful close of a listening HTTP server (`api`, `serve`, `start`): the app's own close
 * stops accepting and closes idle keep-alive connections; the responses in flight are sent with
 * `Connection: close`, so their connections end once answered instead of idling until the
 * grace runs out; after `graceMs` whatever is left is cut.
 */
import type { Server, ServerResponse } from 'node:http';

/** Returns the close function of `server`, whose app `closeApp` closes; safe to call more than once. */
export function gracefulClose(server: Server, closeApp: () => Promise<void>, graceMs: number): () => Promise<void> {
  const inFlight = new Set<ServerResponse>();
  let closing: Promise<void> | null = null;
  const lastOnItsConnection = (res: ServerResponse) => {
    if (!res.headersSent) res.setHeader('connection', 'close');
  };
  server.on('request', (_req, res: ServerResponse) => {
    if (closing) lastOnItsConnection(res);
    inFlight.add(res);
    res.once('close', () => inFlight.delete(res));
  });
  return () =>
    (closing ??= (async () => {
      for (const res of inFlight) lastOnItsConnection(res);
      const cut = setTimeout(() => server.closeAllConnections(), graceMs);
      try {
        await closeApp();
      } finally {
        clearTimeout(cut);
      }
    })());
}
