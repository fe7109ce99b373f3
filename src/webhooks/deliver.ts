/**
 * The delivery worker: fans outbox events out into messages, claims due messages with a lease,
 * POSTs each to its endpoint signed per Standard Webhooks, and records the attempt. Sends run
 * concurrently off the worker loop (pump() only starts them), at most PER_ENDPOINT at once per
 * endpoint (one while its latest attempt failed: claimDue) and half of maxInFlight per workspace,
 * so one slow or dead endpoint never delays the others, nor do many that are down, nor one
 * workspace's many slow receivers other workspaces' messages.
 *
 * At-least-once: a message is marked only after its answer; a worker that dies mid-send leaves
 * the lease to run out and the next claim sends it again with the same `webhook-id`.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/database.js';
import {
  type AttemptOutcome,
  type ClaimedMessage,
  claimDue,
  fanOut,
  hasDue,
  hasUndispatched,
  loadClaimed,
  pruneDeliveries,
  recordAttempt,
} from './messages-store.js';
import type { WebhookEndpointRow } from './tables.js';
import type { SecretBox } from '../outbound/secrets.js';
import { send, type SendResult, signatureHeader } from '../outbound/send.js';
import { checkTarget, type GuardOptions, RefusedTarget } from '../outbound/ssrf.js';


/** Waits after the first, second, … failed attempt; after the last the message is failed. */
export const RETRY_SCHEDULE_MS = [5_000, 5 * 60_000, 30 * 60_000, 2 * 3600_000, 5 * 3600_000, 10 * 3600_000, 10 * 3600_000] as const;
/** ± this share of each wait, at random, so retries of many messages spread out. */
export const JITTER = 0.1;
/** A receiver's Retry-After is honoured up to this. */
export const RETRY_AFTER_CAP_MS = 10 * 3600_000;
/** A claim's lease: long enough for an attempt (at most SEND_TIMEOUT_MS, name resolution included) and its record; after it another worker may send again. */
export const LEASE_MS = 60_000;
export const PER_ENDPOINT = 4;
export const RETENTION_MS = 30 * 24 * 3600_000;
/** How long the previous secret still signs after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;

export interface DelivererOptions {
  now: () => Date;
  box: SecretBox;
  guard: GuardOptions;
  /** Extra trusted CA certificates (tests' self-signed receivers). */
  ca?: string | Buffer;
  /** Most sends in flight in this process. */
  maxInFlight?: number;
  perEndpoint?: number;
  /** Most sends in flight in this process for one workspace (default half of maxInFlight), so other workspaces always have sends left. */
  perWorkspace?: number;
  /** A name for the claims of this worker (default: random). */
  workerId?: string;
  /** Told when a send settles (the worker loop pumps again: more may be due). */
  onSettled?: () => void;
  log?: (line: string) => void;
  random?: () => number;
}

export interface Deliverer {
  /** Fans out new events, claims due messages and starts sending them; resolves (to how many it started) once started. */
  pump(): Promise<number>;
  /** Sends in flight. */
  readonly inFlight: number;
  /** Resolves once every send in flight is recorded. */
  drain(): Promise<void>;
  /** Stops claiming: no pump starts a query after it; resolves once the pumps under way and every send in flight are done and recorded. */
  stop(): Promise<void>;
  /** Simulates a crash: drops every send in flight without recording it (tests; stop() after it waits for the pumps alone). */
  abandon(): void;
}

/** The secrets that sign now: the current one, and the previous one during the rotation overlap. */
export function signingSecrets(ep: WebhookEndpointRow, box: SecretBox, nowMs: number): string[] {
  const out = [box.open(ep.secret)];
  if (ep.previous_secret !== null && ep.previous_secret_until_ms !== null && nowMs < Number(ep.previous_secret_until_ms)) out.push(box.open(ep.previous_secret));
  return out;
}

/** The wait before the attempt after `failed` failures (0-based index into the schedule), or null when none is left. */
export function nextWaitMs(failed: number, retryAfterMs: number | null, random: () => number): number | null {
  if (failed >= RETRY_SCHEDULE_MS.length) return null;
  const base = RETRY_SCHEDULE_MS[failed] * (1 + JITTER * (2 * random() - 1));
  return Math.round(Math.max(base, Math.min(retryAfterMs ?? 0, RETRY_AFTER_CAP_MS)));
}

/** The JSON body of a message: `{id, type, created_at, workspace_id, sequence, data}`. */
export function messageBody(m: ClaimedMessage): string | undefined {
  if (m.delivery.payload !== null) return m.delivery.payload;
  if (!m.event) return undefined;
  return `{"id":${JSON.stringify(m.event.id)},"type":${JSON.stringify(m.event.type)},"created_at":${JSON.stringify(m.event.created_at)},"workspace_id":${JSON.stringify(m.event.workspace_id)},"sequence":${Number(m.delivery.seq)},"data":${m.event.data}}`;
}

