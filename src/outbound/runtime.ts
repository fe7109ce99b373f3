/**
 * What every outbound call of one process shares (webhook deliveries and their routes, outreach
 * steps, the assistant connector's client checks): the box that seals and opens signing secrets
 * and the SSRF guard's settings.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { loadSecretBox, type SecretBox, type ServerKeyEnv } from './secrets.js';
import { type GuardOptions, type Resolver, systemResolver } from './ssrf.js';

export interface OutboundRuntime {
  box: SecretBox;
  guard: GuardOptions;
}

export interface OutboundSettings {
  /** STORELENS_SECRET_KEY / STORELENS_SECRET_KEY_PREVIOUS. */
  keys?: ServerKeyEnv;
  /** The local-development setting: allow http URLs and loopback addresses (off by default). */
  allowLocal?: boolean;
  /** Name resolution (default the system's; tests inject one). */
  resolve?: Resolver;
  /** How long a host may take to resolve (default RESOLVE_TIMEOUT_MS; tests shorten it). */
  resolveTimeoutMs?: number;
}

/** Loads the server key (generating it among the server's generated secrets, db/server-secrets.ts, on first use). */
export async function outboundRuntime(q: Kysely<Database>, s: OutboundSettings = {}): Promise<OutboundRuntime> {
  const box = await loadSecretBox(q, s.keys);
  return { box, guard: { resolve: s.resolve ?? systemResolver, allowLocal: s.allowLocal ?? false, resolveTimeoutMs: s.resolveTimeoutMs } };
}
