/**
 * Leases on units of background work, so that however many processes share the database one
 * unit runs in one process at a time: a row per unit in `leases` (`name`, `owner`, `until_ms`).
 * Taking a lease is a compare-and-set in one write transaction — insert the row if absent, else
 * take it over only when it has expired — so two processes never both hold it, on SQLite (one
 * writer) and on PostgreSQL (the second writer waits for the first's row and re-checks
 * `until_ms`). The holder renews it while it works and deletes it when done; a holder that died
 * leaves a lease that expires after its duration, and the next taker goes on.
 *
 * The names in use: `ingest` (ingest/lease.ts), `refresh:<workspace id>` (accounts/refresh.ts).
 */
import { randomBytes } from 'node:crypto';
import type { Db } from './index.js';
import type { KernelTables } from './tables.js';

/** Any database that has the kernel's tables (the workspace database has). */
type Leasing = Db<any>;
const leases = (db: Leasing) => db as Db<KernelTables>;

export interface LeaseOptions {
  /** The clock the lease's expiry is measured on (epoch ms). */
  nowMs: () => number;
  /** How long the lease lasts without renewal (ms). */
  ms: number;
}

export interface Lease {
  readonly name: string;
  /** Who holds it: `<pid>-<random>`, new for every lease taken. */
  readonly owner: string;
  /** Extends the lease when more than a third of it has passed; throws LeaseLost when another holder took it over. */
  renew(): Promise<void>;
  /** Gives the lease up (a no-op when it was lost). */
  release(): Promise<void>;
}

export class LeaseLost extends Error {
  constructor(name: string) {
    super(`lost the lease ${name} (it expired and another process took it over)`);
  }
}

/** The holder of lease `name`, or null when it is free or has expired. */
export async function leaseHolder(db: Leasing, name: string, nowMs: number): Promise<{ owner: string; until: number } | null> {
  const row = await leases(db).kysely.selectFrom('leases').select(['owner', 'until_ms']).where('name', '=', name).executeTakeFirst();
  return row && Number(row.until_ms) > nowMs ? { owner: row.owner, until: Number(row.until_ms) } : null;
}

/** Takes lease `name` when it is free or expired; null when another process holds it. */
export async function tryLease(db: Leasing, name: string, opts: LeaseOptions): Promise<Lease | null> {
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const nowMs = opts.nowMs();
  const until = nowMs + opts.ms;
  const taken = await leases(db).write(async (trx) => {
    const ins = await trx
      .insertInto('leases')
      .values({ name, owner, until_ms: until })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(ins.numInsertedOrUpdatedRows ?? 0) === 1) return true;
    const upd = await trx.updateTable('leases').set({ owner, until_ms: until }).where('name', '=', name).where('until_ms', '<=', nowMs).executeTakeFirst();
    return Number(upd.numUpdatedRows) === 1;
  });
  return taken ? held(leases(db), name, owner, until, opts) : null;
}

function held(db: Db<KernelTables>, name: string, owner: string, first: number, opts: LeaseOptions): Lease {
  let until = first;
  return {
    name,
    owner,
    async renew() {
      const now = opts.nowMs();
      if (until - now > (2 * opts.ms) / 3) return;
      const next = now + opts.ms;
      const r = await db.write((trx) => trx.updateTable('leases').set({ until_ms: next }).where('name', '=', name).where('owner', '=', owner).executeTakeFirst());
      if (Number(r.numUpdatedRows) !== 1) throw new LeaseLost(name);
      until = next;
    },
    async release() {
      await db.write((trx) => trx.deleteFrom('leases').where('name', '=', name).where('owner', '=', owner).execute());
    },
  };
}

/**
 * Runs fn while holding lease `name`, renewing it every third of its duration, and gives it up
 * after; `{ held: false }` without running fn when another process holds it. A renewal that
 * finds the lease lost is reported through `onLost` (fn goes on: the work it guards must still
 * be safe to race, only wasteful).
 */
export async function withLease<T>(
  db: Leasing,
  name: string,
  opts: LeaseOptions & { onLost?: (e: Error) => void },
  fn: () => Promise<T>,
): Promise<{ held: true; value: T } | { held: false }> {
  const lease = await tryLease(db, name, opts);
  if (!lease) return { held: false };
  let renewing: Promise<void> = Promise.resolve();
  let lost = false;
  const timer = setInterval(() => {
    renewing = renewing.then(() => (lost ? undefined : lease.renew())).catch((e: Error) => {
      lost = true;
      opts.onLost?.(e);
    });
  }, opts.ms / 3);
  timer.unref();
  try {
    return { held: true, value: await fn() };
  } finally {
    clearInterval(timer);
    await renewing;
    if (!lost) await lease.release();
  }
}
