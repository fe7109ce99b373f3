/**
 * The api benchmark's load generator runs in a child process that takes its plan over IPC (it
 * reads no command line): forked alone, it loads a real server and sends back the figures.
 * Needs `npm run build` (it forks dist/bench/api-load.js, as the benchmark does).
 */
import { fork } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LoadPlan, OpFigures } from '../../src/bench/load.js';

const CHILD = fileURLToPath(new URL('../../dist/bench/api-load.js', import.meta.url));
const seen: { method?: string; url?: string; authorization?: string; idempotencyKey?: string; body: string }[] = [];
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c) => (body += c));
  req.on('end', () => {
    seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, idempotencyKey: req.headers['idempotency-key'] as string, body });
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
let base: string;

beforeAll(async () => {
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

function load(plan: LoadPlan): Promise<OpFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(CHILD, [], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
    let figures: OpFigures | undefined;
    child.on('message', (m) => (figures = m as OpFigures));
    child.on('error', reject);
    child.on('exit', (code) => (figures ? resolve(figures) : reject(new Error(`load child exited with ${code}`))));
    child.send(plan);
  });
}

describe('the api benchmark load generator', () => {
  it('sends the planned POSTs round-robin over the keys, each with a fresh Idempotency-Key, and reports the figures', async () => {
    // Ended by its budget (6 requests: 3 a connection), not by a 1-second run in which a loaded
    // machine might send fewer than the 3 requests every store id needs.
    const figures = await load({ url: `${base}/api/v1/outcomes`, method: 'POST', connections: 2, seconds: 60, keys: ['k1', 'k2'], uses: 4, outcomes: { accounts: 3 } });
    expect(figures.requests).toBe(6);
    expect(figures.requests).toBeGreaterThan(0);
    expect(figures.rps).toBeGreaterThan(0);
    expect(figures.non2xx).toBe(0);
    const posts = seen.filter((r) => r.url === '/api/v1/outcomes');
    expect(posts.length).toBeGreaterThanOrEqual(figures.requests);
    expect(new Set(posts.map((r) => r.authorization))).toEqual(new Set(['Bearer k1', 'Bearer k2']));
    expect(new Set(posts.map((r) => r.idempotencyKey)).size).toBe(posts.length);
    expect(new Set(posts.map((r) => JSON.parse(r.body).store_id))).toEqual(new Set(['store-0000', 'store-0001', 'store-0002']));
  });

  it("stops when the keys' budget is spent: no key is used more than its limit, and the rate is over the time the run really took", async () => {
    seen.length = 0;
    const figures = await load({ url: `${base}/api/v1/accounts`, method: 'GET', connections: 2, seconds: 30, keys: ['a', 'b', 'c'], uses: 40 });
    expect(figures.budgetEnded).toBe(true);
    expect(figures.seconds).toBeLessThan(30);
    const uses = new Map<string, number>();
    for (const r of seen) uses.set(r.authorization!, (uses.get(r.authorization!) ?? 0) + 1);
    expect([...uses.keys()].sort()).toEqual(['Bearer a', 'Bearer b', 'Bearer c']);
    for (const n of uses.values()) expect(n).toBeLessThanOrEqual(40);
    expect(figures.rps).toBeCloseTo(figures.requests / figures.seconds!, -1);
  });
});
