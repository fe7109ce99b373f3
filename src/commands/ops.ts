/** The operations listener of a long-running command (`--ops-port`, `--ops-host`: ops/ops-server.ts). */
import { CliError } from '../core/errors.js';
import { type Health, healthOf } from '../ops/health.js';
import { Metrics } from '../ops/metrics.js';
import type { LivePublication } from '../serve/live-publication.js';
import { listenOps, type OpsListener } from '../ops/ops-server.js';

/** Where the operations listener listens unless told otherwise (it is never the serving port). */
export const OPS_HOST = '127.0.0.1';

export interface OpsOptions {
  readonly opsPort?: number;
  readonly opsHost?: string;
  /** How long readiness waits for each check, in seconds (`--readiness-timeout`). */
  readonly readinessTimeout?: number;
}

/** Opens the listener when `--ops-port` is given; undefined otherwise. A busy port or a bad host fails the command. */
export async function openOps(opts: OpsOptions, health: Health, metrics: Metrics | undefined, label: string, note: (line: string) => void): Promise<OpsListener | undefined> {
  if (opts.opsPort === undefined) return undefined;
  if (metrics) health.countProbes((probe, status) => metrics.probe(probe, status));
  metrics?.gauges([
    {
      name: 'storelens_readiness_check',
      help: 'Each readiness check of this process (/-/readiness): 1 passing, 0 failing.',
      labelNames: ['check'],
      collect: async () => (await health.readiness()).checks.map((c) => ({ labels: { check: c.name }, value: c.status === 'pass' ? 1 : 0 })),
    },
  ]);
  const host = opts.opsHost ?? OPS_HOST;
  try {
    const ops = await listenOps({ port: opts.opsPort, host, health, metrics });
    note(`${label}: probes at ${ops.url}/-/liveness and ${ops.url}/-/readiness${metrics ? `, metrics at ${ops.url}/-/metrics` : ''}`);
    return ops;
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'EADDRINUSE') throw new CliError(`--ops-port ${opts.opsPort}: already in use on ${host}`, 1);
    if (code === 'EADDRNOTAVAIL' || code === 'ENOTFOUND') throw new CliError(`--ops-host ${host}: cannot listen there`, 2);
    throw e;
  }
}

/** What openOpsFirst opened: the process's readiness and metrics, for it to open its database with. */
export interface EarlyOps {
  health: Health;
  metrics?: Metrics;
  ops?: OpsListener;
  /** The process has started: readiness no longer fails `starting`, and where the probes are is told. */
  started(note: (line: string) => void): void;
}

/**
 * Opens the operations listener first, before the database is opened (its migrations, which an
 * upgrade can make long) and the first ranking: liveness answers 200 from the start, so an
 * orchestrator's liveness probe does not restart a process that is starting, and readiness answers
 * 503 `starting` until started(). A busy `--ops-port` fails the command before anything is opened.
 */
export async function openOpsFirst(opts: OpsOptions, label: string): Promise<EarlyOps> {
  const health = healthOf(opts).starting('the process is starting: opening and migrating the database, ranking what moved');
  const metrics = opts.opsPort !== undefined ? new Metrics() : undefined;
  let told: string | undefined;
  const ops = await openOps(opts, health, metrics, label, (line) => (told = line));
  return {
    health,
    metrics,
    ops,
    started: (note) => {
      health.started();
      if (told) note(told);
    },
  };
}

/** `serve` and `start`: the live release and its age among the metrics; returns them. */
export function releaseMetrics(metrics: Metrics, live: LivePublication): Metrics {
  const current = () => live.current;
  metrics.gauges([
    {
      name: 'storelens_release_info',
      help: 'The release served (1, labelled with its id; no sample while nothing is published).',
      labelNames: ['release'],
      collect: () => {
        const p = current();
        return p ? [{ labels: { release: p.id }, value: 1 }] : [];
      },
    },
    {
      name: 'storelens_release_age_seconds',
      help: 'Time since the release served was completed by publish (no sample while nothing is published).',
      collect: () => {
        const p = current();
        return p ? Math.max(0, (Date.now() - Date.parse(p.manifest.completed_at)) / 1000) : undefined;
      },
    },
  ]);
  return metrics;
}
