/**
 * `storelens serve`: the published statistics over HTTP (and, with --api, the workspace REST
 * API on the same port). Prints the URLs to stderr and runs until SIGTERM or SIGINT.
 */
import path from 'node:path';
import type { Env } from '../env.js';
import { apiPlugin } from '../api/app.js';
import type { Db } from '../db/index.js';
import { CliError } from '../errors.js';
import { openAdminDb } from './admin-db.js';
import type { ServePlugin } from '../serve/app.js';
import type { LiveEvent } from '../serve/live-publication.js';
import { closeOnSignals, startServer, type RunningServer } from '../serve/server.js';

export interface ServeOptions {
  out: string;
  port: number;
  host: string;
  api?: boolean;
  db?: string;
}

/**
 * `--api`: the workspace REST API mounted under /api/v1 on the same port, over the SQLite file
 * `opts.db` (or PostgreSQL when DATABASE_URL is set). `close` closes the database after the server.
 */
export async function apiPlugins(opts: Pick<ServeOptions, 'db'>, env: Env): Promise<{ plugins: ServePlugin[]; close: () => Promise<void>; db: Db }> {
  const db = await openAdminDb({ db: opts.db ?? 'storelens.db' }, env);
  return { plugins: [{ plugin: apiPlugin, options: { prefix: '/api/v1', db, now: env.now } }], close: () => db.close(), db };
}

function checkOptions(opts: ServeOptions): void {
  if (!Number.isInteger(opts.port) || opts.port < 0 || opts.port > 65535) {
    throw new CliError(`--port: "${opts.port}" is not a port number (0-65535)`, 2);
  }
  if (!opts.host) throw new CliError('--host: an interface is required', 2);
}

function describe(event: LiveEvent, out: string): string {
  if (event.type === 'error') return `storelens serve: publication not loaded, still serving the previous one: ${event.error.message}\n`;
  const p = event.publication;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  return `storelens serve: serving publication ${p.id} from ${out} (${p.byPath.size} files: ${mb(p.inMemoryBytes)} MB in memory, ${p.onDiskFiles} cards (${mb(p.onDiskBytes)} MB) streamed from disk; latest month ${p.manifest.latest_month ?? 'none'}, loaded in ${event.ms} ms)\n`;
}

/** Prints where to look; `server.url` is the base without a trailing slash. */
function printUrls(server: RunningServer, opts: ServeOptions, env: Env): void {
  const base = server.url;
  const lines = [
    `storelens serve: listening on ${base}`,
    `  ${base}/data/agentic-commerce            statistics page (HTML; also .md)`,
    `  ${base}/api/data/agentic-commerce        latest JSON document (/{YYYY-MM} for a month, /csv for the series)`,
    `  ${base}/data/rss.xml                     release feed`,
  ];
  if (opts.api) lines.push(`  ${base}/api/v1/openapi.json            workspace REST API`);
  if (server.serve.live.current === null) {
    lines.push(`  nothing is published in ${opts.out} yet: public URLs answer 503 until \`storelens publish --out ${opts.out}\` finishes`);
  }
  lines.push('  stop with Ctrl-C (SIGINT) or SIGTERM');
  env.stderr.write(lines.join('\n') + '\n');
}

export async function runServe(opts: ServeOptions, env: Env): Promise<void> {
  checkOptions(opts);
  const out = path.resolve(opts.out);
  const api = opts.api ? await apiPlugins(opts, env) : null;
  let server: RunningServer;
  try {
    server = await startServer({
      out,
      port: opts.port,
      host: opts.host,
      plugins: api?.plugins,
      live: { onEvent: (e) => env.stderr.write(describe(e, opts.out)) },
    });
  } catch (e) {
    await api?.close();
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`--port ${opts.port}: already in use on ${opts.host}`, 1);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`--host ${opts.host}: cannot listen there`, 2);
    throw e;
  }
  printUrls(server, opts, env);
  const signal = await closeOnSignals(server, {
    onSignal: (s) => env.stderr.write(`storelens serve: ${s}: finishing requests in flight, then stopping\n`),
  });
  await api?.close();
  env.stderr.write(`storelens serve: stopped (${signal})\n`);
}
