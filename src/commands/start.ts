/**
 * `npm start`: the whole product on embedded defaults. The port bound first (so the pages and
 * the feed name the port bound, `--port 0` included; readiness answers 503 until the banner),
 * a demo panel (generated once) published every month without cards so the server is up at
 * once, then the statistics and the workspace API on that port with a demo key printed; the
 * share cards are rendered by a second publish in the background, which the server picks up
 * without a restart.
 */
import { mkdir, readdir } from 'node:fs/promises';
import path from 'node:path';
import type { Env } from '../core/env.js';
import { ensureDemoKey, resetDemoSignIn } from '../compose/demo.js';
import { API_PORT, OUT_DIR, PORT, RUNS_DIR, STATE_DIR } from '../core/defaults.js';
import { CliError } from '../core/errors.js';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { progress } from './progress.js';
import { publish, type PublishOptions } from '../publish/pipeline.js';
import { closeOnSignals, startServer } from '../serve/server.js';
import type { Config } from '../settings/config.js';
import { listenError, probeListen } from './listen-error.js';
import { openWorkspaceServing } from './serve.js';
import type { OpsListener } from '../ops/ops-server.js';
import { OPS_HOST, openOps, releaseMetrics } from './ops.js';

/** The Config of `start`; a programmatic caller may leave out DATABASE_URL. */
export type StartOptions = Pick<Config<'start'>, 'port' | 'host'> & Partial<Config<'start'>>;

/** The demo keeps its panel and database in the state folder (git-ignored). */
const DEMO_PANEL = { stores: 3000, from: '2025-11', to: '2026-10', seed: 'demo' } as const;

