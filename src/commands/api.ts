/**
 * storelens api: the workspace app (compose/workspace-app.ts) on its own port, with the
 * background tasks on its worker loop (compose/background.ts) unless `--requests-only` leaves
 * them to `storelens worker` processes on the same database; both open through compose/serving.ts.
 *
 * On SIGTERM or SIGINT it stops in order: no new connections, the requests in flight finished
 * (at most SHUTDOWN_GRACE_MS, then the rest are cut), the worker loop stopped after the task it
 * is running and the webhook sends in flight, the database closed; then it exits 0.
 */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { listenApi, type ListeningApi } from '../compose/api-server.js';
import type { Config } from '../settings/config.js';
import { OUT_DIR, SHUTDOWN_GRACE_MS } from '../core/defaults.js';
import { publishedStatistics } from '../reports/statistics.js';
import { listenError, probeListen } from './listen-error.js';
import { untilSignal } from './until-signal.js';
import { openServing } from '../compose/serving.js';
import type { OpsListener } from '../ops/ops-server.js';
import { openOpsFirst } from './ops.js';

/** The Config of `api`; a programmatic caller may leave out DATABASE_URL. */
export type ApiCommandOptions = Pick<Config<'api'>, 'port' | 'host' | 'db'> &
  Partial<Config<'api'>> & {
    /** How often to look for a new run in `runs` (tests; default INGEST_POLL_MS). */
    ingestIntervalMs?: number;
    /** The worker loop's tasks, and how often the outbox and the growth reports are looked at besides when a write triggers them (tests; default: every task, 1 s, 2 s). */
    loop?: { only?: readonly string[]; deliverEveryMs?: number; reportsEveryMs?: number };
  };

/**
 * Opens the database and listens. With `signals` (the command line) it runs until SIGINT or
 * SIGTERM and resolves once stopped; without, it resolves once listening and the caller closes.
 * With `runs`, ingests that runs folder in the background now and whenever publish writes a new run.
 */
export async function runApi(opts: ApiCommandOptions, env: Env, signals = true): Promise<ListeningApi & { ops?: OpsListener }> {
  const wait = signals ? untilSignal() : undefined;
  let api: ListeningApi;
  let ops: OpsListener | undefined;
  let closeServing: () => Promise<void>;
  let drain: () => void;
  let note: (line: string) => void = (line) => env.stderr.write(`${line}\n`);
  /** A listen error as the flags name it, early (the probe) or late (the real listen), any other as what it was. */
  const cannotListen = (e: unknown) => {
    const known = listenError(e, opts);
    return known !== e ? known : new CliError(`cannot listen on ${opts.host}:${opts.port}: ${(e as Error).message}`, 1);
  };
  try {
    await probeListen(opts).catch((e: unknown) => {
      throw cannotListen(e);
    });
    // The probes first: alive, and not ready (`starting`), while the database is migrated and ranked.
    const early = await openOpsFirst(opts, 'storelens api');
    ops = early.ops;
    // A signal while it starts: not ready (`draining`) from that moment; it stops once started.
    void wait?.signal.then(() => early.health.drain());
    let serving;
    try {
      serving = await openServing({ ...opts, health: early.health, metrics: early.metrics }, env, 'storelens api', {
        reports: { statistics: publishedStatistics(opts.out ?? OUT_DIR), everyMs: opts.loop?.reportsEveryMs },
        only: opts.requestsOnly ? [] : opts.loop?.only,
        deliverEveryMs: opts.loop?.deliverEveryMs,
      });
    } catch (e) {
      await ops?.close();
      throw e;
    }
    closeServing = serving.close;
    note = (line) => serving.logger.info(line);
    const { db, background, health } = serving;
    drain = () => health.drain();
    // The first ranking before the first request.
    await background.worker.idle();
    try {
      api = await listenApi({ ...serving.app, health, loggerInstance: serving.logger, port: opts.port, host: opts.host, trustedProxies: opts.trustedProxy });
    } catch (e) {
      await serving.close();
      await ops?.close();
      throw cannotListen(e);
    }
    early.started(note);
    const tasks = background.tasks.length ? `background tasks: ${background.tasks.join(', ')}` : 'requests only: the background tasks are left to `storelens worker`';
    note(`storelens api: ${api.url} (${db.location}; ${tasks}); reference at ${api.url}/docs`);
  } catch (e) {
    wait?.cancel();
    throw e;
  }
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      // Not ready from the first moment: the load balancer stops sending while the rest drains.
      drain();
      await api.close();
      await closeServing();
      await ops?.close();
    })());
  const running = { ...api, ops, close };
  if (!wait) return running;
  const signal = await wait.signal;
  note(`storelens api: ${signal}: finishing the requests in flight (at most ${SHUTDOWN_GRACE_MS / 1000} s), the background task under way and the webhook sends in flight`);
  await close();
  note(`storelens api: stopped (${signal})`);
  return running;
}
