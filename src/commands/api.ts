/** storelens api: the workspace REST API on its own port. */
import type { Env } from '../cli.js';
import { CliError } from '../errors.js';
import { listenApi } from '../api/server.js';
import { openAdminDb } from './admin-db.js';

export interface ApiCommandOptions {
  port: number;
  host: string;
  db: string;
}

export async function runApi(opts: ApiCommandOptions, env: Env): Promise<void> {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) throw new CliError(`--port: "${opts.port}" is not a port`);
  const db = await openAdminDb({ db: opts.db }, env);
  let api;
  try {
    api = await listenApi({ db, port: opts.port, host: opts.host, now: env.now });
  } catch (e) {
    await db.close();
    throw new CliError(`cannot listen on ${opts.host}:${opts.port}: ${(e as Error).message}`, 1);
  }
  env.stderr.write(`storelens api: ${api.url} (${db.location}); reference at ${api.url}/docs\n`);
  const stop = async () => {
    await api.close();
    await db.close();
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}
