/**
 * `storelens worker`: webhook delivery on its own, without serving (the worker loop `api` and
 * `serve --api` also run). Several workers may share one PostgreSQL database: claims are
 * leased and taken with `FOR UPDATE SKIP LOCKED`. Runs until SIGINT/SIGTERM.
 */
import type { Env } from '../env.js';
import type { Db } from '../db/index.js';
import type { Config } from '../settings/config.js';
import { type WebhookRuntime, webhookRuntime } from '../webhooks/runtime.js';
import { openAdminDb } from './admin-db.js';
import { type Background, startBackground } from './background.js';

type WebhookConfig = Partial<Pick<Config<'worker'>, 'webhooksAllowLocal' | 'secretKey' | 'previousSecretKey'>>;

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
  const db = await openAdminDb(opts, env);
  let background: Background;
  try {
    const runtime = await webhookRuntimeOf(db, opts);
    background = startBackground(db, {
      now: env.now,
      log: (line) => env.stderr.write(`storelens worker: ${line}\n`),
      webhooks: { ...runtime, everyMs: 250 },
      only: ['deliver'],
    });
  } catch (e) {
    await db.close();
    throw e;
  }
  env.stderr.write(`storelens worker: delivering webhook events from ${db.location}${opts.webhooksAllowLocal ? ' (local development: http and loopback endpoints allowed)' : ''}\n`);
  const close = async () => {
    await background.stop();
    await db.close();
  };
  if (signals) {
    process.once('SIGINT', () => void close());
    process.once('SIGTERM', () => void close());
  }
  return { db, background, close };
}
