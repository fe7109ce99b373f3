/**
 * The Prometheus metrics of one process (prom-client, text format at `/-/metrics` on the
 * operations listener, ops-server.ts). One registry per process, so that several servers in one
 * test process never mix. Names follow Prometheus' conventions (`storelens_` prefix, `_total`
 * for counters, `_seconds` for durations) and every label has a bounded set of values: an
 * operation id or a route template, a status code, a task name — never a raw path, a store id,
 * a workspace or a key. docs/operations.md "Monitoring" lists every metric.
 *
 * The backlog figures (webhook messages, outbox, outreach, the database pool, the live release)
 * are gauges computed when scraped, by the collectors the composition adds (`gauges`).
 */
import { Counter, collectDefaultMetrics, Gauge, Histogram, type MetricObjectWithValues, type MetricValue, type MetricValueWithName, Registry } from 'prom-client';
import type { MetricsSource } from './ops-server.js';

/** What request handling reports (compose/workspace-app.ts, on every response). */
export interface RequestMetrics {
  /** `operation`: the operation id, or the route template of a non-operation route, or `unmatched`. */
  request(operation: string, status: number, seconds: number): void;
  /** A call refused by the rate limit (429), by call kind. */
  rateLimited(kind: string): void;
  /** A write answered from its Idempotency-Key's stored result. */
  replayed(operation: string): void;
}

/** What the background loop reports (compose/task-loop.ts, accounts/refresher.ts). */
export interface TaskMetrics {
  /** One turn of a task: how long it took and whether it failed. */
  ran(task: string, seconds: number, failed: boolean): void;
  /** One workspace re-ranked. */
  reranked(seconds: number): void;
  /** Workspaces the re-rank turn under way has yet to visit (0 between turns). */
  rerankQueue(workspaces: number): void;
}

/** One gauge computed at scrape time: its value, or values by label. */
export interface GaugeSpec {
  name: string;
  help: string;
  labelNames?: readonly string[];
  collect(): GaugeValue | Promise<GaugeValue>;
  /**
   * Read at the very start of a scrape, before any collector runs: a figure the scrape's own work
   * would move (the database pool, whose connections the backlog reads and the readiness check
   * take meanwhile) is the process's, not the scrape's.
   */
  beforeOthers?: boolean;
}

export type GaugeValue = number | readonly { labels: Record<string, string>; value: number }[] | undefined;

const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const TASK_BUCKETS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

export class Metrics implements MetricsSource, RequestMetrics, TaskMetrics {
  readonly registry = new Registry();
  private readonly requests = new RequestCounts();
  private readonly refusals: Counter<'kind'>;
  private readonly replays: Counter<'operation'>;
  private readonly probes: Counter<'probe' | 'status'>;
  private readonly taskRuns: Counter<'task'>;
  private readonly taskFailures: Counter<'task'>;
  private readonly taskSeconds: Histogram<'task'>;
  private readonly rerankSeconds: Histogram;
  private readonly rerankWaiting: Gauge;
  private readonly readFirst: ScrapedGauge[] = [];

