/**
 * `storelens worker`: the background tasks without serving — every task of the worker loop
 * `api`, `serve --api` and `start` also run (compose/background.ts): ingest of `--runs`, the
 * re-rank of each workspace, the watch checks, the monthly statements, the growth reports
 * (citing the statistics in `--out`), outreach steps and webhook delivery. Any number of
 * workers and api processes may share one PostgreSQL database; each unit of work runs once:
 * the ingest and each workspace's re-rank under a lease (db/leases.ts), a watch check, an
 * outreach step and a growth report by a conditional UPDATE of their row, a statement by the
 * ledger's unique cause, a delivery by its claim (`FOR UPDATE SKIP LOCKED`). `api
 * --requests-only` leaves all of them to the workers.
 *
 * Runs until SIGINT/SIGTERM, then stops the loop after the task it is running and the webhook
 * sends in flight (each is recorded: none is lost or sent twice), closes the database and exits 0.
 */
import type { Env } from '../core/env.js';
import type { Db } from '../compose/database.js';
import type { Config } from '../settings/config.js';
import { OUT_DIR } from '../core/defaults.js';
import { publishedStatistics } from '../reports/statistics.js';
import { type WebhookRuntime, webhookRuntime } from '../webhooks/runtime.js';
import { type AdminOptions, openAdminDb } from './admin-db.js';
import { type Background, type BackgroundOptions, startBackground } from '../compose/background.js';
import { ingestTask } from './ingest.js';
import { untilSignal } from './until-signal.js';

type WebhookConfig = Partial<Pick<Config<'worker'>, 'webhooksAllowLocal' | 'secretKey' | 'previousSecretKey'>>;

/** What every process that serves or delivers opens: the database, the webhook runtime and the one worker loop. */
export interface Serving {
  db: Db;
  webhooks: WebhookRuntime;
  background: Background;
  /** Stops the worker loop, then closes the database. */
  close(): Promise<void>;
}

export interface ServingOptions extends AdminOptions, WebhookConfig {
  /** A runs folder to ingest now and whenever publish writes a new run. */
  runs?: string;
  /** How often to look for a new run (tests; default INGEST_POLL_MS). */
  ingestIntervalMs?: number;
}

/** Opens a serving process's database and starts its worker loop; `label` prefixes its log lines. */
export async function openServing(
  opts: ServingOptions,
  env: Env,
  label: string,
  loop: Pick<BackgroundOptions, 'reports' | 'only'> & { deliverEveryMs?: number } = {},
): Promise<Serving> {
  const db = await openAdminDb(opts, env);
  try {
    const webhooks = await webhookRuntimeOf(db, opts);
    const background = startBackground(db, {
      now: env.now,
      log: (line) => env.stderr.write(`${label}: ${line}\n`),
      ingest: opts.runs !== undefined ? ingestTask(db, opts.runs, env, label, opts.ingestIntervalMs) : undefined,
      webhooks: { ...webhooks, everyMs: loop.deliverEveryMs },
      reports: loop.reports,
      only: loop.only,
    });
    let closing: Promise<void> | undefined;
    return {
      db,
      webhooks,
      background,
      close: () =>
        (closing ??= (async () => {
          await background.stop();
          await db.close();
        })()),
    };
  } catch (e) {
    await db.close();
    throw e;
  }
}

/** The webhook runtime a serving or delivering command uses, from its Config. */
export function webhookRuntimeOf(db: Db, c: WebhookConfig): Promise<WebhookRuntime> {
  return webhookRuntime(db.kysely, { allowLocal: c.webhooksAllowLocal ?? false, keys: { key: c.secretKey, previous: c.previousSecretKey } });
}

export interface RunningWorker {
  db: Db;
  background: Background;
  close(): Promise<void>;
}

/**
 * Starts the worker. With `signals` (the command line) it runs until SIGINT or SIGTERM and
 * resolves once stopped; without, it resolves once started and the caller closes.
 */
export async function runWorker(opts: Partial<Config<'worker'>>, env: Env, signals = true): Promise<RunningWorker> {
  const wait = signals ? untilSignal() : undefined;
  let serving: Serving;
  try {
    serving = await openServing(opts, env, 'storelens worker', { deliverEveryMs: 250, reports: { statistics: publishedStatistics(opts.out ?? OUT_DIR) } });
  } catch (e) {
    wait?.cancel();
    throw e;
  }
  const { db, background, close } = serving;
  env.stderr.write(
    `storelens worker: delivering webhook events from ${db.location}${opts.webhooksAllowLocal ? ' (local development: http and loopback endpoints allowed)' : ''}; background tasks: ${background.tasks.join(', ')}\n`,
  );
  const running = { db, background, close };
  if (!wait) return running;
  const signal = await wait.signal;
  env.stderr.write(`storelens worker: ${signal}: finishing the task under way and the webhook sends in flight\n`);
  await close();
  env.stderr.write(`storelens worker: stopped (${signal})\n`);
  return running;
}