export async function runStart(opts: StartOptions, env: Env): Promise<void> {
  const panel = path.join(STATE_DIR, 'demo-panel');
  const out = OUT_DIR;
  const log = (line: string) => env.stderr.write(`storelens start: ${line}\n`);
  /** A port taken, told with the other port to try; any other listen error as the flags name it. */
  const portError = (e: unknown) =>
    (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new CliError(`port ${opts.port} is in use: stop the other server or run \`npm start -- --port ${opts.port === API_PORT ? PORT : API_PORT}\``, 1) : listenError(e, opts);
  // A port taken (another `npm start` in this folder, say) is said before anything is opened or
  // written: opening the database would give the running demo's owner a new password, and
  // leave a demo key nobody saw.
  await probeListen(opts).catch((e: unknown) => {
    throw portError(e);
  });
  // So is the operations port: it is bound after the publish, with the demo's key made already.
  if (opts.opsPort !== undefined) {
    await probeListen({ port: opts.opsPort, host: OPS_HOST }).catch((e: unknown) => {
      throw (e as NodeJS.ErrnoException).code === 'EADDRINUSE' ? new CliError(`--ops-port ${opts.opsPort}: already in use on ${OPS_HOST}`, 1) : e;
    });
  }
  // The demo's database, panel and runs live in the state folder; the database is opened next.
  // The runs folder is made now: the worker loop looks into it from its first turn, and a runs
  // folder not there yet would be warned of while the first publish is still writing it.
  await mkdir(STATE_DIR, { recursive: true });
  await mkdir(opts.runs ?? RUNS_DIR, { recursive: true });

  const api = await openWorkspaceServing({ db: path.join(STATE_DIR, 'demo.db'), opsPort: opts.opsPort, readinessTimeout: opts.readinessTimeout, logLevel: opts.logLevel, logFormat: opts.logFormat, databaseUrl: opts.databaseUrl, runs: opts.runs ?? RUNS_DIR, label: 'storelens start', out, webhooksAllowLocal: opts.webhooksAllowLocal, secretKey: opts.secretKey, previousSecretKey: opts.previousSecretKey, validateResponses: opts.validateResponses, publicUrl: opts.publicUrl }, env);
  // Not ready until the demo is published and its accounts are ranked (the port is bound first).
  api.health.starting('generating and publishing the demo panel');
  // The port is bound before anything is generated or published: the pages and the feed name the
  // port bound (`--port 0`: any free one), and a port in use fails at once, not after the publish.
  let server;
  try {
    server = await startServer({ out, port: opts.port, host: opts.host, mount: api.mount, health: api.health, loggerInstance: api.logger, metrics: api.metrics, requestLog: true, trustedProxies: opts.trustedProxy });
  } catch (e) {
    await api.close();
    throw portError(e);
  }
  api.follow(server.serve.live);
  // Behind a proxy the pages, the feed and the sign-in are where members reach them.
  const baseUrl = opts.publicUrl?.replace(/\/$/, '') ?? `http://${opts.host.includes(':') ? `[${opts.host}]` : opts.host}:${server.address.port}`;

  const bar = progress(env, 'publish');
  const base: PublishOptions = { input: panel, out, months: 'all', baseUrl, cards: 'none', runs: opts.runs ?? RUNS_DIR, now: env.now, onProgress: (m) => bar.update(m), onPhase: (p) => bar.phase(p) };
  let ops: OpsListener | undefined;
  let demo: Awaited<ReturnType<typeof ensureDemoKey>>;
  let signIn: Awaited<ReturnType<typeof resetDemoSignIn>>;
  try {
    // The demo's key and sign-in once the port is this process's (a port taken between the probe
    // and the bind changes neither), and before the first ranking, which ranks the demo workspace.
    demo = await ensureDemoKey(api.db, env.now());
    signIn = await resetDemoSignIn(api.db, env.now());
    const existing = await readdir(panel).catch(() => [] as string[]);
    if (!existing.some((f) => f.endsWith('.csv'))) {
      log(`generating a demo panel (${DEMO_PANEL.stores} stores, ${DEMO_PANEL.from} to ${DEMO_PANEL.to}) in ${panel}`);
      const duck = await openDuck();
      try {
        await generatePanel(duck, { out: panel, format: 'csv', ...DEMO_PANEL });
      } finally {
        duck.close();
      }
    }

    const first = await publish(base);
    bar.done(first.changed ? `published ${first.months.length} months to ${out}` : `${out} is up to date`);
    await server.serve.live.refresh();
    // Accounts before the banner: the worker loads the runs publish wrote, then re-ranks the demo
    // workspace and checks its watches. Its own ingest task does it, so the runs are loaded once:
    // a second ingest here raced the loop's poll of the runs folder (two rankings, or a warning
    // that "another ingest" was loading).
    api.background.worker.trigger('ingest');
    await api.background.worker.idle();
    ops = await openOps(opts, api.health, api.metrics && releaseMetrics(api.metrics, server.serve.live), 'storelens start', (line) => env.stderr.write(`${line}\n`));
  } catch (e) {
    await server.close();
    await api.close();
    throw e;
  }
  api.health.started();
  const url = opts.publicUrl ? baseUrl : server.url;
  env.stderr.write(
    [
      '',
      opts.publicUrl ? `storelens is running on ${server.url}, reached at ${url}` : `storelens is running on ${url}`,
      `  ${url}/data/agentic-commerce          a statistics page (also platform-stores, platform-apps, platform-advertising, platform-trends, methodology)`,
      `  ${url}/api/data/agentic-commerce      its latest JSON; /csv for the monthly series; /2026-09 for one month`,
      `  ${url}/data/rss.xml                   the release feed`,
      `  ${url}/api/v1/docs                    the workspace REST API reference (openapi.json beside it)`,
      `  ${url}/integrations                   Integrations → API & MCP: create and revoke keys, the MCP URL`,
      `  ${url}/api/v1/mcp                     the MCP endpoint for assistants (they sign in with OAuth by themselves; a Bearer API key works too)`,
      '',
      `demo API key for workspace "${demo.workspace}" (shown once, stored only as a hash):`,
      `  ${demo.key}`,
      `  curl -H "Authorization: Bearer ${demo.key}" "${url}/api/v1/accounts?limit=3"     ranked in-market accounts with their evidence`,
      '',
      `demo member sign-in (owner of "${demo.workspace}"; a new password every start):`,
      `  ${url}/signin   email ${signIn.email}   password ${signIn.password}`,
      '',
      'stop with Ctrl-C',
      '',
    ].join('\n'),
  );

  // Cards in the background: the live server switches to the new publication when it lands.
  let cardsDone = false;
  log('rendering the share cards in the background; pages work meanwhile, card images appear when done');
  void publish({ ...base, cards: 'latest', onProgress: () => {} })
    .then((s) => log(s.cards_rendered ? `share cards ready (${s.cards_rendered} rendered)` : 'share cards up to date'))
    .catch((e: Error) => log(`share cards failed: ${e.message}`))
    .finally(() => (cardsDone = true));

  const signal = await closeOnSignals(server, {
    onSignal: (s) => {
      api.health.drain();
      log(`${s}: stopping`);
    },
  });
  await api.close();
  await ops?.close();
  log(`stopped (${signal})`);
  // An unfinished card render would keep its worker threads alive; the live publication is
  // untouched by stopping it (the next publish takes over its stale lock), so leave now.
  if (!cardsDone) process.exit(0);
}
