/**
 * The endpoints' messages: a message (webhook_deliveries row) is one event for one endpoint; its
 * id is the `webhook-id` of every attempt, so a redelivery after a crash carries the same id. The
 * fan-out turns outbox rows into messages; a worker claims due messages with a lease
 * (claimed_until_ms, `FOR UPDATE SKIP LOCKED` on PostgreSQL), sends, and records the attempt.
 */
import type { ExpressionBuilder, Kysely } from 'kysely';
import { consecutiveIds, newId } from '../db/ids.js';
import { runBulk } from '../db/prepared.js';
import { lockRows } from '../db/locks.js';
import type { Database } from '../db/database.js';
import type { WebhookAttemptRow, WebhookDeliveryRow, WebhookEndpointRow } from './tables.js';
import { endpointsSentTo, sentTo } from './endpoints-store.js';

/** The events of types the endpoint wants (its list parsed once, not once per event). */
function wantedBy<E extends { type: string }>(ep: Pick<WebhookEndpointRow, 'event_types'>, events: readonly E[]): readonly E[] {
  if (ep.event_types === null) return events;
  const types = new Set(JSON.parse(ep.event_types) as string[]);
  return events.filter((e) => types.has(e.type));
}

/** Reserves `n` sequence numbers of the endpoint; resolves to the first. */
async function reserveSeq(trx: Kysely<Database>, endpointId: string, n: number): Promise<number> {
  const r = await trx
    .updateTable('webhook_endpoints')
    .set((eb) => ({ last_seq: eb('last_seq', '+', n) }))
    .where('id', '=', endpointId)
    .returning('last_seq')
    .executeTakeFirstOrThrow();
  return Number(r.last_seq) - n + 1;
}

interface EventRef {
  id: string;
  type: string;
  created_at: string;
}

async function insertMessages(trx: Kysely<Database>, ep: WebhookEndpointRow, events: readonly EventRef[], nowMs: number): Promise<number> {
  const mine = wantedBy(ep, events);
  if (mine.length === 0) return 0;
  const first = await reserveSeq(trx, ep.id, mine.length);
  // The ids consecutive from a random start, as the outbox's events are (db/ids.ts): each insert
  // then extends one place of the id index rather than touching a random page per message.
  const nextId = consecutiveIds('msg');
  await runBulk(
    trx,
    {
      table: 'webhook_deliveries',
      columns: [['id', 'text'], ['event_id', 'text'], ['event_type', 'text'], ['seq', 'bigint']],
      same: [['workspace_id', 'text', ep.workspace_id], ['endpoint_id', 'text', ep.id], ['next_attempt_ms', 'bigint', nowMs], ['created_ms', 'bigint', nowMs], ['status', 'text', 'pending'], ['attempts', 'integer', 0]],
      conflict: 'on conflict (endpoint_id, event_id) do nothing',
    },
    {
      count: mine.length,
      width: 4,
      fill: (i, row) => {
        row[0] = nextId();
        row[1] = mine[i].id;
        row[2] = mine[i].type;
        row[3] = first + i;
      },
    },
  );
  return mine.length;
}

/**
 * Turns up to `limit` outbox rows not fanned out yet into messages for every live, enabled
 * endpoint of their workspace that wants their type and existed when the event happened; resolves
 * to the number of outbox rows dispatched. A workspace's events are fanned out in their order, by
 * one fan-out at a time, which moves the workspace's cursor (outbox_sequences.dispatched_seq)
 * past them: each holds the workspace's outbox_sequences row, and on PostgreSQL a workspace whose
 * row another transaction holds (a fan-out, or a write whose events are not committed yet) is
 * left for the next turn. Holding the row, every event numbered up to last_seq is committed.
 */
