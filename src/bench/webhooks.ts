/**
 * The webhook benchmark: deliveries per second from the outbox to a local receiver (a child
 * process) with one worker and with two (each its own database connection, as two processes
 * would have), and the time from the commit of a change to the receiver getting its message
 * while changes commit at 500 events/s. SQLite in a temporary folder; plain http on loopback
 * (the local-development setting), so TLS handshakes are not part of the figures.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { openDatabase, type Db } from '../compose/database.js';
import { appendUncheckedEvents } from '../webhooks/outbox.js';
import { insertWebhookEndpoint } from '../webhooks/endpoints-store.js';
import { createWorkspace } from '../workspaces/store.js';
import { createDeliverer, type Deliverer } from '../webhooks/deliver.js';
import type { OutboundRuntime } from '../outbound/runtime.js';
import { webhookRuntime } from '../webhooks/runtime.js';
import { newSigningSecret } from '../outbound/secrets.js';

export interface WebhookBenchResult {
  endpoints: number;
  messages: number;
  oneWorker: number;
  twoWorkers: number;
  rate: number;
  seconds: number;
  latency: { p50: number; p99: number; max: number; messages: number };
}

interface Receiver {
  url: string;
  arrivals(): Promise<[string, number, string][]>;
  stop(): void;
}

async function startReceiver(): Promise<Receiver> {
  const entry = fileURLToPath(new URL('./webhook-receiver.js', import.meta.url));
  const child: ChildProcess = fork(entry, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m) => resolve((m as { port: number }).port));
    child.once('error', reject);
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    arrivals: () =>
      new Promise((resolve) => {
        child.once('message', (m) => resolve((m as { arrivals: [string, number, string][] }).arrivals));
        child.send({ type: 'arrivals' });
      }),
    stop: () => void child.send({ type: 'stop' }),
  };
}

interface Setup {
  dir: string;
  db: Db;
  runtime: OutboundRuntime;
  workspaceId: string;
}

async function setup(receiver: Receiver, endpoints: number): Promise<Setup> {
  const dir = mkdtempSync(join(tmpdir(), 'storelens-bench-webhooks-'));
  const db = await openDatabase({ dbPath: join(dir, 'bench.db') });
  const runtime = await webhookRuntime(db.kysely, { allowLocal: true });
  const ws = await createWorkspace(db.kysely, 'bench', new Date(Date.now() - 60_000));
  for (let i = 0; i < endpoints; i++) {
    await insertWebhookEndpoint(db.kysely, ws.id, { url: `${receiver.url}/${i}`, sealedSecret: runtime.box.seal(newSigningSecret()) }, new Date(Date.now() - 60_000));
  }
  return { dir, db, runtime, workspaceId: ws.id };
}

/** A worker as the server runs one: pumps on a timer and whenever a send settles. */
function runWorker(db: Db, runtime: OutboundRuntime, everyMs: number): { deliverer: Deliverer; kick(): void; stop(): Promise<void> } {
  let pumping = false;
  let again = false;
  const kick = () => {
    if (pumping) {
      again = true;
      return;
    }
    pumping = true;
    void deliverer
      .pump()
      .catch(() => undefined)
      .finally(() => {
        pumping = false;
        if (again) {
          again = false;
          kick();
        }
      });
  };
  const deliverer = createDeliverer(db, { now: () => new Date(), box: runtime.box, guard: runtime.guard, onSettled: kick });
  const timer = setInterval(kick, everyMs);
  return {
    deliverer,
    kick,
    stop: async () => {
      clearInterval(timer);
      await deliverer.stop();
    },
  };
}

async function throughput(receiver: Receiver, workers: number, events: number, endpoints: number): Promise<number> {
  const s = await setup(receiver, endpoints);
  const extra: Db[] = [];
  try {
    for (let i = 0; i < events; i += 500) {
      const n = Math.min(500, events - i);
      await s.db.write((trx) => appendUncheckedEvents(trx, Array.from({ length: n }, (_, j) => ({ workspace_id: s.workspaceId, type: 'store.signal' as const, data: { i: i + j } })), new Date()));
    }
    await receiver.arrivals();
    const dbs = [s.db];
    for (let i = 1; i < workers; i++) {
      const other = await openDatabase({ dbPath: join(s.dir, 'bench.db') });
      extra.push(other);
      dbs.push(other);
    }
    const started = performance.now();
    const running = dbs.map((db) => runWorker(db, s.runtime, 250));
    for (const r of running) r.kick();
    let got = 0;
    while (got < events * endpoints) {
      await new Promise((r) => setTimeout(r, 20));
      got += (await receiver.arrivals()).length;
    }
    const seconds = (performance.now() - started) / 1000;
    for (const r of running) await r.stop();
    return got / seconds;
  } finally {
    for (const db of extra) await db.close();
    await s.db.close();
    rmSync(s.dir, { recursive: true, force: true });
  }
}

async function latency(receiver: Receiver, rate: number, seconds: number): Promise<WebhookBenchResult['latency']> {
  const s = await setup(receiver, 1);
  try {
    await receiver.arrivals();
    const worker = runWorker(s.db, s.runtime, 250);
    const committed = new Map<string, number>();
    const batch = Math.max(1, Math.round(rate / 50)); // every 20 ms
    const total = rate * seconds;
    let sent = 0;
    const t0 = performance.now();
    while (sent < total) {
      const due = Math.min(total, Math.floor(((performance.now() - t0) / 1000) * rate) + batch);
      const tokens: string[] = [];
      for (; sent < due; sent++) tokens.push(`t${sent}`);
      if (tokens.length) {
        await s.db.write((trx) => appendUncheckedEvents(trx, tokens.map((token) => ({ workspace_id: s.workspaceId, type: 'deal.updated' as const, data: { token } })), new Date()));
        const at = Date.now();
        for (const t of tokens) committed.set(t, at);
        worker.kick(); // as the api's onWrite does after a commit
      }
      await new Promise((r) => setTimeout(r, 20));
    }
    const arrivals: [string, number, string][] = [];
    const deadline = Date.now() + 30_000;
    while (arrivals.length < total && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      arrivals.push(...(await receiver.arrivals()));
    }
    await worker.stop();
    const lat = arrivals.map(([, at, token]) => at - committed.get(token)!).filter((x) => Number.isFinite(x)).sort((a, b) => a - b);
    const q = (p: number) => lat[Math.min(lat.length - 1, Math.floor(p * lat.length))] ?? NaN;
    return { p50: q(0.5), p99: q(0.99), max: lat.at(-1) ?? NaN, messages: lat.length };
  } finally {
    await s.db.close();
    rmSync(s.dir, { recursive: true, force: true });
  }
}

export async function benchWebhooks(log: (line: string) => void, o: { events?: number; endpoints?: number; rate?: number; seconds?: number } = {}): Promise<WebhookBenchResult> {
  const events = o.events ?? 2_000;
  const endpoints = o.endpoints ?? 4;
  const rate = o.rate ?? 500;
  const seconds = o.seconds ?? 10;
  const receiver = await startReceiver();
  try {
    log(`webhooks: ${events} events × ${endpoints} endpoints with one worker`);
    const oneWorker = await throughput(receiver, 1, events, endpoints);
    log(`webhooks: the same with two workers`);
    const twoWorkers = await throughput(receiver, 2, events, endpoints);
    log(`webhooks: commit → receipt at ${rate} events/s for ${seconds} s`);
    const lat = await latency(receiver, rate, seconds);
    return { endpoints, messages: events * endpoints, oneWorker, twoWorkers, rate, seconds, latency: lat };
  } finally {
    receiver.stop();
  }
}
