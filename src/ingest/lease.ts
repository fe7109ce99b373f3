/**
 * One ingest at a time per database, across processes: the `ingest` lease (db/leases.ts). The
 * holder renews it while it loads and gives it up when done. A holder that died leaves a lease
 * that expires after LEASE_MS, and the next ingest takes over (and removes the dead one's
 * half-loaded rows, see ingest.ts).
 *
 * The lease, not the flip, is what stops double loading: the flip's own compare-and-set
 * (flipIngestedMonth) is a second guard that fails loudly if the lease was ever lost.
 */
import type { Db } from '../db/database.js';
import { type Lease as HeldLease, LeaseLost, leaseHolder, tryLease } from '../db/leases.js';
import { CliError } from '../core/errors.js';

export const LEASE_NAME = 'ingest';
/** How long a lease lasts without renewal. */
export const LEASE_MS = 60_000;

export interface Lease {
  readonly owner: string;
  /** Extends the lease when more than a third of it has passed; throws when it was lost. */
  renew(): Promise<void>;
  release(): Promise<void>;
}

/**
 * Takes the lease, waiting (polling every `pollMs`) while another live ingest holds it, at most
 * `waitMs`; then a CliError saying who holds it.
 */
export async function acquireLease(
  db: Db,
  opts: { nowMs: () => number; waitMs?: number; pollMs?: number; onWait?: (holder: string) => void },
): Promise<Lease> {
  const waitMs = opts.waitMs ?? 5 * 60_000;
  const pollMs = opts.pollMs ?? 250;
  const started = Date.now();
  let told = false;
  for (;;) {
    const lease = await tryLease(db, LEASE_NAME, { nowMs: opts.nowMs, ms: LEASE_MS });
    if (lease) return ingestLease(lease);
    const holder = await leaseHolder(db, LEASE_NAME, opts.nowMs());
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

function ingestLease(lease: HeldLease): Lease {
  return {
    owner: lease.owner,
    async renew() {
      try {
        await lease.renew();
      } catch (e) {
        if (e instanceof LeaseLost) throw new CliError('ingest lost its lease (another ingest took over after it expired); nothing more was loaded', 1);
        throw e;
      }
    },
    release: () => lease.release(),
  };
}