export async function fanOut(trx: Kysely<Database>, dialect: 'sqlite' | 'postgres', now: Date, limit = 500): Promise<number> {
  const waiting = await trx.selectFrom('outbox_sequences').select('workspace_id').whereRef('dispatched_seq', '<', 'last_seq').orderBy('workspace_id').limit(limit).execute();
  let dispatched = 0;
  for (const { workspace_id: workspaceId } of waiting) {
    if (dispatched >= limit) break;
    let mine = trx.selectFrom('outbox_sequences').select(['dispatched_seq', 'last_seq']).where('workspace_id', '=', workspaceId);
    if (dialect === 'postgres') mine = mine.forUpdate().skipLocked();
    const cursor = await mine.executeTakeFirst();
    if (!cursor) continue;
    // The next numbers after the cursor, as a range: a workspace's numbers are handed out without
    // gaps (a rolled-back write gives its numbers back), and a bounded range keeps PostgreSQL from
    // reading every event still to do and sorting them for the first few hundred.
    const from = Number(cursor.dispatched_seq);
    const to = Math.min(from + (limit - dispatched), Number(cursor.last_seq));
    const events = await trx
      .selectFrom('outbox')
      .select(['id', 'seq', 'workspace_id', 'type', 'created_at'])
      .where('workspace_id', '=', workspaceId)
      .where('seq', '>', from)
      .where('seq', '<=', to)
      .orderBy('seq')
      .execute();
    if (events.length > 0) {
      // Locked, so a change or deletion of an endpoint under way is waited for and then seen.
      let live = trx.selectFrom('webhook_endpoints').selectAll().where('workspace_id', '=', workspaceId).where(sentTo).orderBy('id');
      if (dialect === 'postgres') live = live.forNoKeyUpdate();
      for (const ep of await live.execute()) {
        await insertMessages(trx, ep, events.filter((e) => e.created_at >= ep.created_at), now.getTime());
      }
    }
    // Every event numbered in the range was read (the row is held: none is still being written).
    // An empty range (numbers pruned, or from before 0017, when they were times) moves the cursor
    // to just before the next event there is.
    let done = to;
    if (events.length === 0) {
      const next = await trx.selectFrom('outbox').select((eb) => eb.fn.min('seq').as('seq')).where('workspace_id', '=', workspaceId).where('seq', '>', from).executeTakeFirst();
      done = next?.seq === null || next?.seq === undefined ? Number(cursor.last_seq) : Number(next.seq) - 1;
    }
    await trx.updateTable('outbox_sequences').set({ dispatched_seq: done }).where('workspace_id', '=', workspaceId).execute();
    dispatched += events.length;
  }
  return dispatched;
}

/**
 * Schedules again every event of the endpoint's workspace and types created in [since, until]:
 * messages that exist go back to pending (same webhook-id; one being sent goes out again once its
 * lease ends), missing ones are created. Resolves to the number of messages scheduled.
 */
export async function recoverEvents(trx: Kysely<Database>, ep: WebhookEndpointRow, since: string, until: string, now: Date): Promise<number> {
  const events = await trx
    .selectFrom('outbox')
    .select(['id', 'type', 'created_at'])
    .where('workspace_id', '=', ep.workspace_id)
    .where('created_at', '>=', since)
    .where('created_at', '<=', until)
    // Events not fanned out yet get their messages, in order, from the fan-out.
    .where('seq', '<=', (eb) => eb.selectFrom('outbox_sequences').select('dispatched_seq').where('workspace_id', '=', ep.workspace_id))
    .orderBy('seq')
    .execute();
  const mine = wantedBy(ep, events);
  if (mine.length === 0) return 0;
  const existing = new Set<string>();
  for (let i = 0; i < mine.length; i += 500) {
    const rows = await trx
      .selectFrom('webhook_deliveries')
      .select('event_id')
      .where('endpoint_id', '=', ep.id)
      .where('event_id', 'in', mine.slice(i, i + 500).map((e) => e.id))
      .execute();
    for (const r of rows) existing.add(r.event_id);
  }
  const again = mine.filter((e) => existing.has(e.id)).map((e) => e.id);
  for (let i = 0; i < again.length; i += 500) {
    await rescheduleWhere(trx, now).where('endpoint_id', '=', ep.id).where('event_id', 'in', again.slice(i, i + 500)).execute();
  }
  await insertMessages(trx, ep, mine.filter((e) => !existing.has(e.id)), now.getTime());
  return mine.length;
}

/**
 * Messages back to pending, due now, their schedule from the start. A message a worker is sending
 * loses its claim but keeps its lease: that send's outcome is logged and no longer changes the
 * message (recordAttempt), and no second send starts before the lease ends.
 */
