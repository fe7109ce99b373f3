/**
 * Liveness and readiness, as load balancers and Kubernetes probe them (GitLab's paths):
 *
 *   GET /-/liveness   200 while the process answers at all;
 *   GET /-/readiness  200 when every check passes (the database answers with the migrations
 *                     this build expects, `serve` has a live release, the process is not
 *                     stopping), else 503 problem+json (`not-ready`) naming each failed check.
 *
 * The paths begin with `/-/`, which no published artifact (core/public-paths.ts) and nothing
 * under /api/v1 can. They are answered on the HTTP edge before the application (http/wire.ts
 * `answerFirst`), so neither a slow route nor the framework's own 503 while closing stands in
 * front of them, and on the operations listener (ops-server.ts), which stays open until the
 * process has stopped: that is where a probe sees `draining` during a shutdown.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../http/problems.js';
import { answerRequestId } from '../http/wire.js';
import { READINESS_TIMEOUT_MS } from '../core/defaults.js';
import { CLIENT_CLOSED_REQUEST } from './logger.js';

export const LIVENESS_PATH = '/-/liveness';
export const READINESS_PATH = '/-/readiness';

/**
 * One readiness check: resolves undefined when it passes, else what failed (no secret: it is
 * answered to the prober). It is given the milliseconds it has (`--readiness-timeout`): after
 * them it counts as failed, and work it started on a server should end by then too.
 */
export interface ReadinessCheck {
  readonly name: string;
  check(withinMs: number): Promise<string | undefined> | string | undefined;
}

export interface CheckOutcome {
  name: string;
  status: 'pass' | 'fail';
  detail?: string;
}

/** How long one check may take before it counts as failed, unless `--readiness-timeout` says otherwise. */
export const CHECK_TIMEOUT_MS = READINESS_TIMEOUT_MS;

/** Which probe a request asked. */
export type Probe = 'liveness' | 'readiness';

/** Told of every probe answered, on either listener (the process's metrics: `storelens_probe_requests_total`). */
export type ProbeCounter = (probe: Probe, status: number) => void;

export class Health {
  private readonly checks: ReadinessCheck[] = [];
  private drainingSince: number | undefined;
  private startingAs: string | undefined;
  private counted: ProbeCounter | undefined;

  /** `timeoutMs`: how long each check may take (CHECK_TIMEOUT_MS unless `--readiness-timeout` is given). */
  constructor(
    checks: readonly ReadinessCheck[] = [],
    readonly timeoutMs: number = CHECK_TIMEOUT_MS,
  ) {
    this.checks.push(...checks);
  }

  add(check: ReadinessCheck): this {
    this.checks.push(check);
    return this;
  }

  /** From now on every probe answered is told to `count`. */
  countProbes(count: ProbeCounter): this {
    this.counted = count;
    return this;
  }

  /** A probe was answered with `status` (answerProbe). */
  answered(probe: Probe, status: number): void {
    this.counted?.(probe, status);
  }

  /** Until started(), readiness answers 503 `starting`, saying what the process is doing (its other checks may not be added yet). */
  starting(what: string): this {
    this.startingAs = what;
    return this;
  }

  started(): void {
    this.startingAs = undefined;
  }

  /** From now on readiness answers 503 (`draining`): called at the first moment of a SIGTERM. */
  drain(): void {
    this.drainingSince ??= Date.now();
  }

  get draining(): boolean {
    return this.drainingSince !== undefined;
  }

  /** Runs every check at once; the process is ready when all pass. */
  async readiness(): Promise<{ ready: boolean; checks: CheckOutcome[] }> {
    const draining: CheckOutcome = this.draining ? { name: 'draining', status: 'fail', detail: 'the process is stopping (SIGTERM)' } : { name: 'draining', status: 'pass' };
    const starting: CheckOutcome[] = this.startingAs === undefined ? [] : [{ name: 'starting', status: 'fail', detail: this.startingAs }];
    const checks = [...starting, ...(await Promise.all(this.checks.map((c) => run(c, this.timeoutMs)))), draining];
    return { ready: checks.every((c) => c.status === 'pass'), checks };
  }
}

/** A process's readiness, each check given `readinessTimeout` seconds (`--readiness-timeout`; CHECK_TIMEOUT_MS without it). */
export function healthOf(opts: { readonly readinessTimeout?: number }): Health {
  return new Health([], opts.readinessTimeout === undefined ? undefined : opts.readinessTimeout * 1000);
}

async function run(c: ReadinessCheck, timeoutMs: number): Promise<CheckOutcome> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${timeoutMs / 1000} s`), timeoutMs);
  });
  try {
    const failed = await Promise.race([Promise.resolve().then(() => c.check(timeoutMs)), timeout]);
    return failed === undefined ? { name: c.name, status: 'pass' } : { name: c.name, status: 'fail', detail: failed };
  } catch (e) {
    return { name: c.name, status: 'fail', detail: (e as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Answers the two probe paths (GET or HEAD; the query string is ignored) and returns true, or
 * returns false for any other request. For http/wire.ts `answerFirst` and the operations listener.
 */
export function answerProbe(health: Health, req: IncomingMessage, res: ServerResponse): boolean {
  const url = req.url ?? '';
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  if (path !== LIVENESS_PATH && path !== READINESS_PATH) return false;
  const probe: Probe = path === LIVENESS_PATH ? 'liveness' : 'readiness';
  const write = (status: number, type: string, body: unknown, headers: Record<string, string> = {}) => {
    health.answered(probe, res.destroyed ? CLIENT_CLOSED_REQUEST : status);
    send(res, req, status, type, body, headers);
  };
  if (req.method !== 'GET' && req.method !== 'HEAD') {
    write(405, PROBLEM_CONTENT_TYPE, problemBody('method-not-allowed', `${req.method} is not allowed here; allowed: GET, HEAD.`), { allow: 'GET, HEAD' });
    return true;
  }
  if (probe === 'liveness') {
    write(200, 'application/json', { status: 'alive' });
    return true;
  }
  health.readiness().then(
    ({ ready, checks }) => {
      if (ready) return write(200, 'application/json', { status: 'ready', checks });
      const failed = checks.filter((c) => c.status === 'fail');
      const detail = failed.map((c) => `${c.name}: ${c.detail}`).join('; ');
      write(503, PROBLEM_CONTENT_TYPE, problemBody('not-ready', detail, { failed: failed.map((c) => c.name), checks }), { 'retry-after': '5' });
    },
    () => write(503, PROBLEM_CONTENT_TYPE, problemBody('not-ready', 'the checks could not run')),
  );
  return true;
}

function send(res: ServerResponse, req: IncomingMessage, status: number, type: string, body: unknown, headers: Record<string, string> = {}): void {
  if (res.writableEnded || res.destroyed) return;
  const text = JSON.stringify(body);
  const id = answerRequestId(res);
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store', 'x-content-type-options': 'nosniff', ...(id === undefined ? {} : { 'x-request-id': id }), ...headers });
  res.end(req.method === 'HEAD' ? undefined : text);
}
