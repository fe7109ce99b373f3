/**
 * Failed sign-ins, throttled per account and per client address. Every attempt is counted as a
 * failure before its password is checked, by a conditional UPDATE of the subject's row that
 * holds only while the subject is not locked; a success clears the account's count afterwards.
 * Both rows are counted in one transaction, so concurrent attempts on any process of the
 * database (PostgreSQL waits on the row lock and re-reads the row; SQLite has one writer) never
 * get past the lock together. The account row exists whether or not a member has that email, so
 * a locked account answers the same whether it exists or not.
 */
import ipaddr from 'ipaddr.js';
import { sql, type Kysely } from 'kysely';
import type { Db, Database } from '../db/database.js';
import { onPostgres } from '../db/locks.js';
import { tokenHash } from '../core/tokens.js';
import type { SigninThrottleTable } from './tables.js';

export type ThrottleKind = SigninThrottleTable['kind'];

export interface ThrottleSubject {
  kind: ThrottleKind;
  /** The normalized email, or the client address; stored only as a hash. */
  name: string;
}

/**
 * The address subject of a client address: an IPv6 address counts by its /64 network (one host,
 * one home or one cloud instance usually holds a whole /64, so its addresses are no more clients
 * than one), an IPv4-mapped one (a dual-stack server's IPv4 client) by its IPv4 address.
 */
export function addressSubject(address: string): ThrottleSubject {
  if (!ipaddr.isValid(address)) return { kind: 'address', name: address };
  const ip = ipaddr.process(address);
  if (ip.kind() === 'ipv4') return { kind: 'address', name: ip.toString() };
  const network = ip.toByteArray().slice(0, 8).concat(Array<number>(8).fill(0));
  return { kind: 'address', name: `${ipaddr.fromByteArray(network).toString()}/64` };
}

/** The rule, in numbers (documented in docs/assistant.md, "Sign-in: failed attempts"; test/docs checks the table). */
export const SIGNIN_THROTTLE = {
  /**
   * Failures in a row that lock nothing: a few typos cost nothing. An address's OAuth client
   * registrations count as failures all (nothing clears them): 10 at once, then fewer and fewer.
   */
  free: { account: 4, address: 20, registration: 10 } satisfies Record<ThrottleKind, number>,
  /** The lock after the first failure past the free ones; each further failure doubles it … */
  firstLockMs: 1_000,
  /** … up to this. */
  maxLockMs: 15 * 60_000,
  /** A count that has seen no failure for this long starts again from zero. */
  forgetMs: 60 * 60_000,
} as const;

/** How long the `failures`-th failure in a row of a subject of `kind` locks it (ms). */
export function lockAfter(kind: ThrottleKind, failures: number): number {
  const past = failures - SIGNIN_THROTTLE.free[kind];
  if (past <= 0) return 0;
  return Math.min(SIGNIN_THROTTLE.firstLockMs * 2 ** Math.min(past - 1, 30), SIGNIN_THROTTLE.maxLockMs);
}

export type Admission = { admitted: true } | { admitted: false; retryAfterSeconds: number };

class Locked extends Error {}

/** The kind is part of the hash: the keys of an account and an address never meet. */
const keyOf = (s: ThrottleSubject) => tokenHash(`${s.kind}:${s.name}`);

/**
 * Counts an attempt against every subject, unless one of them is locked at `nowMs`: then
 * nothing is counted and the answer says when to try again (the latest of their locks).
 */
export async function admitSignIn(db: Db, subjects: readonly ThrottleSubject[], nowMs: number): Promise<Admission> {
  await pruneForgotten(db, nowMs);
  try {
    await db.write(async (trx) => {
      for (const s of subjects) if (!(await countAttempt(trx, s, nowMs))) throw new Locked();
    });
    return { admitted: true };
  } catch (e) {
    if (!(e instanceof Locked)) throw e;
  }
  const rows = await db.kysely
    .selectFrom('signin_throttle')
    .select('locked_until_ms')
    .where('key', 'in', subjects.map(keyOf))
    .execute();
  // bigint arrives as a string from PostgreSQL: converted on purpose.
  const until = Math.max(nowMs, ...rows.map((r) => Number(r.locked_until_ms)));
  return { admitted: false, retryAfterSeconds: Math.max(1, Math.ceil((until - nowMs) / 1000)) };
}

/** Per database, when this process next deletes the rows that are forgotten anyway. */
const nextPrune = new WeakMap<Db, number>();

/**
 * Deletes, at most hourly per process, the rows whose count would start again from zero anyway
 * (no failure for SIGNIN_THROTTLE.forgetMs) and that lock nothing: without it every address and
 * email ever tried would keep a row. An attempt's upsert locks its row first, so on PostgreSQL a
 * concurrent delete either waits for it (and no longer matches) or deletes before and the
 * attempt inserts the row again.
 */
async function pruneForgotten(db: Db, nowMs: number): Promise<void> {
  if (nowMs < (nextPrune.get(db) ?? 0)) return;
  nextPrune.set(db, nowMs + 60 * 60_000);
  await db
    .write((trx) => {
      let stale = trx.selectFrom('signin_throttle').select('key').where('last_failure_ms', '<', nowMs - SIGNIN_THROTTLE.forgetMs).where('locked_until_ms', '<=', nowMs);
      // On PostgreSQL rows an attempt holds are skipped, never waited for (no lock cycle with it).
      if (onPostgres(trx)) stale = stale.forUpdate().skipLocked();
      return trx.deleteFrom('signin_throttle').where('key', 'in', stale).execute();
    })
    // Housekeeping: a failed prune must not fail the sign-in; the next hour tries again.
    .catch(() => undefined);
}

/** Counts one failure of `s` unless it is locked (false); locks it for what its new count earns. */
async function countAttempt(trx: Kysely<Database>, s: ThrottleSubject, nowMs: number): Promise<boolean> {
  const key = keyOf(s);
  // An upsert, not "insert or nothing": it locks an existing row for the rest of the transaction.
  await trx
    .insertInto('signin_throttle')
    .values({ kind: s.kind, key, failures: 0, last_failure_ms: 0, locked_until_ms: 0 })
    .onConflict((oc) => oc.columns(['kind', 'key']).doUpdateSet({ kind: s.kind }))
    .execute();
  // The lock is the condition of the update itself: on PostgreSQL a concurrent attempt waits
  // for this row and then tests the lock this transaction set (never a read-then-write).
  const counted = await trx
    .updateTable('signin_throttle')
    .set({
      failures: sql<number>`case when last_failure_ms < ${nowMs - SIGNIN_THROTTLE.forgetMs} then 1 else failures + 1 end`,
      last_failure_ms: nowMs,
    })
    .where('kind', '=', s.kind)
    .where('key', '=', key)
    .where('locked_until_ms', '<=', nowMs)
    .returning('failures')
    .executeTakeFirst();
  if (!counted) return false;
  const lock = lockAfter(s.kind, Number(counted.failures));
  if (lock > 0) await trx.updateTable('signin_throttle').set({ locked_until_ms: nowMs + lock }).where('kind', '=', s.kind).where('key', '=', key).execute();
  return true;
}

/** A successful sign-in: the account's count starts again (the address keeps its count, see the guide). */
export async function clearFailures(db: Db, account: ThrottleSubject): Promise<void> {
  await db.write((trx) =>
    trx.updateTable('signin_throttle').set({ failures: 0, locked_until_ms: 0 }).where('kind', '=', account.kind).where('key', '=', keyOf(account)).execute(),
  );
}
