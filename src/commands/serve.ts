/**
 * `storelens serve`: the published statistics over HTTP (and, with --api, the workspace REST
 * API on the same port). Prints the URLs to stderr and runs until SIGTERM or SIGINT.
 */
import path from 'node:path';
import type { Env } from '../core/env.js';
import type { FastifyInstance } from 'fastify';
import { CliError } from '../core/errors.js';
import type { Config } from '../settings/config.js';
import { publishedStatistics } from '../reports/statistics.js';
import { type Serving, type ServingOptions, openServing } from '../compose/serving.js';
import { API_PREFIX, registerWorkspaceApp } from '../compose/workspace-app.js';
import { PROBLEM_CONTENT_TYPE, problemBody } from '../http/problems.js';
import { listenError, probeListen } from './listen-error.js';
import type { LiveEvent, LivePublication } from '../serve/live-publication.js';
import { closeOnSignals, startServer, type RunningServer } from '../serve/server.js';
import { openOpsFirst, releaseMetrics } from './ops.js';
import { createLogger, flushLog, type Logger } from '../ops/logger.js';
import { observeRequests } from '../compose/request-log.js';
import type { Metrics } from '../ops/metrics.js';

type ServeConfig = Config<'serve'>;
/** The Config of `serve`; a programmatic caller may leave out what has a default. */
export type ServeOptions = Pick<ServeConfig, 'out' | 'port' | 'host'> & Partial<ServeConfig>;

/** A serving process (compose/serving.ts) whose workspace app mounts on the public server. */
export interface WorkspaceServing extends Serving {
  /** Registers the workspace app (compose/workspace-app.ts) on the server's Fastify instance. */
  mount(app: FastifyInstance): Promise<void>;
  /** The MCP endpoint offers the statistics this publication holds (known once the server runs). */
  follow(live: LivePublication): void;
}

/**
 * `--api`: the workspace app (REST API under /api/v1, MCP, sign-in, the assistant connector) on
 * the same port, over the SQLite file `opts.db` (or PostgreSQL when `databaseUrl` is set); with
 * `runs`, that runs folder is ingested in the background now and whenever publish writes a new
 * run. `close` (after the server) stops ingesting and closes the database.
 */
export async function openWorkspaceServing(
  opts: Pick<ServeOptions, 'db' | 'databaseUrl' | 'runs' | 'webhooksAllowLocal' | 'secretKey' | 'previousSecretKey' | 'validateResponses' | 'opsPort' | 'readinessTimeout' | 'logLevel' | 'logFormat' | 'publicUrl'> & Pick<ServingOptions, 'health' | 'metrics'> & { label?: string; out?: string },
  env: Env,
): Promise<WorkspaceServing> {
  const serving = await openServing(opts, env, opts.label ?? 'storelens serve', {
    reports: opts.out !== undefined ? { statistics: publishedStatistics(opts.out) } : undefined,
  });
  let live: LivePublication | undefined;
  return {
    ...serving,
    mount: (app) => registerWorkspaceApp(app, { ...serving.app, mcp: { ...serving.app.mcp, publication: () => live?.current ?? null } }),
    follow: (l) => (live = l),
  };
}

/** What `serve` without --api answers under /api/v1: an operator who left the flag out is told so. */
export const API_NOT_SERVED = `The workspace API (${API_PREFIX}) is not served by this process: start storelens serve with --api to serve it here, or run storelens api.`;

/**
 * Without --api: the other paths' requests (404s) are told as the workspace app's would be, and
 * every request under /api/v1 (the MCP endpoint's too) is answered a 404 that names the flag.
 */
function withoutWorkspaceApp(metrics: Metrics | undefined): (app: FastifyInstance) => Promise<void> {
  return async (app) => {
    observeRequests(app, { metrics, log: true });
    await app.register(
      async (api) => {
        api.setNotFoundHandler((_request, reply) => reply.code(404).type(PROBLEM_CONTENT_TYPE).send(problemBody('not-found', API_NOT_SERVED)));
      },
      { prefix: API_PREFIX },
    );
  };
}

/** A release loaded (info) or not (warn: the previous one goes on being served), as a line of the log. */
function tell(logger: Logger, event: LiveEvent, out: string): void {
  if (event.type === 'error') return logger.warn(`storelens serve: publication not loaded, still serving the previous one: ${event.error.message}`);
  const p = event.publication;
  const mb = (n: number) => (n / 1e6).toFixed(1);
  logger.info(`storelens serve: serving publication ${p.id} from ${out} (${p.byPath.size} files: ${mb(p.inMemoryBytes)} MB in memory, ${p.onDiskFiles} cards (${mb(p.onDiskBytes)} MB) streamed from disk; latest month ${p.manifest.latest_month ?? 'none'}, loaded in ${event.ms} ms)`);
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
  await probeListen(opts).catch((e: unknown) => {
    throw listenError(e, opts);
  });
  // The probes first: alive, and not ready (`starting`), while the workspace database is migrated.
  const early = await openOpsFirst(opts, 'storelens serve');
  const ops = early.ops;
  let api: WorkspaceServing | null;
  try {
    api = opts.api ? await openWorkspaceServing({ ...opts, health: early.health, metrics: early.metrics }, env) : null;
  } catch (e) {
    await ops?.close();
    throw e;
  }
  const { health, metrics } = early;
  // Its notices are lines of the log, as every serving process's are; only the banner of URLs is plain text.
  const logger = api?.logger ?? createLogger({ level: opts.logLevel, format: opts.logFormat, stream: env.stderr, fd: env.stderrFd }).child({ process: 'storelens serve' });
  const note = (line: string) => logger.info(line);
  let server: RunningServer;
  try {
    server = await startServer({
      out,
      port: opts.port,
      host: opts.host,
      mount: api?.mount ?? withoutWorkspaceApp(metrics),
      health,
      loggerInstance: logger,
      metrics,
      requestLog: true,
      trustedProxies: opts.trustedProxy,
      live: { onEvent: (e) => tell(logger, e, opts.out) },
    });
  } catch (e) {
    await api?.close();
    await ops?.close();
    throw listenError(e, opts);
  }
  if (metrics) releaseMetrics(metrics, server.serve.live);
  early.started(note);
  api?.follow(server.serve.live);
  printUrls(server, opts, env);
  const signal = await closeOnSignals(server, {
    onSignal: (s) => {
      health.drain();
      note(`storelens serve: ${s}: finishing requests in flight, then stopping`);
    },
  });
  await api?.close();
  await ops?.close();
  note(`storelens serve: stopped (${signal})`);
  await flushLog(logger);
}
