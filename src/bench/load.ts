/**
 * The benchmarks' HTTP load: a plan, the figures a run yields, and the run itself in a child
 * process (api-load.ts, autocannon), so the load never shares the servers' event loop.
 */
import { fork, spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

/** One measured operation. */
export interface OpFigures {
  /** Mean 2xx responses per second. */
  rps: number;
  /** 99th percentile latency, milliseconds. */
  p99: number;
  requests: number;
  /** Responses that were not 2xx, and socket errors or timeouts (both should be 0). */
  non2xx: number;
  errors: number;
  /** How long the run really lasted (it ends early when its keys' budget is spent). */
  seconds?: number;
  budgetEnded?: boolean;
  /**
   * CPU time of the server per request, µs (this process's, when the server runs in it; the load
   * generator is a child). Less moved by other work on the machine than a rate is.
   */
  cpuPerRequest?: number;
  /**
   * PostgreSQL on this machine: CPU time of the database's server processes serving the
   * benchmark's database per request, µs (read from /proc; the connections that closed during the
   * run are not counted). Undefined elsewhere.
   */
  databaseCpuPerRequest?: number;
}

/** A request plan for the load generator (sent to the child process). */
export interface LoadPlan {
  url: string;
  method: 'GET' | 'POST';
  connections: number;
  seconds: number;
  /** Bearer keys used round-robin, `uses` requests each at most. */
  keys?: string[];
  uses?: number;
  /**
   * GET targets (path and query) asked for in turn, request i the (i mod n)-th (api-walks.ts);
   * without them every request asks for `url`.
   */
  paths?: string[];
  /**
   * With paths: the workspace (an index into keyGroups) each target is asked of; its request
   * carries that workspace's keys in turn. `keys` then holds every group's keys (the budget).
   */
  groups?: number[];
  keyGroups?: string[][];
  /** POST /outcomes bodies with a fresh Idempotency-Key per request, over this many store ids. */
  outcomes?: { accounts: number };
}

/** The load generator's entry module, beside this one (in dist/ as in src/). */
const LOAD_CHILD = fileURLToPath(new URL('./api-load.js', import.meta.url));

/**
 * Runs one plan in a child process (src/bench/api-load.ts), which gets it over IPC. `cpus`: the
 * processors the child may run on (taskset's list, e.g. "1"; see pinning()).
 */
export function runLoad(plan: LoadPlan, cpus?: string): Promise<OpFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(LOAD_CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    // Pinned before it is sent the plan: it generates no load until then.
    if (cpus !== undefined && child.pid !== undefined) spawnSync('taskset', ['-a', '-p', '-c', cpus, String(child.pid)], { stdio: 'ignore' });
    let result: OpFigures | undefined;
    let cpu = process.cpuUsage();
    child.on('message', (m) => {
      const used = process.cpuUsage(cpu);
      result = m as OpFigures;
      result.cpuPerRequest = (used.user + used.system) / Math.max(result.requests, 1);
    });
    child.on('spawn', () => (cpu = process.cpuUsage()));
    child.on('error', reject);
    child.on('exit', (code) => (result ? resolve(result) : reject(new Error(`the load generator exited with ${code}`))));
    child.send(plan);
  });
}

/** Runs of one operation taken in turns, as one: the mean rate, the worst p99, counts and CPU added. */
export function inTurns(parts: readonly OpFigures[]): OpFigures {
  const requests = parts.reduce((s, p) => s + p.requests, 0);
  const cpu = parts.every((p) => p.cpuPerRequest !== undefined) ? parts.reduce((s, p) => s + p.cpuPerRequest! * p.requests, 0) / Math.max(requests, 1) : undefined;
  return {
    rps: parts.reduce((s, p) => s + p.rps, 0) / parts.length,
    p99: Math.max(...parts.map((p) => p.p99)),
    requests,
    non2xx: parts.reduce((s, p) => s + p.non2xx, 0),
    errors: parts.reduce((s, p) => s + p.errors, 0),
    budgetEnded: parts.some((p) => p.budgetEnded),
    cpuPerRequest: cpu,
  };
}

/**
 * Processors for a server and for its load generator, when the machine has two or more and
 * util-linux's `taskset` is there (else undefined: nothing pinned). A server and the load it is
 * measured under that share every processor take turns on them as the scheduler pleases, and
 * figures of two servers measured one after the other then differ by more than what tells them
 * apart; pinned, each server has processor 0 to itself and the load and the benchmark run beside.
 */
export function pinning(): { server: string; load: string } | undefined {
  if (availableParallelism() < 2) return undefined;
  const probe = spawnSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' });
  const last = availableParallelism() - 1;
  return probe.status === 0 ? { server: '0', load: last === 1 ? '1' : `1-${last}` } : undefined;
}

/**
 * Moves this process (every thread) onto `cpus` (taskset's list) and answers how to move it
 * back onto every processor. While a server is measured on processor 0, the benchmark's own
 * work — reading the server's log from its pipe above all — then runs beside the load, not on
 * the server's processor whenever the scheduler happens to put it there.
 */
export function pinSelf(cpus: string): () => void {
  const all = `0-${availableParallelism() - 1}`;
  spawnSync('taskset', ['-a', '-p', '-c', cpus, String(process.pid)], { stdio: 'ignore' });
  return () => void spawnSync('taskset', ['-a', '-p', '-c', all, String(process.pid)], { stdio: 'ignore' });
}