  constructor(opts: { processMetrics?: boolean } = {}) {
    const registers = [this.registry];
    new RequestCounter(this.requests, registers);
    new RequestHistogram(this.requests, registers);
    this.refusals = new Counter({ name: 'storelens_rate_limit_refusals_total', help: 'Calls refused by the per-key rate limit (429), by call kind.', labelNames: ['kind'], registers });
    this.replays = new Counter({ name: 'storelens_idempotent_replays_total', help: 'Writes answered from the stored result of their Idempotency-Key, by operation.', labelNames: ['operation'], registers });
    this.probes = new Counter({ name: 'storelens_probe_requests_total', help: 'Liveness and readiness probes answered (on the serving port and the operations listener), by probe and status code.', labelNames: ['probe', 'status'], registers });
    this.taskRuns = new Counter({ name: 'storelens_task_runs_total', help: 'Turns of each background task run by this process.', labelNames: ['task'], registers });
    this.taskFailures = new Counter({ name: 'storelens_task_failures_total', help: 'Turns of each background task that failed (it runs again on its next turn).', labelNames: ['task'], registers });
    this.taskSeconds = new Histogram({ name: 'storelens_task_duration_seconds', help: 'Duration of a turn of each background task.', labelNames: ['task'], buckets: TASK_BUCKETS, registers });
    this.rerankSeconds = new Histogram({ name: 'storelens_rerank_duration_seconds', help: 'Time to re-rank one workspace.', buckets: TASK_BUCKETS, registers });
    this.rerankWaiting = new Gauge({ name: 'storelens_rerank_queue_workspaces', help: 'Workspaces the re-rank turn under way in this process has yet to visit.', registers });
    if (opts.processMetrics !== false) {
      collectDefaultMetrics({ register: this.registry, prefix: 'storelens_' });
      // Gauges named like counters (promtool refuses them); the same counts by type are kept, unsuffixed.
      for (const name of ['handles', 'requests', 'resources']) this.registry.removeSingleMetric(`storelens_nodejs_active_${name}_total`);
    }
  }

  get contentType(): string {
    return this.registry.contentType;
  }

  text(): Promise<string> {
    for (const g of this.readFirst) g.sample();
    return this.registry.metrics();
  }

  request(operation: string, status: number, seconds: number): void {
    this.requests.count(operation, status, seconds);
  }

  rateLimited(kind: string): void {
    this.refusals.inc({ kind });
  }

  replayed(operation: string): void {
    this.replays.inc({ operation });
  }

  /** A probe answered (ops/health.ts): counted apart from the requests, whose rates, errors and latencies are the callers'. */
  probe(probe: string, status: number): void {
    this.probes.inc({ probe, status: String(status) });
  }

  ran(task: string, seconds: number, failed: boolean): void {
    this.taskRuns.inc({ task });
    if (failed) this.taskFailures.inc({ task });
    this.taskSeconds.observe({ task }, seconds);
  }

  reranked(seconds: number): void {
    this.rerankSeconds.observe(seconds);
  }

  rerankQueue(workspaces: number): void {
    this.rerankWaiting.set(workspaces);
  }

  /** Gauges computed when scraped; a collector that throws or answers undefined leaves its gauge without a sample for that scrape. */
  gauges(specs: readonly GaugeSpec[]): void {
    for (const spec of specs) {
      const gauge = new ScrapedGauge(spec, [this.registry]);
      if (spec.beforeOthers) this.readFirst.push(gauge);
    }
  }
}

/**
 * A gauge whose samples are what its collector answers at each scrape, and nothing when the
 * figure is unknown. prom-client's own collect-then-set answers 0 for an unlabelled gauge left
 * unset (its reset sets 0), so a backlog read that failed, or a release age with nothing
 * published, read as an empty backlog or a release just published.
 */
class ScrapedGauge extends Gauge<string> {
  /** What sample() read at the start of the scrape under way, for get() to answer. */
  private sampled: Promise<GaugeValue> | undefined;

  constructor(
    private readonly spec: GaugeSpec,
    registers: Registers,
  ) {
    super({ name: spec.name, help: spec.help, labelNames: spec.labelNames ?? [], registers });
  }

  sample(): void {
    this.sampled = this.read();
  }

  override async get(): Promise<MetricObjectWithValues<MetricValue<string>>> {
    const read = this.sampled ?? this.read();
    this.sampled = undefined;
    const v = await read;
    const values = v === undefined ? [] : typeof v === 'number' ? [{ labels: {}, value: v }] : v.map((s) => ({ labels: s.labels, value: s.value }));
    return { ...(await super.get()), values };
  }

  private async read(): Promise<GaugeValue> {
    try {
      return await this.spec.collect();
    } catch {
      return undefined;
    }
  }
}

