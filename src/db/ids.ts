import { randomBytes } from 'node:crypto';

/** A random, URL-safe identifier with a type prefix: `ws_…`, `key_…`, `out_…`, `whe_…`. */
export function newId(prefix: string, bytes = 10): string {
  return `${prefix}_${randomBytes(bytes).toString('hex')}`;
}
