/** Why a server could not listen, told in terms of the flags that set where (serve, start, api). */
import { createServer } from 'node:net';
import { CliError } from '../core/errors.js';

/** The listen errors a person can fix: a bad or busy port, an interface that is not there. */
export function listenError(e: unknown, opts: { readonly port: number; readonly host: string }): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ERR_SOCKET_BAD_PORT') return new CliError(`--port: "${opts.port}" is not a port number (0-65535)`, 2);
  if (code === 'EADDRINUSE') return new CliError(`--port ${opts.port}: already in use on ${opts.host}`, 1);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new CliError(`--host ${opts.host}: cannot listen there`, 2);
  return e;
}

/**
 * Listens on the port for a moment and lets it go, so a server whose port is taken says so at
 * once, before it opens the database, ingests or publishes (minutes on a large panel). Rejects
 * with the listen error itself, for the caller to tell as it tells a late one; port 0 (any free
 * port) cannot be taken. The server's own listen later still reports a port taken in between.
 */
export function probeListen(opts: { readonly port: number; readonly host: string }): Promise<void> {
  if (opts.port === 0) return Promise.resolve();
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once('error', fail);
    probe.listen({ port: opts.port, host: opts.host, exclusive: true }, () => probe.close(() => done()));
  });
}
