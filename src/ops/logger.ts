/**
 * The log of a serving process (`api`, `serve`, `start`, `worker`): pino, the logger Fastify
 * itself uses, writing one JSON object per line to stderr (`--log-format json`, the default off
 * a terminal) or readable lines (`pretty`, pino-pretty; the default on a terminal), from
 * `--log-level` up. Each request is one line (compose/workspace-app.ts) and each piece of
 * background work another.
 *
 * The process's own stderr (the command line passes its descriptor, `Env.stderrFd`) is written
 * through a buffer: lines are gathered up to 4 KiB and written in one write, so a busy process
 * makes one write for a score of request lines instead of one each; what is gathered is written
 * at least every 100 ms, by `flushLog` (a serving process's close) and on any exit (a fatal error
 * too): no line is lost, none waits long.
 *
 * What is logged is chosen field by field (a route template, never a URL with its query
 * string; ids, never headers); `redact` is the second line of defence, censoring the fields
 * that would carry a credential should one ever be passed to a log call.
 */
import { writeSync } from 'node:fs';
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
    timestamp: isoTime,
    formatters: { level: (label: string) => ({ level: label }) },
  };
  if (format === 'pretty') return pino(options, pretty({ destination: opts.stream, sync: true, colorize: !!opts.stream.isTTY, ignore: 'pid', translateTime: 'SYS:HH:MM:ss.l' }));
  return pino(options, opts.fd === undefined ? opts.stream : bufferedDestination(opts.fd));
}

/**
 * pino's ISO time (`,"time":"…"`): the date and time to the second formatted once a second, the
 * milliseconds added to it. Formatting a date for each line was the dearest part of a request's
 * line, and a process answering a request every half millisecond rarely logs twice in one.
 */
let second = -1;
let secondPrefix = '';
function isoTime(): string {
  const now = Date.now();
  const s = Math.floor(now / 1000);
  if (s !== second) {
    second = s;
    secondPrefix = `,"time":"${new Date(s * 1000).toISOString().slice(0, 20)}`;
  }
  const ms = now - s * 1000;
  return `${secondPrefix}${ms < 10 ? '00' : ms < 100 ? '0' : ''}${ms}Z"`;
}

/** Characters of lines gathered before one write; and how long a line may wait for more. */
const BUFFER_CHARS = 4096;
const FLUSH_EVERY_MS = 100;
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Lines gathered up to BUFFER_CHARS and written in one write: at least every FLUSH_EVERY_MS, on
 * flushLog and on any exit. Blocking writes, as Node's own stderr to a file or a pipe makes, but
 * one for a score of lines, in order, and nothing in flight when the process ends. (pino's
 * sonic-boom measured its whole pending buffer again at every line, in bytes: about 3 µs a line.)
 */
function bufferedDestination(fd: number) {
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (size === 0) return;
    const text = lines.join('');
    lines = [];
    size = 0;
    // The string is written as it is; only a write cut short makes a buffer to write the rest from.
    let chunk: Buffer | undefined;
    let at = 0;
    for (;;) {
      try {
        if (chunk === undefined) {
          at = writeSync(fd, text);
          if (at === Buffer.byteLength(text)) return;
          chunk = Buffer.from(text);
        } else at += writeSync(fd, chunk, at);
        if (at >= chunk.length) return;
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code;
        // A full pipe opened non-blocking: wait for its reader a moment. A closed pipe or descriptor:
        // nobody reads the log any more (a timer's write must not crash the process for it).
        if (code === 'EAGAIN') Atomics.wait(PAUSE, 0, 0, 5);
        else if (code === 'EPIPE' || code === 'EBADF') return;
        else throw e;
      }
    }
  };
  setInterval(flush, FLUSH_EVERY_MS).unref();
  // Whatever ends the process — its last line, a fatal error — the gathered lines are written first.
  process.once('exit', flush);
  return {
    write(line: string): boolean {
      lines.push(line);
      size += line.length;
      if (size >= BUFFER_CHARS) flush();
      return true;
    },
    flush(cb?: (err?: Error) => void): void {
      flush();
      cb?.();
    },
    flushSync: flush,
  };
}

/** Resolves once every line logged so far is written (at once for a stream that gathers nothing). */
export function flushLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
