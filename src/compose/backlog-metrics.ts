/**
 * The gauges of a process over the workspace database (ops/metrics.ts computes them when
 * scraped): what is waiting to go out — webhook messages of the endpoints still sent to and the
 * age of the oldest, outbox events not yet fanned out to endpoints, outreach steps left
 * `sending` — and the database's connections. The three counts are read once per scrape (one read shared by its gauges).
 */
import { sql } from 'kysely';
import type { GaugeSpec } from '../ops/metrics.js';
import type { Db } from './database.js';
import { endpointsSentTo } from '../webhooks/endpoints-store.js';

interface Backlog {
  pending: number;
  oldestPendingMs: number | null;
  undispatched: number;
  oldestUndispatched: string | null;
  sending: number;
}

async function readBacklog(db: Db): Promise<Backlog> {
  const q = db.kysely;
  const [deliveries, outbox, steps] = await Promise.all([
    // A deleted or disabled endpoint's messages stay pending but wait for nothing a worker can do.
    q
      .selectFrom('webhook_deliveries')
      .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.min('created_ms').as('oldest')])
      .where('status', '=', 'pending')
      .where('endpoint_id', 'in', endpointsSentTo(q))
      .executeTakeFirstOrThrow(),
    sql<{ n: number; oldest: string | null }>`select count(*) as n, min(o.created_at) as oldest from outbox_sequences s join outbox o on o.workspace_id = s.workspace_id and o.seq > s.dispatched_seq where s.dispatched_seq < s.last_seq`.execute(q),
    sql<{ n: number }>`select count(*) as n from outreach_steps where status = 'sending'`.execute(q),
  ]);
  const d = deliveries;
  const o = outbox.rows[0]!;
  return { pending: Number(d.n), oldestPendingMs: d.oldest === null ? null : Number(d.oldest), undispatched: Number(o.n), oldestUndispatched: o.oldest, sending: Number(steps.rows[0]!.n) };
}

export function backlogGauges(db: Db, now: () => Date): GaugeSpec[] {
  let read: { at: number; backlog: Promise<Backlog> } | undefined;
  // One read per scrape: the gauges of one scrape are collected within the same moment.
  const backlog = () => {
    const at = Date.now();
    if (!read || at - read.at > 1_000) read = { at, backlog: readBacklog(db) };
    return read.backlog;
  };
  const age = (ms: number | null) => (ms === null ? 0 : Math.max(0, (now().getTime() - ms) / 1000));
  return [
    { name: 'storelens_webhook_messages_pending', help: 'Webhook messages not yet delivered (due now or waiting for a retry), all enabled endpoints.', collect: async () => (await backlog()).pending },
    { name: 'storelens_webhook_oldest_pending_age_seconds', help: 'Age of the oldest webhook message not yet delivered (0 when none is).', collect: async () => age((await backlog()).oldestPendingMs) },
    { name: 'storelens_outbox_undispatched_events', help: 'Events written but not yet fanned out into webhook messages.', collect: async () => (await backlog()).undispatched },
    {
      name: 'storelens_outbox_lag_seconds',
      help: 'Age of the oldest event not yet fanned out into webhook messages (0 when none is).',
      collect: async () => {
        const oldest = (await backlog()).oldestUndispatched;
        return oldest === null ? 0 : age(Date.parse(oldest));
      },
    },
    { name: 'storelens_outreach_steps_sending', help: 'Outreach steps charged and being posted to a sender, not yet sent or failed.', collect: async () => (await backlog()).sending },
    {
      name: 'storelens_db_pool_connections',
      help: 'Connections of this process to the database, by state (SQLite: its one connection).',
      labelNames: ['state'],
      // The scrape's own reads (the backlog above, the readiness check) are not the process's load.
      beforeOthers: true,
      collect: () => {
        const p = db.pool();
        return [
          { labels: { state: 'idle' }, value: p.idle },
          { labels: { state: 'busy' }, value: p.size - p.idle },
        ];
      },
    },
    { name: 'storelens_db_pool_waiting', help: 'Callers waiting for a database connection (SQLite: writes queued for the next group commit).', collect: () => db.pool().waiting, beforeOthers: true },
  ];
}
