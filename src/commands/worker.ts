/**
 * `storelens worker`: webhook delivery on its own, without serving (the worker loop `api` and
 * `serve --api` also run). Several workers may share one PostgreSQL database: claims are
 * leased and taken with `FOR UPDATE SKIP LOCKED`. Runs until SIGINT/SIGTERM.
 */
import type { Env } from '../env.js';
import type { Db } from '../db/index.js';
import type { Config } from '../settings/config.js';
import { type WebhookRuntime, webhookRuntime } from '../webhooks/runtime.js';
import { type AdminOptions, openAdminDb } from './admin-db.js';
import { type Background, type BackgroundOptions, startBackground } from './background.js';
import { ingestTask } from './ingest.js';

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
    return {
      db,
      webhooks,
      background,
      close: async () => {
        await background.stop();
        await db.close();
      },
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

export async function runWorker(opts: Partial<Config<'worker'>>, env: Env, signals = true): Promise<RunningWorker> {
  const { db, background, close } = await openServing(opts, env, 'storelens worker', { deliverEveryMs: 250, only: ['deliver'] });
  env.stderr.write(`storelens worker: delivering webhook events from ${db.location}${opts.webhooksAllowLocal ? ' (local development: http and loopback endpoints allowed)' : ''}\n`);
  if (signals) {
    process.once('SIGINT', () => void close());
    process.once('SIGTERM', () => void close());
  }
  return { db, background, close };
}
