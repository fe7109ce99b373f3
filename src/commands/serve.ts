/**
 * `storelens serve`: the published statistics over HTTP (and, with --api, the workspace REST
 * API on the same port). Prints the URLs to stderr and runs until SIGTERM or SIGINT.
 */
import path from 'node:path';
import type { Env } from '../core/env.js';
import { apiPlugin } from '../api/app.js';
import { webPlugin } from '../web/plugin.js';
import { assistantConnector } from '../oauth/connector.js';
import { oauthPlugin } from '../oauth/plugin.js';
import type { Db } from '../compose/database.js';
import { CliError } from '../core/errors.js';
import type { Config } from '../settings/config.js';
import { publishedStatistics } from '../reports/statistics.js';
import type { Background } from '../compose/background.js';
import { listenError } from './listen-error.js';
import { openServing } from './worker.js';
import type { ServePlugin } from '../serve/app.js';
import type { LiveEvent, LivePublication } from '../serve/live-publication.js';
import { closeOnSignals, startServer, type RunningServer } from '../serve/server.js';

type ServeConfig = Config<'serve'>;
/** The Config of `serve`; a programmatic caller may leave out what has a default. */
export type ServeOptions = Pick<ServeConfig, 'out' | 'port' | 'host'> & Partial<ServeConfig>;

/**
 * `--api`: the workspace REST API mounted under /api/v1 on the same port, over the SQLite file
 * `opts.db` (or PostgreSQL when `databaseUrl` is set); with `runs`, that runs folder is ingested
 * in the background now and whenever publish writes a new run. `close` (after the server) stops
 * ingesting and closes the database.
 */
export async function apiPlugins(
  opts: Pick<ServeOptions, 'db' | 'databaseUrl' | 'runs' | 'webhooksAllowLocal' | 'secretKey' | 'previousSecretKey' | 'validateResponses'> & { label?: string; out?: string },
  env: Env,
): Promise<{ plugins: ServePlugin[]; close: () => Promise<void>; db: Db; background: Background; follow: (live: LivePublication) => void }> {
  const label = opts.label ?? 'storelens serve';
  const { db, webhooks, background, close } = await openServing(opts, env, label, {
    reports: opts.out !== undefined ? { statistics: publishedStatistics(opts.out) } : undefined,
  });
  // The assistant connector's OAuth sign-in; metadata documents on loopback only under the local setting.
  let connector: Awaited<ReturnType<typeof assistantConnector>>;
  try {
    connector = await assistantConnector(db, env.now, { allowLocal: webhooks.guard.allowLocal });
  } catch (e) {
    await close();
    throw e;
  }
  // The MCP endpoint offers the statistics the server publishes (known once the server runs).
  let live: LivePublication | undefined;
  const mcp = { publication: () => live?.current ?? null, ...connector.mcp };
  return {
    plugins: [
      {
        plugin: apiPlugin,
        options: { prefix: '/api/v1', db, now: env.now, onWrite: background.onWrite, webhooks, mcp, validateResponses: opts.validateResponses, log: (line: string) => env.stderr.write(`${label}: ${line}\n`) },
      },
      { plugin: webPlugin, options: { db, now: env.now, oauth: connector.oauth } },
      { plugin: oauthPlugin, options: { oauth: connector.oauth } },
    ],
    close,
    db,
    background,
    follow: (l) => (live = l),
  };
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
  if (!opts.host) throw new CliError('--host: an interface is required', 2);
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
    throw listenError(e, opts);
  }
  api?.follow(server.serve.live);
  printUrls(server, opts, env);
  const signal = await closeOnSignals(server, {
    onSignal: (s) => env.stderr.write(`storelens serve: ${s}: finishing requests in flight, then stopping\n`),
  });
  await api?.close();
  env.stderr.write(`storelens serve: stopped (${signal})\n`);
}
