/**
 * One ingest at a time per database, across processes: a lease row in the settings table
 * (`ingest_lease`, value `{"owner","until"}` with `until` in epoch ms). Taking it is a
 * compare-and-set (insert if absent, else replace the exact value read, only when expired), so
 * two processes never both hold it; the holder renews it while it loads and deletes it when
 * done. A holder that died leaves a lease that expires after LEASE_MS, and the next ingest takes
 * over (and removes the dead one's half-loaded rows, see ingest.ts).
 *
 * The lease, not the flip, is what stops double loading: the flip's own compare-and-set
 * (flipIngestedMonth) is a second guard that fails loudly if the lease was ever lost.
 */
import { randomBytes } from 'node:crypto';
import type { Db } from '../db/index.js';
import { CliError } from '../errors.js';

export const LEASE_NAME = 'ingest_lease';
/** How long a lease lasts without renewal. */
export const LEASE_MS = 60_000;

interface LeaseValue {
  owner: string;
  until: number;
}

export interface Lease {
  readonly owner: string;
  /** Extends the lease when more than a third of it has passed; throws when it was lost. */
  renew(): Promise<void>;
  release(): Promise<void>;
}

/** Holder of the lease, or null when it is free (or expired). */
export async function leaseHolder(db: Db, nowMs: number): Promise<LeaseValue | null> {
  const row = await db.kysely.selectFrom('settings').select('value').where('name', '=', LEASE_NAME).executeTakeFirst();
  const v = row ? parse(row.value) : null;
  return v && v.until > nowMs ? v : null;
}

/**
 * Takes the lease, waiting (polling every `pollMs`) while another live ingest holds it, at most
 * `waitMs`; then a CliError saying who holds it.
 */
export async function acquireLease(
  db: Db,
  opts: { nowMs: () => number; waitMs?: number; pollMs?: number; onWait?: (holder: string) => void },
): Promise<Lease> {
  const owner = `${process.pid}-${randomBytes(6).toString('hex')}`;
  const waitMs = opts.waitMs ?? 5 * 60_000;
  const pollMs = opts.pollMs ?? 250;
  const started = Date.now();
  let told = false;
  for (;;) {
    const value = await tryTake(db, owner, opts.nowMs());
    if (value) return lease(db, owner, value, opts.nowMs);
    const holder = await leaseHolder(db, opts.nowMs());
    if (holder && !told) {
      opts.onWait?.(holder.owner);
      told = true;
    }
    if (Date.now() - started >= waitMs) {
      throw new CliError(`another ingest (${holder?.owner ?? 'unknown'}) is loading into this database; run again when it has finished`, 1);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

/** The lease's new value when taken, else null. */
async function tryTake(db: Db, owner: string, nowMs: number): Promise<string | null> {
  const value = JSON.stringify({ owner, until: nowMs + LEASE_MS } satisfies LeaseValue);
  return db.write(async (trx) => {
    const ins = await trx
      .insertInto('settings')
      .values({ name: LEASE_NAME, value })
      .onConflict((oc) => oc.column('name').doNothing())
      .executeTakeFirst();
    if (Number(ins.numInsertedOrUpdatedRows ?? 0) === 1) return value;
    const row = await trx.selectFrom('settings').select('value').where('name', '=', LEASE_NAME).executeTakeFirst();
    if (!row) return null;
    const cur = parse(row.value);
    if (cur && cur.until > nowMs) return null;
    const upd = await trx.updateTable('settings').set({ value }).where('name', '=', LEASE_NAME).where('value', '=', row.value).executeTakeFirst();
    return Number(upd.numUpdatedRows) === 1 ? value : null;
  });
}

function lease(db: Db, owner: string, first: string, nowMs: () => number): Lease {
  let value = first;
  let until = (parse(first) as LeaseValue).until;
  return {
    owner,
    async renew() {
      const now = nowMs();
      if (until - now > (2 * LEASE_MS) / 3) return;
      const next = JSON.stringify({ owner, until: now + LEASE_MS } satisfies LeaseValue);
      const r = await db.write((trx) =>
        trx.updateTable('settings').set({ value: next }).where('name', '=', LEASE_NAME).where('value', '=', value).executeTakeFirst(),
      );
      if (Number(r.numUpdatedRows) !== 1) throw new CliError('ingest lost its lease (another ingest took over after it expired); nothing more was loaded', 1);
      value = next;
      until = now + LEASE_MS;
    },
    async release() {
      await db.write((trx) => trx.deleteFrom('settings').where('name', '=', LEASE_NAME).where('value', '=', value).execute());
    },
  };
}

function parse(text: string): LeaseValue | null {
  try {
    const v = JSON.parse(text) as Partial<LeaseValue>;
    return typeof v.owner === 'string' && typeof v.until === 'number' ? { owner: v.owner, until: v.until } : null;
  } catch {
    return null;
  }
}
