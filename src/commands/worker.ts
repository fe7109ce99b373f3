/**
 * `storelens worker`: the background tasks without serving — every task of the worker loop
 * `api`, `serve --api` and `start` also run (compose/background.ts): ingest of `--runs`, the
 * re-rank of each workspace, the watch checks, the monthly statements, the growth reports
 * (citing the statistics in `--out`), outreach steps and webhook delivery. Any number of
 * workers and api processes may share one PostgreSQL database; each unit of work runs once:
 * the ingest and each workspace's re-rank under a lease (db/leases.ts), a watch check, an
 * outreach step and a growth report by a conditional UPDATE of their row, a statement by the
 * ledger's unique cause, a delivery by its claim (`FOR UPDATE SKIP LOCKED`). `api
 * --requests-only` leaves all of them to the workers. It opens as every serving process does
 * (compose/serving.ts), and mounts no app.
 *
 * Runs until SIGINT/SIGTERM, then stops the loop after the task it is running and the webhook
 * sends in flight (each is recorded: none is lost or sent twice), closes the database and exits 0.
 */
import type { Env } from '../core/env.js';
import type { Db } from '../db/database.js';
import type { Config } from '../settings/config.js';
import { OUT_DIR } from '../core/defaults.js';
import { publishedStatistics } from '../reports/statistics.js';
import type { Background } from '../compose/background.js';
import { type Serving, openServing } from '../compose/serving.js';
import { untilSignal } from './until-signal.js';
import type { OpsListener } from '../ops/ops-server.js';
import { openOpsFirst } from './ops.js';

export interface RunningWorker {
  db: Db;
  background: Background;
  /** The operations listener (`--ops-port`): the worker's probes and metrics. */
  ops?: OpsListener;
  close(): Promise<void>;
}

/**
 * Starts the worker. With `signals` (the command line) it runs until SIGINT or SIGTERM and
 * resolves once stopped; without, it resolves once started and the caller closes.
 */
export async function runWorker(opts: Partial<Config<'worker'>>, env: Env, signals = true): Promise<RunningWorker> {
  const wait = signals ? untilSignal() : undefined;
  let serving: Serving;
  let ops: OpsListener | undefined;
  try {
    // The probes first: alive, and not ready (`starting`), while the database is opened and migrated.
    const early = await openOpsFirst(opts, 'storelens worker');
    ops = early.ops;
    // A signal while it starts: not ready (`draining`) from that moment; it stops once started.
    void wait?.signal.then(() => early.health.drain());
    try {
      serving = await openServing({ ...opts, health: early.health, metrics: early.metrics }, env, 'storelens worker', { deliverEveryMs: 250, reports: { statistics: publishedStatistics(opts.out ?? OUT_DIR) } });
    } catch (e) {
      await ops?.close();
      throw e;
    }
    early.started((line) => serving.logger.info(line));
  } catch (e) {
    wait?.cancel();
    throw e;
  }
  const { db, background } = serving;
  const note = (line: string) => serving.logger.info(line);
  // The probes answer until the end: `draining` (503) while the task under way finishes.
  let closing: Promise<void> | undefined;
  const close = () =>
    (closing ??= (async () => {
      await serving.close();
      await ops?.close();
    })());
  note(`storelens worker: delivering webhook events from ${db.location}${opts.webhooksAllowLocal ? ' (local development: http and loopback endpoints allowed)' : ''}; background tasks: ${background.tasks.join(', ')}`);
  const running = { db, background, ops, close };
  if (!wait) return running;
  const signal = await wait.signal;
  note(`storelens worker: ${signal}: finishing the task under way and the webhook sends in flight`);
  await close();
  note(`storelens worker: stopped (${signal})`);
  return running;
}
