/**
 * The api and scale-out benchmarks' lines (`storelens bench`), each figure beside its goal
 * (issues 35 and 37). A figure is printed only when at most 1% of its responses were not 2xx:
 * a rate that counts refusals or errors measures something else.
 */
import type { ApiBenchResult, DatabaseFigures } from './api.js';
import type { OpFigures } from './load.js';
import type { PhaseTimes } from './api-profile.js';
import type { CpuUse, ScaleoutBenchResult } from './scaleout.js';

/** The walks' lists, as the line names them (api-walks.ts). */
const FILTER_MIX = 'limits 10 to 100, filters by list, country, category, plan, score and signal';
const fmt = (n: number, digits = 2) => n.toFixed(digits);
const int = (n: number) => Math.round(n).toLocaleString('en-US');

/** Whether a figure may be printed: some requests, and at most 1% not 2xx. */
export const honest = (f: OpFigures): boolean => f.requests > 0 && (f.non2xx + f.errors) / f.requests <= 0.01;

/** `req/s, p99`, or why there is no figure. */
export function figure(f: OpFigures, unit = 'req/s'): string {
  if (f.requests === 0) return 'no requests';
  const bad = f.non2xx + f.errors;
  if (!honest(f)) return `no figure: ${int(bad)} of ${int(f.requests)} responses (${fmt((100 * bad) / f.requests, 1)}%) were not 2xx`;
  const ended = f.budgetEnded && f.seconds !== undefined ? `, the keys' budget ended the run after ${fmt(f.seconds, 1)} s` : '';
  return `${int(f.rps)} ${unit}, p99 ${fmt(f.p99, 1)} ms${bad ? ` (${bad} not 2xx)` : ''}${ended}`;
}

/** a / b of two honest figures, else `no ratio`. */
export function ratio(a: OpFigures, b: OpFigures): string {
  return honest(a) && honest(b) ? `${fmt(a.rps / b.rps)}×` : 'no ratio';
}

const phases = (p: PhaseTimes) =>
  `per request admission (routing, key lookup, scope, rate limit, body) ${fmt(p.admission, 3)} ms, operation (executor: idempotency, query or write, JSON, gzip) ${fmt(p.operation, 3)} ms, sending ${fmt(p.sending, 3)} ms`;
const cpu = (shares: [string, number][]) =>
  shares
    .filter(([, s]) => s >= 0.005)
    .map(([part, s]) => `${part} ${fmt(100 * s, 0)}%`)
    .join(', ');

/** The CPU a request cost the api process and, when measured, the database's server (less moved by the machine's load than a rate). */
const cpuOf = (f: OpFigures) =>
  f.cpuPerRequest === undefined
    ? ''
    : `; CPU a request: api process ${int(f.cpuPerRequest)} µs${f.databaseCpuPerRequest === undefined ? '' : `, database server ${int(f.databaseCpuPerRequest)} µs`}`;

function profileLines(d: DatabaseFigures): string[] {
  return [
    `api: where the time goes, GET /accounts?limit=50 (the same page) on ${d.database}: ${phases(d.readPhases)}; CPU samples: ${cpu(d.readCpu)}`,
    `api: where the time goes, GET /accounts walked on ${d.database}: ${phases(d.walkPhases)}; CPU samples: ${cpu(d.walkCpu)}`,
    `api: where the time goes, POST /outcomes on ${d.database}: ${phases(d.writePhases)}; CPU samples: ${cpu(d.writeCpu)}`,
  ];
}

