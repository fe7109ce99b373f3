/**
 * The api benchmark's load generator: an entry module that `benchApi` forks (so the load never
 * shares the servers' event loop). It takes one plan over IPC, runs autocannon against it and
 * sends back the figures.
 */
import { createRequire } from 'node:module';
import type { LoadPlan, OpFigures } from './api.js';

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
type Autocannon = (opts: Record<string, unknown>) => Promise<AutocannonResult>;

async function loadChild(plan: LoadPlan): Promise<OpFigures> {
  const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;
  const url = new URL(plan.url);
  let n = 0;
  const tag = `${process.pid}-${Date.now().toString(36)}`;
  const setupRequest = (req: AutocannonRequest): AutocannonRequest => {
    const i = n++;
    // As HTTP clients send it (Node's fetch, browsers, curl --compressed): pages may come gzipped.
    const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate' };
    if (plan.keys) {
      // Round-robin: key k serves requests k, k + K, k + 2K …, so no key passes `uses` until the budget is spent.
      headers.authorization = `Bearer ${plan.keys[i % plan.keys.length]}`;
    }
    if (!plan.outcomes) return { ...req, method: plan.method, path: url.pathname + url.search, headers };
    headers['content-type'] = 'application/json';
    headers['idempotency-key'] = `bench-${tag}-${i}`;
    const body = JSON.stringify({ store_id: `store-${String(i % plan.outcomes.accounts).padStart(4, '0')}`, action: i % 7 === 0 ? 'won' : 'qualifying', value: i % 7 === 0 ? 1200 : undefined });
    return { ...req, method: plan.method, path: url.pathname, headers, body };
  };
  const r = await autocannon({
    url: url.origin,
    connections: plan.connections,
    duration: plan.seconds,
    requests: [{ setupRequest }],
  });
  if (plan.keys && plan.uses && n > plan.keys.length * plan.uses) {
    process.stderr.write(`bench: api: ${n} requests passed the key budget (${plan.keys.length} keys × ${plan.uses}); raise the key count\n`);
  }
  return {
    rps: r['2xx'] / r.duration,
    p99: r.latency.p99,
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
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
