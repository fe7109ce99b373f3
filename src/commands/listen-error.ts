/** Why a server could not listen, told in terms of the flags that set where (serve, start, api). */
import { CliError } from '../core/errors.js';

/** The listen errors a person can fix: a bad or busy port, an interface that is not there. */
export function listenError(e: unknown, opts: { readonly port: number; readonly host: string }): unknown {
  const code = (e as NodeJS.ErrnoException).code;
  if (code === 'ERR_SOCKET_BAD_PORT') return new CliError(`--port: "${opts.port}" is not a port number (0-65535)`, 2);
  if (code === 'EADDRINUSE') return new CliError(`--port ${opts.port}: already in use on ${opts.host}`, 1);
  if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') return new CliError(`--host ${opts.host}: cannot listen there`, 2);
  return e;
}
