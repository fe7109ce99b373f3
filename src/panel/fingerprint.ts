/**
 * A month's fingerprint: the panel's stores spread over a fixed number of buckets (by a hash of
 * the store id), each bucket the XOR of its stores' row hashes. Two fingerprints of one month
 * differ in one bucket per store whose record changed, appeared or went (collisions aside), so
 * comparing them counts the stores a correction touched without keeping the old panel.
 */
import { PANEL_COLUMNS } from '../core/panel-contract.js';
import { ident, type Duck } from './duck.js';

export const FINGERPRINT_BUCKETS = 1024;

/** Each row's bucket (`fp_b`) and hash (`fp_h`), as columns of a SELECT over typed panel rows. */
export const FINGERPRINT_COLUMNS = `hash(store_id) % ${FINGERPRINT_BUCKETS} AS fp_b, hash(${PANEL_COLUMNS.map((c) => ident(c.name)).join(', ')}) AS fp_h`;

/** The fingerprint (base64 of one 64-bit hash per bucket) of a table or subquery with FINGERPRINT_COLUMNS. */
export async function fingerprintOf(duck: Duck, rel: string): Promise<string> {
  const rows = await duck.all<{ b: number | string; h: string }>(`SELECT fp_b AS b, CAST(bit_xor(fp_h) AS VARCHAR) AS h FROM ${rel} GROUP BY ALL`);
  const buffer = Buffer.alloc(FINGERPRINT_BUCKETS * 8);
  for (const r of rows) buffer.writeBigUInt64LE(BigInt(r.h), Number(r.b) * 8);
  return buffer.toString('base64');
}

/** The fingerprint of one month's typed panel rows in `rel` (a table or subquery). */
export const fingerprintTable = (duck: Duck, rel: string): Promise<string> => fingerprintOf(duck, `(SELECT ${FINGERPRINT_COLUMNS} FROM ${rel})`);

/** How many buckets two fingerprints of a month differ in: about the number of stores changed. */
export function storesChanged(before: string, after: string): number {
  const a = Buffer.from(before, 'base64');
  const b = Buffer.from(after, 'base64');
  if (a.length !== b.length) return Infinity;
  let changed = 0;
  for (let i = 0; i < a.length; i += 8) if (a.readBigUInt64LE(i) !== b.readBigUInt64LE(i)) changed += 1;
  return changed;
}
