/** storelens api: the workspace REST API on its own port. */
import type { Env } from '../env.js';
import { CliError } from '../errors.js';
import { listenApi, type ListeningApi } from '../api/server.js';
import { openAdminDb } from './admin-db.js';

export interface ApiCommandOptions {
  port: number;
  host: string;
  db: string;
}

/** Opens the database, listens, and closes both on SIGINT/SIGTERM; resolves once listening. */
export async function runApi(opts: ApiCommandOptions, env: Env, signals = true): Promise<ListeningApi> {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new CliError(`--port: "${opts.port}" is not a port`);
  const db = await openAdminDb({ db: opts.db }, env);
  let api: ListeningApi;
  try {
    api = await listenApi({ db, port: opts.port, host: opts.host, now: env.now });
  } catch (e) {
    await db.close();
    throw new CliError(`cannot listen on ${opts.host}:${opts.port}: ${(e as Error).message}`, 1);
  }
  env.stderr.write(`storelens api: ${api.url} (${db.location}); reference at ${api.url}/docs\n`);
  const close = async () => {
    await api.close();
    await db.close();
  };
  if (signals) {
    process.once('SIGINT', () => void close());
    process.once('SIGTERM', () => void close());
  }
  return { ...api, close };
}
