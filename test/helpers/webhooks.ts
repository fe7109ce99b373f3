/** A real api server with webhooks over a fresh database, a receiver resolver and deliverers driven by the test. */
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApiApp } from '../../src/compose/api-app.js';
import type { Db } from '../../src/compose/database.js';
import { appendUncheckedEvents, type NewEvent } from '../../src/webhooks/outbox.js';
import type { EventType } from '../../src/compose/events.js';
import { createDeliverer, type Deliverer, type DelivererOptions } from '../../src/webhooks/deliver.js';
import type { OutboundRuntime } from '../../src/outbound/runtime.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import type { ResolvedAddress } from '../../src/outbound/ssrf.js';
import { apiKey, type Clock, fakeClock, workspace } from './api.js';
import { type DialectName, freshDb, type TestDb } from './db.js';
import { selfSigned } from './receiver.js';

export interface WebhookHarness {
  t: TestDb;
  db: Db;
  app: FastifyInstance;
  base: string;
  clock: Clock;
  runtime: OutboundRuntime;
  /** Name → addresses the guard sees (change it to simulate DNS changes). */
  dns: Map<string, string[]>;
  /** Names whose resolution never answers (a resolver that hangs), whatever `dns` says. */
  hang: Set<string>;
  wsId: string;
  key: string;
  deliverer(o?: Partial<DelivererOptions>): Deliverer;
  /** Appends events in one transaction (as a change would). */
  emit(events: { type: EventType; data?: Record<string, unknown> }[], wsId?: string): Promise<void>;
  close(): Promise<void>;
}

export async function startWebhooks(dialect: DialectName, o: { allowLocal?: boolean; poolSize?: number; resolveTimeoutMs?: number } = {}): Promise<WebhookHarness> {
  const t = await freshDb(dialect, { poolSize: o.poolSize });
  // The scheduling clock starts at the real time (signatures carry real time: see deliver.ts).
  const clock = fakeClock(new Date().toISOString());
  const dns = new Map<string, string[]>([['hooks.test', ['127.0.0.1']]]);
  const hang = new Set<string>();
  const resolve = async (host: string): Promise<ResolvedAddress[]> => {
    if (hang.has(host)) return new Promise<never>(() => undefined);
    const a = dns.get(host);
    if (!a) throw new Error(`ENOTFOUND ${host}`);
    return a.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
  };
  const runtime = await webhookRuntime(t.db.kysely, { allowLocal: o.allowLocal ?? true, resolve, resolveTimeoutMs: o.resolveTimeoutMs });
  const app = await buildApiApp({ db: t.db, now: clock.now, outbound: runtime, rateLimits: { read: 100_000, write: 100_000 }, validateResponses: true });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const ws = await workspace(t.db);
  const key = await apiKey(t.db, ws.id, ['manage:webhooks']);
  const deliverers: Deliverer[] = [];
  return {
    t,
    db: t.db,
    app,
    base: `http://127.0.0.1:${port}/api/v1`,
    clock,
    runtime,
    dns,
    hang,
    wsId: ws.id,
    key,
    deliverer(opts = {}) {
      const d = createDeliverer(t.db, { now: clock.now, box: runtime.box, guard: runtime.guard, ca: selfSigned().cert, random: () => 0.5, ...opts });
      deliverers.push(d);
      return d;
    },
    async emit(events, wsId = ws.id) {
      const rows: NewEvent[] = events.map((e) => ({ workspace_id: wsId, type: e.type, data: e.data ?? {} }));
      await t.db.write((trx) => appendUncheckedEvents(trx, rows, clock.now()));
    },
    async close() {
      for (const d of deliverers) d.abandon();
      // A pump under way finishes (without another query) before the database closes.
      await Promise.all(deliverers.map((d) => d.stop()));
      await app.close();
      await t.cleanup();
    },
  };
}

/** Pumps and waits until a pump starts nothing (everything due is sent and recorded). */
export async function settle(d: Deliverer, maxRounds = 100): Promise<void> {
  for (let i = 0; i < maxRounds; i++) {
    const n = await d.pump();
    await d.drain();
    if (n === 0) return;
  }
  throw new Error('deliveries did not settle');
}
