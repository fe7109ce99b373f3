/**
 * The one opener of a process that serves or delivers (`api`, `serve --api`, `start`, `worker`):
 * the workspace database, the webhook runtime, the background work on the one worker loop
 * (background.ts), and the options the workspace app (workspace-app.ts) is mounted with over
 * them: its writes tell this loop, its webhook routes use this runtime, its lines go to this log.
 */
import type { Env } from '../core/env.js';
import type { Config } from '../settings/config.js';
import { INGEST_POLL_MS, ingestCheck } from '../ingest/watcher.js';
import type { OutboundRuntime } from '../outbound/runtime.js';
import { webhookRuntime } from '../webhooks/runtime.js';
import { type Background, type BackgroundOptions, startBackground } from './background.js';
import type { Db } from './database.js';
import { type DatabaseChoice, openWorkspaceDb } from './open-database.js';
import type { WorkspaceAppOptions } from './workspace-app.js';
import { type Health, healthOf } from '../ops/health.js';
import { databaseCheck } from './health-checks.js';
import { Metrics } from '../ops/metrics.js';
import { createLogger, flushLog, type LogFormat, type Logger, type LogLevel } from '../ops/logger.js';
import { backlogGauges } from './backlog-metrics.js';
import { type KeyCache, keyCache } from '../api/key-cache.js';

type WebhookConfig = Partial<Pick<Config<'worker'>, 'webhooksAllowLocal' | 'secretKey' | 'previousSecretKey'>>;

export interface Serving {
  db: Db;
  outbound: OutboundRuntime;
  background: Background;
  /** Readiness of this process: its database; draining once close() began. */
  health: Health;
  /** Its Prometheus metrics, when it has an operations listener (`opsPort`). */
  metrics?: Metrics;
  /** Its log (JSON lines on stderr unless pretty): the app's requests, the background work, the command's own lines. */
  logger: Logger;
  /** The workspace app over this process's database, worker loop and webhook runtime (registerWorkspaceApp, buildApiApp). */
  app: WorkspaceAppOptions;
  /** Turns readiness to 503 (draining), stops the worker loop, closes the database, then writes out the log. */
  close(): Promise<void>;
}

export interface ServingOptions extends DatabaseChoice, WebhookConfig {
  /** A runs folder to ingest now and whenever publish writes a new run. */
  runs?: string;
  /** How often to look for a new run (tests; default INGEST_POLL_MS). */
  ingestIntervalMs?: number;
  /** Check every JSON success body of the app against its route's response schema. */
  validateResponses?: boolean;
  /** An operations listener is asked for (`--ops-port`): keep metrics. */
  opsPort?: number;
  /** How long readiness waits for each check, in seconds (`--readiness-timeout`), when `health` is not given. */
  readinessTimeout?: number;
  /** The log: least severe level written, and json or pretty (ops/logger.ts). */
  logLevel?: LogLevel;
  logFormat?: LogFormat;
  /** The origin members and assistants reach the app at (`--public-url`); default: each request's own. */
  publicUrl?: string;
  /**
   * The process's readiness and metrics when its operations listener opened before the database
   * (commands/ops.ts openOpsFirst): the database check and the backlog gauges join them.
   */
  health?: Health;
  metrics?: Metrics;
}

/** Opens a serving process's database and starts its worker loop; `label` prefixes its log lines. */
export async function openServing(
  opts: ServingOptions,
  env: Env,
  label: string,
  loop: Pick<BackgroundOptions, 'reports' | 'only'> & { deliverEveryMs?: number } = {},
): Promise<Serving> {
  const logger = createLogger({ level: opts.logLevel, format: opts.logFormat, stream: env.stderr, fd: env.stderrFd, ownsConsole: env.stderrFd !== undefined }).child({ process: label });
  const log = (line: string) => logger.info(`${label}: ${line}`);
  // Failures at warn: `--log-level warn` leaves the request lines out, never these.
  const warn = (line: string) => logger.warn(`${label}: ${line}`);
  // A serving process may be the first of an installation: it creates the SQLite file.
  const db = await openWorkspaceDb(opts, env, { create: true, note: (line) => logger.info(line) });
  let keys: KeyCache | undefined;
  try {
    // A call's key is remembered between calls (api/key-cache.ts): on PostgreSQL no round trip to
    // find it, on SQLite one read of a number instead of the lookup's join.
    keys = keyCache(db);
    const outbound = await outboundRuntimeOf(db, opts);
    const metrics = opts.metrics ?? (opts.opsPort !== undefined ? new Metrics() : undefined);
    metrics?.gauges(backlogGauges(db, env.now));
    const background = startBackground(db, {
      metrics,
      now: env.now,
      log,
      warn,
      ingest: opts.runs !== undefined ? ingestTask(db, opts.runs, env, log, warn, opts.ingestIntervalMs) : undefined,
      outbound,
      deliverEveryMs: loop.deliverEveryMs,
      reports: loop.reports,
      only: loop.only,
    });
    let closing: Promise<void> | undefined;
    const health = (opts.health ?? healthOf(opts)).add(databaseCheck(db, undefined, warn));
    return {
      db,
      outbound,
      background,
      health,
      metrics,
      logger,
      app: { db, now: env.now, onWrite: background.onWrite, findKey: keys?.find, outbound, validateResponses: opts.validateResponses, log, metrics, requestLog: true, mcp: { publicUrl: opts.publicUrl } },
      close: () =>
        (closing ??= (async () => {
          health.drain();
          await background.stop();
          await keys?.close();
          await db.close();
          await flushLog(logger);
        })()),
    };
  } catch (e) {
    await keys?.close();
    await db.close();
    throw e;
  }
}

/** The outbound runtime a serving or delivering process uses, from its Config (the endpoints' secrets resealed under its key). */
function outboundRuntimeOf(db: Db, c: WebhookConfig): Promise<OutboundRuntime> {
  return webhookRuntime(db.kysely, { allowLocal: c.webhooksAllowLocal ?? false, keys: { key: c.secretKey, previous: c.previousSecretKey } });
}

/** The worker loop's ingest task over `runs`; a failure is logged (warn) and the process goes on. */
function ingestTask(db: Db, runs: string, env: Env, log: (line: string) => void, warn: (line: string) => void, intervalMs = INGEST_POLL_MS): NonNullable<BackgroundOptions['ingest']> {
  return {
    everyMs: intervalMs,
    check: (onLoaded) =>
      ingestCheck(db, runs, {
        intervalMs,
        now: env.now,
        onLoaded: async (s) => {
          log(`ingested ${s.months.join(', ')} from ${runs} (${s.stores} store rows, ${s.signals} signals)`);
          onLoaded();
        },
        onError: (e) => warn(`ingest: ${e.message} (still serving what was loaded before)`),
      }),
  };
}