export function createDeliverer(db: Db, opts: DelivererOptions): Deliverer {
  const workerId = opts.workerId ?? `wkr_${randomBytes(6).toString('hex')}`;
  const maxInFlight = opts.maxInFlight ?? 64;
  const perEndpoint = opts.perEndpoint ?? PER_ENDPOINT;
  const perWorkspace = opts.perWorkspace ?? Math.max(perEndpoint, Math.floor(maxInFlight / 2));
  const random = opts.random ?? Math.random;
  const log = opts.log ?? (() => undefined);
  const inFlight = new Set<Promise<void>>();
  /** Sends in flight by workspace (claimDue keeps each within perWorkspace). */
  const sending = new Map<string, number>();
  /** Pumps under way (a caller may start the next before the last resolves). */
  const pumps = new Set<Promise<number>>();
  let stopped = false;
  let abandoned = false;
  let nextPrune = 0;

  const attempt = async (m: ClaimedMessage): Promise<void> => {
    const startedMs = opts.now().getTime();
    const started = performance.now();
    const body = messageBody(m);
    let r: SendResult;
    if (body === undefined) r = { statusCode: null, error: 'the event is no longer kept (retention)', retryAfterMs: null };
    else {
      try {
        // One deadline for the attempt: the time resolving the host took comes off the send's (startedAt).
        const target = await checkTarget(m.endpoint.url, opts.guard);
        // webhook-timestamp is the real time of sending: receivers compare it with their clock.
        const ts = Math.floor(Date.now() / 1000);
        const headers = {
          'webhook-id': m.delivery.id,
          'webhook-timestamp': String(ts),
          'webhook-signature': signatureHeader(signingSecrets(m.endpoint, opts.box, startedMs), m.delivery.id, ts, body),
          'webhook-sequence': String(m.delivery.seq),
        };
        r = await send(target, body, headers, { ca: opts.ca, nowMs: startedMs, startedAt: started });
      } catch (e) {
        r = { statusCode: null, error: e instanceof RefusedTarget ? `refused: ${e.message}` : (e as Error).message, retryAfterMs: null };
      }
    }
    if (abandoned) return;
    const nowMs = opts.now().getTime();
    const ok = r.statusCode !== null && r.statusCode >= 200 && r.statusCode < 300;
    const gone = r.statusCode === 410;
    const wait = ok || gone || body === undefined ? null : nextWaitMs(m.delivery.attempts, r.retryAfterMs, random);
    const outcome: AttemptOutcome = {
      startedMs,
      durationMs: performance.now() - started,
      statusCode: r.statusCode,
      error: r.error,
      result: ok ? 'delivered' : gone ? 'gone' : 'failed',
      nextAttemptMs: wait === null ? null : nowMs + wait,
    };
    await db.write((trx) => recordAttempt(trx, m.delivery, workerId, outcome, nowMs));
  };

  const start = (m: ClaimedMessage) => {
    const ws = m.delivery.workspace_id;
    sending.set(ws, (sending.get(ws) ?? 0) + 1);
    const p: Promise<void> = attempt(m)
      .catch((e) => log(`recording delivery ${m.delivery.id} failed (its lease runs out and it is sent again): ${(e as Error).message}`))
      .finally(() => {
        inFlight.delete(p);
        if (sending.get(ws) === 1) sending.delete(ws);
        else sending.set(ws, sending.get(ws)! - 1);
        if (!stopped && !abandoned) opts.onSettled?.();
      });
    inFlight.add(p);
  };

  /**
   * One pump: each step asks `stopped` before its query, so after stop() none starts but what
   * finishes a claim already taken (its messages are sent and recorded before stop() resolves).
   */
  const pumpOnce = async (): Promise<number> => {
    const now = opts.now();
    const nowMs = now.getTime();
    if (nowMs >= nextPrune) {
      nextPrune = nowMs + 3600_000;
      await db.write((trx) => pruneDeliveries(trx, nowMs - RETENTION_MS));
    }
    if (stopped) return 0;
    if (await hasUndispatched(db.kysely)) while (!stopped && (await db.write((trx) => fanOut(trx, db.dialect, now))) === 500);
    const room = maxInFlight - inFlight.size;
    if (room <= 0 || stopped || !(await hasDue(db.kysely, nowMs)) || stopped) return 0;
    const ids = await db.write((trx) => claimDue(trx, db.dialect, { nowMs, leaseUntilMs: nowMs + LEASE_MS, workerId, limit: room, perEndpoint, perWorkspace, sending }));
    if (ids.length === 0 || abandoned) return 0;
    const claimed = await loadClaimed(db.kysely, ids);
    if (abandoned) return 0;
    for (const m of claimed) start(m);
    return claimed.length;
  };

  return {
    get inFlight() {
      return inFlight.size;
    },
    pump() {
      if (stopped) return Promise.resolve(0);
      const p = pumpOnce().finally(() => pumps.delete(p));
      pumps.add(p);
      return p;
    },
    async drain() {
      while (inFlight.size) await Promise.all([...inFlight]);
    },
    async stop() {
      stopped = true;
      await Promise.allSettled([...pumps]);
      // Abandoned sends record nothing: only the pumps could still reach the database.
      while (inFlight.size && !abandoned) await Promise.all([...inFlight]);
    },
    abandon() {
      abandoned = true;
      stopped = true;
    },
  };
}
