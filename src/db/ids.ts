import { randomBytes } from 'node:crypto';

// Identifiers are not secrets: one randomBytes call serves many of them (the call, not the
// entropy, is what costs on the write path).
const POOL_BYTES = 4096;
let pool = Buffer.alloc(0);
let offset = 0;

/** A random, URL-safe identifier with a type prefix: `ws_…`, `key_…`, `out_…`, `whe_…`. */
export function newId(prefix: string, bytes = 10): string {
  if (offset + bytes > pool.length) {
    pool = randomBytes(Math.max(POOL_BYTES, bytes));
    offset = 0;
  }
  const id = pool.toString('hex', offset, offset + bytes);
  offset += bytes;
  return `${prefix}_${id}`;
}