const rescheduleWhere = (trx: Kysely<Database>, now: Date) =>
  trx.updateTable('webhook_deliveries').set({ status: 'pending', attempts: 0, next_attempt_ms: now.getTime(), delivered_ms: null, claimed_by: null });

/**
 * Sends one message again now (same webhook-id): `missing` when the endpoint has no such message,
 * `in-flight` while a worker is sending it (its outcome would overwrite the retry). The caller
 * holds the endpoint's row lock, which claims and attempt records take first: the claim read here
 * cannot change before this transaction ends.
 */
export async function retryDelivery(trx: Kysely<Database>, endpointId: string, deliveryId: string, now: Date): Promise<'retried' | 'missing' | 'in-flight'> {
  const d = await trx.selectFrom('webhook_deliveries').select(['status', 'claimed_until_ms']).where('endpoint_id', '=', endpointId).where('id', '=', deliveryId).executeTakeFirst();
  if (!d) return 'missing';
  if (d.status === 'pending' && d.claimed_until_ms !== null && Number(d.claimed_until_ms) > now.getTime()) return 'in-flight';
  await rescheduleWhere(trx, now).where('endpoint_id', '=', endpointId).where('id', '=', deliveryId).execute();
  return 'retried';
}

/** A message with its own body (a test event), due now. */
export async function insertTestMessage(trx: Kysely<Database>, ep: WebhookEndpointRow, payload: (seq: number, eventId: string) => Record<string, unknown>, now: Date): Promise<WebhookDeliveryRow> {
  const seq = await reserveSeq(trx, ep.id, 1);
  const eventId = newId('evt');
  const row: WebhookDeliveryRow = {
    id: newId('msg'),
    workspace_id: ep.workspace_id,
    endpoint_id: ep.id,
    event_id: eventId,
    event_type: 'webhook.test',
    seq,
    payload: JSON.stringify(payload(seq, eventId)),
    status: 'pending',
    attempts: 0,
    next_attempt_ms: now.getTime(),
    claimed_until_ms: null,
    claimed_by: null,
    last_status_code: null,
    last_error: null,
    created_ms: now.getTime(),
    delivered_ms: null,
  };
  await trx.insertInto('webhook_deliveries').values(row).execute();
  return row;
}

/** One message of the endpoint with its attempts, or undefined. */
export async function findDelivery(q: Kysely<Database>, endpointId: string, id: string): Promise<{ delivery: WebhookDeliveryRow; attempts: WebhookAttemptRow[] } | undefined> {
  const delivery = await q.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId).where('id', '=', id).executeTakeFirst();
  if (!delivery) return undefined;
  return { delivery, attempts: await q.selectFrom('webhook_attempts').selectAll().where('delivery_id', '=', id).orderBy('attempt').execute() };
}

/** A page of the endpoint's messages, newest first, after (created_ms, id) — with their attempts. */
export async function listDeliveries(
  q: Kysely<Database>,
  endpointId: string,
  limit: number,
  after?: { created_ms: number; id: string },
): Promise<{ delivery: WebhookDeliveryRow; attempts: WebhookAttemptRow[] }[]> {
  let query = q.selectFrom('webhook_deliveries').selectAll().where('endpoint_id', '=', endpointId);
  if (after) query = query.where((eb) => eb.or([eb('created_ms', '<', after.created_ms), eb.and([eb('created_ms', '=', after.created_ms), eb('id', '<', after.id)])]));
  const rows = await query.orderBy('created_ms', 'desc').orderBy('id', 'desc').limit(limit).execute();
  const attempts = rows.length
    ? await q.selectFrom('webhook_attempts').selectAll().where('delivery_id', 'in', rows.map((r) => r.id)).orderBy('attempt').execute()
    : [];
  return rows.map((delivery) => ({ delivery, attempts: attempts.filter((a) => a.delivery_id === delivery.id) }));
}

/** A claimed message with what sending it needs. */
export interface ClaimedMessage {
  delivery: WebhookDeliveryRow;
  endpoint: WebhookEndpointRow;
  /** The outbox row (absent for a message with its own payload). */
  event?: { id: string; type: string; created_at: string; workspace_id: string; data: string };
}

