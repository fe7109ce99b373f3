/**
 * The api benchmark's load generator: an entry module that `benchApi` forks (so the load never
 * shares the servers' event loop). It takes one plan over IPC, runs autocannon against it and
 * sends back the figures.
 *
 * With keys, the run stops when the keys' budget is spent (each key used at most `uses` times,
 * its per-minute limit, less a request per connection for the ones under way), so no request
 * meets a 429 the benchmark caused itself: the run lasts `seconds` or until then, whichever
 * comes first, and its rate is over the time it really ran.
 */
import { createRequire } from 'node:module';
import type { LoadPlan, OpFigures } from './load.js';

interface AutocannonRequest {
  method?: string;
  path?: string;
  headers?: Record<string, string>;
  body?: string;
}
interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  '2xx': number;
  non2xx: number;
  errors: number;
  timeouts: number;
  duration: number;
}
type Autocannon = (opts: Record<string, unknown>, done: (e: Error | null, r: AutocannonResult) => void) => unknown;

async function loadChild(plan: LoadPlan): Promise<OpFigures> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const url = new URL(plan.url);
  let n = 0;
  /** Requests sent so far per key group. */
  const sent: number[] = [];
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  // Each connection makes its share of the budget at most (a request per connection below it, for rounding).
  const budget = plan.keys && plan.uses ? plan.keys.length * plan.uses : 0;
  const perConnection = budget ? Math.max(1, Math.floor(budget / plan.connections) - 1) : 0;
  const setupRequest = (req: AutocannonRequest): AutocannonRequest => {
    const i = n++;
    // As HTTP clients send it (Node's fetch, browsers, curl --compressed): pages may come gzipped.
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate' };
    const group = plan.groups && plan.keyGroups ? plan.groups[i % plan.groups.length]! : undefined;
    if (group !== undefined) {
      // A workspace's targets take its keys round-robin (its requests are its share of the budget).
      const own = plan.keyGroups![group]!;
      headers.authorization = `Bearer ${own[(sent[group] = (sent[group] ?? 0) + 1) % own.length]}`;
    } else if (plan.keys) {
      // Round-robin: key k serves requests k, k + K, k + 2K …, so no key passes `uses` until the budget is spent.
      headers.authorization = `Bearer ${plan.keys[i % plan.keys.length]}`;
    }
    if (!plan.outcomes) return { ...req, method: plan.method, path: plan.paths ? plan.paths[i % plan.paths.length]! : url.pathname + url.search, headers };
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = `bench-${tag}-${i}`;
    const body = JSON.stringify({ store_id: `store-${String(i % plan.outcomes.accounts).padStart(4, '0')}`, action: i % 7 === 0 ? 'won' : 'qualifying', value: i % 7 === 0 ? 1200 : undefined });
    return { ...req, method: plan.method, path: url.pathname, headers, body };
  };
  const r = await new Promise<AutocannonResult>((resolve, reject) => {
    autocannon(
      // sampleInt: the run ends within 0.1 s of its last request (its duration is what the rate divides by).
      { url: url.origin, connections: plan.connections, duration: plan.seconds, ...(perConnection ? { maxConnectionRequests: perConnection } : {}), sampleInt: 100, requests: [{ setupRequest }] },
      (e, result) => (e ? reject(e) : resolve(result)),
    );
  });
  const budgetEnded = budget > 0 && r.duration < plan.seconds - 0.5;
  return {
    rps: r['2xx'] / r.duration,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    seconds: r.duration,
    budgetEnded,
  };
}

// The plan arrives over IPC from the benchmark that forked this module; run alone, it does nothing.
if (process.send) {
  process.once('message', (plan) => {
    loadChild(plan as LoadPlan).then(
      (figures) => process.send!(figures, () => process.exit(0)),
      (e) => {
        process.stderr.write(`bench: api load generator failed: ${(e as Error).stack}\n`);
        process.exit(1);
      },
    );
  });
}
