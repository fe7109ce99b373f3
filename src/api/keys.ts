/**
 * API key material. A key reads `slk_<12 hex prefix>_<43 chars of base64url secret>` (256 bits);
 * the prefix identifies it in listings and logs, only sha256(key) is stored.
 */
import { hash, randomBytes } from 'node:crypto';

export interface GeneratedKey {
  id: string;
  prefix: string;
  key: string;
  hash: string;
}

export const hashApiKey = (key: string): string => hash('sha256', key, 'hex');

export function generateApiKey(): GeneratedKey {
  const prefix = `slk_${randomBytes(6).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { id: `key_${randomBytes(10).toString('hex')}`, prefix, key, hash: hashApiKey(key) };
}

const KEY_SHAPE = /^slk_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/;

/** The key of an `Authorization: Bearer <key>` header, or undefined when missing or malformed. */
export function bearerKey(header: string | string[] | undefined): string | undefined {
  if (typeof header !== 'string') return undefined;
  const m = /^Bearer +(\S+) *$/i.exec(header);
  return m && KEY_SHAPE.test(m[1]) ? m[1] : undefined;
}