export function apiLines(r: ApiBenchResult, cores: number): string[] {
  const s = r.sqlite;
  const lines = [
    `api: ${r.connections} connections, ${cores} cores shared with the load generator; every request a real call under the default limits: ` +
      `${int(r.keys.read)} read keys × 120/min and ${int(r.keys.write)} write keys × 20/min per ${r.seconds} s run, a run stopping when its keys' budget is spent (no 429 of the benchmark's own)`,
    `api: GET /accounts as users walk it (${int(r.walks.walks)} walks of ${int(r.walks.requests)} requests over ${int(r.walks.distinct)} pages: first pages and their next links, ${FILTER_MIX}; ` +
      `${fmt(100 * r.walks.cacheable, 0)}% of the requests for pages the executor's read cache holds, ${fmt(100 * r.walks.uncached, 0)}% never cached (signal filters); ${int(r.walks.meanBytes)} bytes an answer on average) ` +
      `on SQLite ${figure(s.walkReads)}; a bare node:http server answering each target with the API's bytes ${figure(r.bareWalks)}; ratio ${ratio(s.walkReads, r.bareWalks)} (goal ≥ 0.5×)`,
    `api: GET /accounts?limit=50, every request the same page (the executor's read cache answers it), on SQLite ${figure(s.reads)}; a bare node:http server answering the same ${int(r.pageBytes)} bytes ${figure(r.bare)}; ratio ${ratio(s.reads, r.bare)}`,
    `api: GET /accounts?limit=50 on SQLite with metrics and request logs ${figure(r.observedReads)}, without ${figure(r.plainReads)} (alternating); ratio ${ratio(r.observedReads, r.plainReads)} (goal ≥ 0.9×)` +
      (r.observedReads.cpuPerRequest && r.plainReads.cpuPerRequest
        ? `; the server's CPU per request ${fmt(r.observedReads.cpuPerRequest, 0)} µs vs ${fmt(r.plainReads.cpuPerRequest, 0)} µs, ratio ${fmt(r.plainReads.cpuPerRequest / r.observedReads.cpuPerRequest)}× (less moved by the machine's load)`
        : ''),
    `api: POST /outcomes on SQLite ${figure(s.writes, 'outcomes/s')} (for reference; the goal of ≥ 2,000/s with p99 < 50 ms is PostgreSQL's)${cpuOf(s.writes)}`,
  ];
  if (r.postgres) {
    const p = r.postgres;
    const p99 = honest(p.writes) ? (p.writes.p99 < 50 ? 'p99 met' : 'p99 not met') : '';
    lines.push(
      `api: GET /accounts walked on PostgreSQL ${figure(p.walkReads)}; ratio to SQLite ${ratio(p.walkReads, s.walkReads)} (goal ≥ 0.5×)${cpuOf(p.walkReads)}`,
      `api: GET /accounts?limit=50 (the same page) on PostgreSQL ${figure(p.reads)}; ratio to SQLite ${ratio(p.reads, s.reads)}`,
      `api: POST /outcomes on PostgreSQL, one workspace ${figure(p.writes, 'outcomes/s')} (goal ≥ 2,000/s with p99 < 50 ms${p99 ? `; ${p99}` : ''})${cpuOf(p.writes)}`,
    );
  } else lines.push('api: PostgreSQL: skipped (set DATABASE_URL to a PostgreSQL database: the benchmark runs in a schema of its own there)');
  lines.push(...profileLines(s));
  if (r.postgres) lines.push(...profileLines(r.postgres));
  return lines;
}

/** A machine busier than this while two processes read is CPU-bound: a second process has no core to use. */
const CPU_BOUND = 0.9;

export function scaleoutLines(results: readonly ScaleoutBenchResult[], cores: number): string[] {
  const pct = (x: number) => `${Math.round(100 * x)}%`;
  const use = (c: CpuUse | undefined) =>
    c === undefined
      ? 'not measured'
      : `${pct(c.busy)} busy (storelens ${pct(c.servers)}${c.database === undefined ? '' : `, PostgreSQL ${pct(c.database)}`}, load generators and the rest ${pct(Math.max(0, c.busy - c.servers - (c.database ?? 0)))})`;
  return results.map((r) => {
    const bound = r.two.readsCpu !== undefined && r.two.readsCpu.busy >= CPU_BOUND;
    const limit = bound
      ? `not measurable here: the ${cores} cores are the limit, not the database`
      : r.two.readsCpu === undefined
        ? 'the CPU not measured'
        : `the cores not all busy`;
    const reads =
      `GET /accounts?limit=50 one api process ${figure(r.one.reads)}, two api processes and a worker ${figure(r.two.reads)}, ratio ${ratio(r.two.reads, r.one.reads)} ` +
      `(goal ≥ 1.3× where the database is not the limit: ${limit}; the machine's CPU while reading: one process ${use(r.one.readsCpu)}, two ${use(r.two.readsCpu)})`;
    const writes = `POST /outcomes ${figure(r.one.writes, 'outcomes/s')} vs ${figure(r.two.writes, 'outcomes/s')}, ratio ${ratio(r.two.writes, r.one.writes)}`;
    return `scaleout (${r.database}, ${r.connections} connections, ${cores} cores for the processes and the load generators): ${reads}; ${writes}`;
  });
}