/** One operation's requests: answered by status, and their durations in REQUEST_BUCKETS (the last slot: over the largest). */
interface OperationCounts {
  byStatus: Map<number, number>;
  buckets: Float64Array;
  sum: number;
  count: number;
}

/**
 * The requests counted on the request path in plain numbers, one record per operation, and
 * handed to the registry only when it is scraped (RequestCounter, RequestHistogram). prom-client's
 * own counter and histogram look a series up by hashing its labels at every call, which was
 * most of what counting a request cost.
 */
class RequestCounts {
  readonly byOperation = new Map<string, OperationCounts>();

  count(operation: string, status: number, seconds: number): void {
    let op = this.byOperation.get(operation);
    if (op === undefined) this.byOperation.set(operation, (op = { byStatus: new Map(), buckets: new Float64Array(REQUEST_BUCKETS.length + 1), sum: 0, count: 0 }));
    op.byStatus.set(status, (op.byStatus.get(status) ?? 0) + 1);
    let b = 0;
    while (b < REQUEST_BUCKETS.length && seconds > REQUEST_BUCKETS[b]!) b++;
    op.buckets[b]!++;
    op.sum += seconds;
    op.count++;
  }
}

type Registers = Registry[];

/** `storelens_http_requests_total`, read from RequestCounts when scraped. */
class RequestCounter extends Counter<'operation' | 'status'> {
  constructor(
    private readonly counts: RequestCounts,
    registers: Registers,
  ) {
    super({ name: 'storelens_http_requests_total', help: 'Requests answered, by operation (operation id or route template) and status code.', labelNames: ['operation', 'status'], registers });
  }

  override async get(): Promise<MetricObjectWithValues<MetricValueWithName<'operation' | 'status'>>> {
    const values: MetricValueWithName<'operation' | 'status'>[] = [];
    for (const [operation, op] of this.counts.byOperation) for (const [status, value] of op.byStatus) values.push({ labels: { operation, status: String(status) }, value });
    return { ...(await super.get()), values };
  }
}

const HISTOGRAM = { name: 'storelens_http_request_duration_seconds', help: 'Time from a request received to its response sent, by operation.' };

/**
 * `storelens_http_request_duration_seconds`, read from RequestCounts when scraped: prom-client's
 * registry writes a histogram from its `getForPromString()` (and its `get()` from that), so the
 * buckets, sum and count are answered there, in the shape its own series take.
 */
class RequestHistogram extends Histogram<'operation'> {
  constructor(
    private readonly counts: RequestCounts,
    registers: Registers,
  ) {
    super({ name: HISTOGRAM.name, help: HISTOGRAM.help, labelNames: ['operation'], buckets: REQUEST_BUCKETS, registers });
  }

  getForPromString(): Promise<{ name: string; help: string; type: string; aggregator: string; values: { metricName: string; labels: { le?: number | string }; sharedLabels: { operation: string }; value: number }[] }> {
    const values = [];
    for (const [operation, op] of this.counts.byOperation) {
      const sharedLabels = { operation };
      let cumulative = 0;
      for (let b = 0; b < REQUEST_BUCKETS.length; b++) {
        cumulative += op.buckets[b]!;
        values.push({ metricName: `${HISTOGRAM.name}_bucket`, labels: { le: REQUEST_BUCKETS[b] }, sharedLabels, value: cumulative });
      }
      values.push({ metricName: `${HISTOGRAM.name}_bucket`, labels: { le: '+Inf' }, sharedLabels, value: op.count });
      values.push({ metricName: `${HISTOGRAM.name}_sum`, labels: {}, sharedLabels, value: op.sum });
      values.push({ metricName: `${HISTOGRAM.name}_count`, labels: {}, sharedLabels, value: op.count });
    }
    return Promise.resolve({ ...HISTOGRAM, type: 'histogram', aggregator: 'sum', values });
  }
}
