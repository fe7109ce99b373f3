/**
 * The benchmarks' HTTP load: a plan, the figures a run yields, and the run itself in a child
 * process (api-load.ts, autocannon), so the load never shares the servers' event loop.
 */
import { fork } from 'node:child_process';
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
  /** POST /outcomes bodies with a fresh Idempotency-Key per request, over this many store ids. */
  outcomes?: { accounts: number };
}

/** The load generator's entry module, beside this one (in dist/ as in src/). */
const LOAD_CHILD = fileURLToPath(new URL('./api-load.js', import.meta.url));

/** Runs one plan in a child process (src/bench/api-load.ts), which gets it over IPC. */
export function runLoad(plan: LoadPlan): Promise<OpFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(LOAD_CHILD, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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