/** Whether fanOut() has anything to do (a read: an idle worker opens no write transaction). */
export async function hasUndispatched(q: Kysely<Database>): Promise<boolean> {
  return (await q.selectFrom('outbox_sequences').select('workspace_id').whereRef('dispatched_seq', '<', 'last_seq').limit(1).executeTakeFirst()) !== undefined;
}

/**
 * Whether some message is due and unclaimed at `nowMs` (a read, before claimDue's write), of an
 * endpoint that is sent to. A deleted or disabled endpoint's message stays pending (a disabled
 * one's goes out once it is enabled again) but claimDue takes none: counted here, it made every
 * turn open a write transaction for nothing, for ever.
 */
export async function hasDue(q: Kysely<Database>, nowMs: number): Promise<boolean> {
  const row = await q
    .selectFrom('webhook_deliveries')
    .select('id')
    .where('status', '=', 'pending')
    .where('next_attempt_ms', '<=', nowMs)
    .where((eb) => eb.or([eb('claimed_until_ms', 'is', null), eb('claimed_until_ms', '<=', nowMs)]))
    .where('endpoint_id', 'in', endpointsSentTo(q))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Claims up to `limit` due messages for `workerId` until `leaseUntilMs`, at most `perEndpoint`
 * in flight per endpoint across all workers, and one while the endpoint's latest attempt failed;
 * with `perWorkspace`, at most that many of this worker's sends per workspace. The endpoints with due messages are locked first
 * (on PostgreSQL `FOR UPDATE SKIP LOCKED`: an endpoint another worker is claiming for is left to
 * it), so an endpoint's messages in flight are counted and claimed by one worker at a time; on
 * SQLite the single writer does the same.
 */
export async function claimDue(
  trx: Kysely<Database>,
  dialect: 'sqlite' | 'postgres',
  o: {
    nowMs: number;
    leaseUntilMs: number;
    workerId: string;
    limit: number;
    perEndpoint: number;
    /** At most this many of the claiming worker's sends per workspace, counting `sending` (its sends in flight, by workspace). */
    perWorkspace?: number;
    sending?: ReadonlyMap<string, number>;
  },
): Promise<string[]> {
  const due = (q: Kysely<Database>) =>
    q
      .selectFrom('webhook_deliveries')
      .where('status', '=', 'pending')
      .where('next_attempt_ms', '<=', o.nowMs)
      .where((eb) => eb.or([eb('claimed_until_ms', 'is', null), eb('claimed_until_ms', '<=', o.nowMs)]));
  let endpoints = trx
    .selectFrom('webhook_endpoints')
    .select(['id', 'workspace_id', 'failing_since_ms'])
    .where(sentTo)
    .where('id', 'in', due(trx).select('endpoint_id'))
    .orderBy('id');
  if (dialect === 'postgres') endpoints = endpoints.forNoKeyUpdate().skipLocked();
  const locked = await endpoints.execute();
  if (locked.length === 0) return [];
  const mine = locked.map((e) => e.id);
  // An endpoint whose latest attempt failed (a receiver down, or one that never answers) has one
  // message in flight until an attempt succeeds: at four each, sixteen such endpoints with a
  // backlog took every send of a worker, 15 s a turn, and every other endpoint waited behind them.
  const cap = new Map(locked.map((e) => [e.id, e.failing_since_ms === null ? o.perEndpoint : 1]));
  // A workspace's share of this worker's sends: receivers that take their time to answer 2xx,
  // sixteen endpoints of one workspace, took all of them, 15 s a turn, while other workspaces'
  // messages waited behind that workspace's backlog.
  const workspaceOf = new Map(locked.map((e) => [e.id, e.workspace_id]));
  const sending = new Map(o.sending);
  const roomIn = (endpointId: string) => o.perWorkspace === undefined || (sending.get(workspaceOf.get(endpointId)!) ?? 0) < o.perWorkspace;
  const inflight = await trx
    .selectFrom('webhook_deliveries')
    .select(['endpoint_id', (eb) => eb.fn.countAll<number>().as('n')])
    .where('endpoint_id', 'in', mine)
    .where('status', '=', 'pending')
    .where('claimed_until_ms', '>', o.nowMs)
    .groupBy('endpoint_id')
    .execute();
  const busy = new Map(inflight.map((r) => [r.endpoint_id, Number(r.n)]));
  const open = mine.filter((id) => (busy.get(id) ?? 0) < cap.get(id)! && roomIn(id));
  if (open.length === 0) return [];
  const candidates = await due(trx).select(['id', 'endpoint_id']).where('endpoint_id', 'in', open).orderBy('next_attempt_ms').orderBy('seq').limit(o.limit * 4).execute();
  const picked: string[] = [];
  for (const c of candidates) {
    if (picked.length >= o.limit) break;
    const n = busy.get(c.endpoint_id) ?? 0;
    if (n >= cap.get(c.endpoint_id)! || !roomIn(c.endpoint_id)) continue;
    busy.set(c.endpoint_id, n + 1);
    const ws = workspaceOf.get(c.endpoint_id)!;
    sending.set(ws, (sending.get(ws) ?? 0) + 1);
    picked.push(c.id);
  }
  if (picked.length) {
    await trx.updateTable('webhook_deliveries').set({ claimed_until_ms: o.leaseUntilMs, claimed_by: o.workerId }).where('id', 'in', picked).execute();
  }
  return picked;
}

/** The claimed messages with their endpoints and events (read after the claim committed). */
export async function loadClaimed(q: Kysely<Database>, ids: readonly string[]): Promise<ClaimedMessage[]> {
  if (ids.length === 0) return [];
  const deliveries = await q.selectFrom('webhook_deliveries').selectAll().where('id', 'in', [...ids]).execute();
  const endpoints = await q.selectFrom('webhook_endpoints').selectAll().where('id', 'in', [...new Set(deliveries.map((d) => d.endpoint_id))]).execute();
  const eventIds = deliveries.filter((d) => d.payload === null).map((d) => d.event_id);
  const events = eventIds.length
    ? await q.selectFrom('outbox').select(['id', 'type', 'created_at', 'workspace_id', 'data']).where('id', 'in', [...new Set(eventIds)]).execute()
    : [];
  const epById = new Map(endpoints.map((e) => [e.id, e]));
  const evById = new Map(events.map((e) => [e.id, e]));
  return deliveries.map((d) => ({ delivery: d, endpoint: epById.get(d.endpoint_id)!, event: evById.get(d.event_id) }));
}

export interface AttemptOutcome {
  startedMs: number;
  durationMs: number;
  statusCode: number | null;
  error: string | null;
  /** delivered; gone (410: the endpoint is disabled); failed (retry per schedule). */
  result: 'delivered' | 'gone' | 'failed';
  /** When failed: the next attempt's time, or null when the schedule is exhausted. */
  nextAttemptMs: number | null;
}

/** How long an endpoint may fail every attempt before it is disabled. */
export const DISABLE_AFTER_MS = 5 * 24 * 3600_000;
/**
 * The longest pause between two failures of one streak: more than the longest wait of the retry
 * schedule with its jitter (10 h + 10%) and than a Retry-After is honoured (10 h), so an endpoint
 * that is down keeps its streak while its messages are retried; a failure after a longer quiet
 * time (no event, no retry due, or no worker running) starts a new streak.
 */
export const STREAK_GAP_MS = 12 * 3600_000;

/** When the streak of failures a failure at `nowMs` belongs to began: then, unless it continues one (the last failure at most STREAK_GAP_MS before). */
export function streakStart(ep: Pick<WebhookEndpointRow, 'failing_since_ms' | 'last_failure_ms'>, nowMs: number): number {
  if (ep.failing_since_ms === null || ep.last_failure_ms === null || nowMs - Number(ep.last_failure_ms) > STREAK_GAP_MS) return nowMs;
  return Number(ep.failing_since_ms);
}

/**
 * Records an attempt and moves the message on. Only the worker holding the claim updates the
 * message (a worker whose lease ran out logs its attempt but changes nothing else).
 */
export async function recordAttempt(trx: Kysely<Database>, d: WebhookDeliveryRow, workerId: string, o: AttemptOutcome, nowMs: number): Promise<void> {
  // The endpoint row first, as claimDue locks it before the messages: a claim of this message
  // (its lease ran out) and this record then wait for each other in one order, never in a cycle.
  await lockRows(trx, 'webhook_endpoints', { id: d.endpoint_id });
  const prev = await trx.selectFrom('webhook_attempts').select((eb) => eb.fn.max<number>('attempt').as('n')).where('delivery_id', '=', d.id).executeTakeFirst();
  await trx
    .insertInto('webhook_attempts')
    .values({
      id: newId('att'),
      delivery_id: d.id,
      attempt: Number(prev?.n ?? 0) + 1,
      started_ms: o.startedMs,
      duration_ms: Math.round(o.durationMs),
      status_code: o.statusCode,
      error: o.error,
      next_retry_ms: o.result === 'failed' ? o.nextAttemptMs : null,
    })
    .execute();
  const common = { claimed_until_ms: null, claimed_by: null, last_status_code: o.statusCode, last_error: o.error, attempts: d.attempts + 1 };
  const status = o.result === 'delivered' ? 'delivered' : o.result === 'failed' && o.nextAttemptMs !== null ? 'pending' : 'failed';
  const r = await trx
    .updateTable('webhook_deliveries')
    .set({ ...common, status, delivered_ms: o.result === 'delivered' ? nowMs : null, next_attempt_ms: o.nextAttemptMs ?? d.next_attempt_ms })
    .where('id', '=', d.id)
    .where('claimed_by', '=', workerId)
    .executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return;
  const iso = new Date(nowMs).toISOString();
  if (o.result === 'delivered') {
    await trx.updateTable('webhook_endpoints').set({ failing_since_ms: null }).where('id', '=', d.endpoint_id).where('failing_since_ms', 'is not', null).execute();
  } else if (o.result === 'gone') {
    await disable(trx, d.endpoint_id, iso, 'the receiver answered 410 Gone');
  } else {
    const ep = await trx.selectFrom('webhook_endpoints').select(['failing_since_ms', 'last_failure_ms']).where('id', '=', d.endpoint_id).executeTakeFirstOrThrow();
    const since = streakStart(ep, nowMs);
    await trx.updateTable('webhook_endpoints').set({ failing_since_ms: since, last_failure_ms: nowMs }).where('id', '=', d.endpoint_id).execute();
    if (nowMs - since >= DISABLE_AFTER_MS) {
      await disable(trx, d.endpoint_id, iso, `every delivery failed for 5 days (since ${new Date(since).toISOString()}; last: ${o.error ?? `HTTP ${o.statusCode}`})`);
    }
  }
}

async function disable(trx: Kysely<Database>, endpointId: string, iso: string, reason: string): Promise<void> {
  await trx.updateTable('webhook_endpoints').set({ disabled_at: iso, disabled_reason: reason }).where('id', '=', endpointId).where('disabled_at', 'is', null).execute();
}

/**
 * Retention: messages, attempts and dispatched events older than `beforeMs`. Pending messages
 * stay, but a deleted endpoint's: nothing will send them (before, they were kept for ever).
 */
export async function pruneDeliveries(trx: Kysely<Database>, beforeMs: number): Promise<void> {
  const expired = (eb: ExpressionBuilder<Database, 'webhook_deliveries'>) =>
    eb.and([
      eb('created_ms', '<', beforeMs),
      eb.or([eb('status', '!=', 'pending'), eb('endpoint_id', 'in', eb.selectFrom('webhook_endpoints').select('id').where('deleted_at', 'is not', null))]),
    ]);
  await trx.deleteFrom('webhook_attempts').where('delivery_id', 'in', trx.selectFrom('webhook_deliveries').select('id').where(expired)).execute();
  await trx.deleteFrom('webhook_deliveries').where(expired).execute();
  await trx
    .deleteFrom('outbox')
    .where('created_at', '<', new Date(beforeMs).toISOString())
    .where('seq', '<=', (eb) => eb.selectFrom('outbox_sequences as s').select('s.dispatched_seq').whereRef('s.workspace_id', '=', 'outbox.workspace_id'))
    .execute();
}
