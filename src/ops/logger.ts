/**
 * The log of a serving process (`api`, `serve`, `start`, `worker`): pino, the logger Fastify
 * itself uses, writing one JSON object per line to stderr (`--log-format json`, the default off
 * a terminal) or readable lines (`pretty`, pino-pretty; the default on a terminal), from
 * `--log-level` up. Each request is one line (compose/workspace-app.ts) and each piece of
 * background work another.
 *
 * The process's own stderr (the command line passes its descriptor, `Env.stderrFd`) is written
 * through a buffered destination (pino.destination, sonic-boom, asynchronous): a line is handed to
 * the kernel at once when no write is under way, and the lines logged while one is are joined
 * into the next write — so a busy process makes one write for many request lines instead of
 * one blocking write each, and an idle one is never behind. What is buffered is written out by
 * `flushLog` (a serving process's close) and, on any exit (a fatal error too), synchronously by
 * pino's exit hook: no line is lost.
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
  // minLength 1: written as soon as no write is under way (0 would do the same, but make flush() a no-op).
  return pino(options, opts.fd === undefined ? opts.stream : pino.destination({ fd: opts.fd, sync: false, minLength: 1 }));
}

/** Resolves once every line logged so far is written (at once for a stream that buffers nothing). */
export function flushLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
