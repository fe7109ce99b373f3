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
import { format as formatText } from 'node:util';
import { pino, type Logger } from 'pino';
import pretty from 'pino-pretty';

export type { Logger } from 'pino';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];
export type LogFormat = 'json' | 'pretty';

/** Fields that would carry a credential, at the top level and under the objects a log call could be handed (`req.headers.authorization`, `body.password` …). */
const SECRET_FIELDS = ['authorization', 'cookie', 'set-cookie', 'password', 'secret', 'token', 'access_token', 'refresh_token', 'code', 'code_verifier', 'key', 'api_key', 'signing_secret', 'client_secret'];
/** An error's `code` is the driver's errno or SQLSTATE (`ECONNREFUSED`, `40P01`), which an operator needs: never an OAuth code. */
const ERRORS = new Set(['err', 'error']);
const PARENTS = ['headers', 'body', 'query', 'params', 'data', 'payload', 'err', 'error', 'req', 'res', 'request', 'response', 'req.headers', 'res.headers', 'request.headers', 'response.headers', 'err.config.headers'];
/**
 * Named paths only: pino's redaction compiles them to direct lookups, which cost nothing
 * measurable per line, while a wildcard (`*.token`) walks every member of every line and made a
 * request's log line about 15 times dearer (≈ 100 µs instead of ≈ 8 µs).
 */
export const REDACT_PATHS = [...SECRET_FIELDS.map((f) => `["${f}"]`), ...PARENTS.flatMap((p) => SECRET_FIELDS.filter((f) => !(f === 'code' && ERRORS.has(p))).map((f) => `${p}["${f}"]`))];

export interface LoggerOptions {
  level?: LogLevel;
  /** Default: pretty when `stream` is a terminal, else json. */
  format?: LogFormat;
  stream: NodeJS.WritableStream & { isTTY?: boolean };
  /** The file descriptor behind `stream` when it is the process's own (2): JSON lines go to it through the buffered destination. */
  fd?: number;
  /**
   * The log is the process's own (a serving process): in JSON, what a library writes with
   * console.warn or console.error (oidc-provider's notice of an unsupported runtime on Node 20)
   * becomes a line of the log, at warn or error, instead of plain text among the JSON lines.
   */
  ownsConsole?: boolean;
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
  const logger = pino(options, opts.fd === undefined ? opts.stream : bufferedDestination(opts.fd));
  if (opts.ownsConsole) {
    console.warn = (...args: unknown[]) => logger.warn(formatText(...args));
    console.error = (...args: unknown[]) => logger.error(formatText(...args));
  }
  return logger;
}

/** What one answered request's log line holds (compose/request-log.ts, serve/observe.ts): ids and figures, never a header, body or query. */
export interface RequestLine {
  reqId: string;
  operation: string;
  method: string;
  status: number;
  /** The REST status an MCP tool call would have had. */
  tool_status?: number;
  /** The client went away before the response was complete (answeredStatus). */
  aborted?: true;
  duration_ms: number;
  workspace?: string;
  key_id?: string;
}

/** nginx's "client closed request": the status told of a request whose client went away before any answer was sent. */
export const CLIENT_CLOSED_REQUEST = 499;

/**
 * The status a request is counted and logged with: the one answered, or, when the client went
 * away (`aborted`) before the status line was sent, CLIENT_CLOSED_REQUEST (as nginx logs it). A
 * response cut short after its status line keeps its status, its line marked `aborted`.
 */
export function answeredStatus(res: { headersSent: boolean; statusCode: number }, aborted: boolean): number {
  return aborted && !res.headersSent ? CLIENT_CLOSED_REQUEST : res.statusCode;
}

/** A request line's level: `error` from status 500 up (the server failed), else `info`. */
const serverFailed = (status: number): 'error' | 'info' => (status >= 500 ? 'error' : 'info');

/**
 * Writes each request's line to `logger` (`levelOf` its status: by default `error` from status 500 up, else `info`), the same
 * line pino would write. A serving process logs a line per request, so on the JSON lines of
 * createLogger the line is put together here from its known fields, every string value
 * JSON-escaped: pino's general path (bindings, redaction, serialisation of any object) cost
 * several microseconds a request, a tenth of what answering a page of accounts costs. Any
 * other logger (pretty lines, a test's stream) takes the line through pino.
 */
export function requestLineWriter(logger: Logger, levelOf: (status: number) => 'error' | 'info' = serverFailed): (line: RequestLine) => void {
  const destination = (logger as unknown as Record<symbol, unknown>)[pino.symbols.streamSym];
  if (!(destination instanceof GatheredLines)) {
    return (line) => logger[levelOf(line.status)](line, 'request');
  }
  // The fields pino writes after the level and time, as it has serialised them: its base (pid) and the child's bindings (`process`).
  const fixed = String((logger as unknown as Record<symbol, unknown>)[pino.symbols.chindingsSym] ?? '');
  return (line) => {
    const level = levelOf(line.status);
    if (!logger.isLevelEnabled(level)) return;
    let text = `{"level":"${level}"${isoTime()}${fixed},"reqId":${JSON.stringify(line.reqId)},"operation":${JSON.stringify(line.operation)},"method":${JSON.stringify(line.method)},"status":${line.status}`;
    if (line.tool_status !== undefined) text += `,"tool_status":${line.tool_status}`;
    if (line.aborted) text += ',"aborted":true';
    text += `,"duration_ms":${line.duration_ms}`;
    if (line.workspace !== undefined) text += `,"workspace":${JSON.stringify(line.workspace)}`;
    if (line.key_id !== undefined) text += `,"key_id":${JSON.stringify(line.key_id)}`;
    destination.write(`${text},"msg":"request"}\n`);
  };
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
function bufferedDestination(fd: number): GatheredLines {
  const lines = new GatheredLines(fd);
  setInterval(() => lines.flushSync(), FLUSH_EVERY_MS).unref();
  // Whatever ends the process — its last line, a fatal error — the gathered lines are written first.
  process.once('exit', () => lines.flushSync());
  return lines;
}

class GatheredLines {
  private lines: string[] = [];
  private size = 0;

  constructor(private readonly fd: number) {}

  write(line: string): boolean {
    this.lines.push(line);
    this.size += line.length;
    if (this.size >= BUFFER_CHARS) this.flushSync();
    return true;
  }

  flush(cb?: (err?: Error) => void): void {
    this.flushSync();
    cb?.();
  }

  flushSync(): void {
    if (this.size === 0) return;
    const text = this.lines.join('');
    this.lines = [];
    this.size = 0;
    // The string is written as it is; only a write cut short makes a buffer to write the rest from.
    let chunk: Buffer | undefined;
    let at = 0;
    for (;;) {
      try {
        if (chunk === undefined) {
          at = writeSync(this.fd, text);
          if (at === Buffer.byteLength(text)) return;
          chunk = Buffer.from(text);
        } else at += writeSync(this.fd, chunk, at);
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
  }
}

/** Resolves once every line logged so far is written (at once for a stream that gathers nothing). */
export function flushLog(logger: Logger): Promise<void> {
  return new Promise((resolve) => logger.flush(() => resolve()));
}
