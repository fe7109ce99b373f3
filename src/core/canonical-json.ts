/**
 * One text per JSON value, whatever the order its keys were written in: object keys sorted at
 * every level (by UTF-16 code units, as Array.prototype.sort does), undefined members dropped, the
 * rest as JSON.stringify writes it (safe-stable-stringify, deterministic). What a card's hash, an
 * idempotency fingerprint and an MCP call's derived key are computed over; a change to this text
 * changes every one of them.
 */
import { configure } from 'safe-stable-stringify';

const stringify = configure({ deterministic: true });

export function canonicalJson(value: unknown): string {
  return stringify(value) ?? 'null';
}
