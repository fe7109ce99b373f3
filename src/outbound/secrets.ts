/**
 * Signing secrets at rest: AES-256-GCM under a server key. The key comes from the environment
 * (STORELENS_SECRET_KEY: 32 bytes as 64 hex digits or base64) or, when that is not set, is
 * generated on first use and kept with the server's generated secrets (db/server-secrets.ts). A sealed value names the key that sealed it
 * (first 8 hex digits of its sha256), so a rotated key can still open older values until
 * webhooks/reseal.ts rewrites them under the current key (STORELENS_SECRET_KEY_PREVIOUS names the old
 * one during a rotation). Webhook endpoints and outreach senders keep their secrets sealed in this
 * box; webhooks/reseal.ts rewrites the endpoints' under a new key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { serverSecret, storedServerSecret } from '../db/server-secrets.js';
import { serverKeyBytes } from '../core/server-key.js';

/** Its name among the server's generated secrets (shipped: kept as is). */
const STORED_KEY = 'webhook_secret_key';
const VERSION = 'v1';

export interface SecretBox {
  /** Encrypts a signing secret under the current key. */
  seal(plain: string): string;
  /** Decrypts a sealed secret (under the current or an older known key); a plain `whsec_` value is returned as is. */
  open(sealed: string): string;
  /** Whether `sealed` is under the current key (false: a reseal rewrites it). */
  isCurrent(sealed: string): boolean;
}

export interface ServerKeyEnv {
  /** STORELENS_SECRET_KEY. */
  key?: string;
  /** STORELENS_SECRET_KEY_PREVIOUS: the key being rotated away from. */
  previous?: string;
}

/** A new signing secret: `whsec_` + base64 of 24 random bytes. */
export const newSigningSecret = (): string => `whsec_${randomBytes(24).toString('base64')}`;

export function parseKey(text: string, name: string): Buffer {
  const buf = serverKeyBytes(text);
  if (!buf) throw new Error(`${name} must be 32 bytes, written as 64 hex digits or base64`);
  return buf;
}

const keyId = (key: Buffer): string => createHash('sha256').update(key).digest('hex').slice(0, 8);

/** The box for this process: the environment's keys, and the database's generated key. */
export async function loadSecretBox(q: Kysely<Database>, env: ServerKeyEnv = {}): Promise<SecretBox> {
  const keys: Buffer[] = [];
  if (env.key) keys.push(parseKey(env.key, 'STORELENS_SECRET_KEY'));
  if (env.previous) keys.push(parseKey(env.previous, 'STORELENS_SECRET_KEY_PREVIOUS'));
  const stored = env.key ? await storedServerSecret(q, STORED_KEY) : await serverSecret(q, STORED_KEY, () => randomBytes(32).toString('hex'));
  if (stored) keys.push(parseKey(stored, 'the stored webhook secret key'));
  return secretBox(keys);
}

/** keys[0] seals; every key opens. */
export function secretBox(keys: readonly Buffer[]): SecretBox {
  const byId = new Map(keys.map((k) => [keyId(k), k]));
  const current = keys[0];
  const currentId = keyId(current);
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const c = createCipheriv('aes-256-gcm', current, iv);
      c.setAAD(Buffer.from(currentId));
      const ct = Buffer.concat([c.update(plain, 'utf8'), c.final()]);
      return [VERSION, currentId, iv.toString('base64url'), c.getAuthTag().toString('base64url'), ct.toString('base64url')].join(':');
    },
    open(sealed) {
      if (sealed.startsWith('whsec_')) return sealed;
      const [v, id, iv, tag, ct] = sealed.split(':');
      const key = byId.get(id);
      if (v !== VERSION || !key) throw new Error(`a webhook secret is sealed under an unknown server key (${id}); set STORELENS_SECRET_KEY_PREVIOUS to the key it was sealed with`);
      const d = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      d.setAAD(Buffer.from(id));
      d.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([d.update(Buffer.from(ct, 'base64url')), d.final()]).toString('utf8');
    },
    isCurrent: (sealed) => sealed.startsWith(`${VERSION}:${currentId}:`),
  };
}
