/** storelens api: the workspace REST API on its own port. */
import type { Env } from '../env.js';
import { CliError } from '../errors.js';
import { listenApi, type ListeningApi } from '../api/server.js';
import type { Config } from '../settings/config.js';
import { OUT_DIR } from '../defaults.js';
import { publishedStatistics } from '../reports/statistics.js';
import { listenError } from './listen-error.js';
import { openServing } from './worker.js';

/** The Config of `api`; a programmatic caller may leave out DATABASE_URL. */
export type ApiCommandOptions = Pick<Config<'api'>, 'port' | 'host' | 'db'> &
  Partial<Config<'api'>> & {
    /** How often to look for a new run in `runs` (tests; default INGEST_POLL_MS). */
    ingestIntervalMs?: number;
  };

/**
 * Opens the database, listens, and closes both on SIGINT/SIGTERM; resolves once listening. With
 * `runs`, ingests that runs folder in the background now and whenever publish writes a new run.
 */
export async function runApi(opts: ApiCommandOptions, env: Env, signals = true): Promise<ListeningApi> {
  const serving = await openServing(opts, env, 'storelens api', { reports: { statistics: publishedStatistics(opts.out ?? OUT_DIR) } });
  const { db, webhooks, background } = serving;
  // The first ranking before the first request.
  await background.worker.idle();
  let api: ListeningApi;
  try {
    api = await listenApi({ db, port: opts.port, host: opts.host, now: env.now, onWrite: background.onWrite, webhooks });
  } catch (e) {
    await serving.close();
    const known = listenError(e, opts);
    throw known !== e ? known : new CliError(`cannot listen on ${opts.host}:${opts.port}: ${(e as Error).message}`, 1);
  }
  env.stderr.write(`storelens api: ${api.url} (${db.location}); reference at ${api.url}/docs\n`);
  const close = async () => {
    await api.close();
    await serving.close();
  };
  if (signals) {
    process.once('SIGINT', () => void close());
    process.once('SIGTERM', () => void close());
  }
  return { ...api, close };
}
