/**
 * The log of a serving process (`api`, `serve`, `start`, `worker`): pino, the logger Fastify
 * itself uses, writing one JSON object per line to stderr (`--log-format json`, the default off
 * a terminal) or readable lines (`pretty`, pino-pretty; the default on a terminal), from
 * `--log-level` up. Each request is one line (compose/workspace-app.ts) and each piece of
 * background work another.
 *
 * The process's own stderr (the command line passes its descriptor, `Env.stderrFd`) is written
 * through a buffered destination (pino.destination, sonic-boom): lines are gathered up to 4 KiB
 * and written in one write, so a busy process makes one write for a score of request lines
 * instead of a blocking write each, off the event loop; what is gathered is written at least
 * every 100 ms, by `flushLog` (a serving process's close) and, synchronously, by pino's exit
 * hook on any exit (a fatal error too): no line is lost, none waits long.
 *
 * What is logged is chosen field by field (a route template, never a URL with its query
 * string; ids, never headers); `redact` is the second line of defence, censoring the fields
 * that would carry a credential should one ever be passed to a log call.
 */
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

/** Fields that would carry a credential, at the top level and under the objects a log call could be handed (`req.headers.authorization`, `body.password` …). */
const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'password', 'secret', 'token', 'access_token', 'refresh_token', 'code', 'code_verifier', 'key', 'api_key', 'signing_secret', 'client_secret'];
const PARENTS = ['headers', 'body', 'query', 'params', 'data', 'payload', 'err', 'error', 'req', 'res', 'request', 'response', 'req.headers', 'res.headers', 'request.headers', 'response.headers', 'err.config.headers'];
/**
 * Named paths only: pino's redaction compiles them to direct lookups, which cost nothing
 * measurable per line, while a wildcard (`*.token`) walks every member of every line and made a
 * request's log line about 15 times dearer (≈ 100 µs instead of ≈ 8 µs).
 */
export const REDACT_PATHS = [...SECRET_FIELDS.map((f) => `["${f}"]`), ...PARENTS.flatMap((p) => SECRET_FIELDS.map((f) => `${p}["${f}"]`))];

export interface LoggerOptions {
  level?: LogLevel;
  /** Default: pretty when `stream` is a terminal, else json. */
  format?: LogFormat;
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  /** The file descriptor behind `stream` when it is the process's own (2): JSON lines go to it through the buffered destination. */
  fd?: number;
}

export function createLogger(opts: LoggerOptions): Logger {
  const format = opts.format ?? (opts.stream.isTTY ? 'pretty' : 'json');
  const options = {
    level: opts.level ?? 'info',
    redact: { paths: REDACT_PATHS, censor: '[redacted]' },
    base: { pid: process.pid },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (format === 'pretty') return pino(options, pretty({ destination: opts.stream, sync: true, colorize: !!opts.stream.isTTY, ignore: 'pid', translateTime: 'SYS:HH:MM:ss.l' }));
  return pino(options, opts.fd === undefined ? opts.stream : bufferedDestination(opts.fd));
}

/** Bytes of lines gathered before one write; and how long a line may wait for more. */
const BUFFER_BYTES = 4096;
const FLUSH_EVERY_MS = 100;

/**
 * Lines are gathered up to BUFFER_BYTES and written together, off the event loop (a write
 * never holds requests up while the disk or a pipe is slow); what is gathered is written every
 * FLUSH_EVERY_MS and on flushLog, and pino writes the rest synchronously on any exit.
 */
function bufferedDestination(fd: number) {
  const dest = pino.destination({ fd, sync: false, minLength: BUFFER_BYTES });
  // The timer writes only when a line came since the last flush (an idle process makes no write).
  let gathered = false;
  const write = dest.write.bind(dest);
  const flush = dest.flush.bind(dest);
  dest.write = (data: string) => ((gathered = true), write(data));
  dest.flush = (cb?: (err?: Error) => unknown) => ((gathered = false), flush(cb));
  setInterval(() => gathered && dest.flush(), FLUSH_EVERY_MS).unref();
  return dest;
}

/** Resolves once every line logged so far is written (at once for a stream that gathers nothing). */
export function flushLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
