/**
 * A month's fingerprint: the panel's stores spread over a fixed number of buckets (by a hash of
 * the store id), each bucket the XOR of its stores' row hashes. Two fingerprints of one month
 * differ in one bucket per store whose record changed, appeared or went (collisions aside), so
 * comparing them counts the stores a correction touched without keeping the old panel.
 */
import { PANEL_COLUMNS } from './columns.js';
import { ident, lit, type Duck } from './duck.js';

export const FINGERPRINT_BUCKETS = 1024;

/** month → fingerprint (base64 of one 64-bit hash per bucket), for months of the loaded `panel`. */
export async function fingerprintMonths(duck: Duck, months: string[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (months.length === 0) return out;
  const row = PANEL_COLUMNS.map((c) => ident(c.name)).join(', ');
  const rows = await duck.all<{ month: string; b: number | string; h: string }>(`
    SELECT month, hash(store_id) % ${FINGERPRINT_BUCKETS} AS b, CAST(bit_xor(hash(${row})) AS VARCHAR) AS h
    FROM panel WHERE month IN (${months.map(lit).join(', ')}) GROUP BY ALL`);
  const buffers = new Map(months.map((m) => [m, Buffer.alloc(FINGERPRINT_BUCKETS * 8)]));
  for (const r of rows) buffers.get(r.month)!.writeBigUInt64LE(BigInt(r.h), Number(r.b) * 8);
  for (const [m, b] of buffers) out.set(m, b.toString('base64'));
  return out;
}

/** How many buckets two fingerprints of a month differ in: about the number of stores changed. */
export function storesChanged(before: string, after: string): number {
  const a = Buffer.from(before, 'base64');
  const b = Buffer.from(after, 'base64');
  if (a.length !== b.length) return Infinity;
  let changed = 0;
  for (let i = 0; i < a.length; i += 8) if (a.readBigUInt64LE(i) !== b.readBigUInt64LE(i)) changed += 1;
  return changed;
}
