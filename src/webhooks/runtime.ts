/** What the webhook routes and the delivery worker of one process share: the secret box and the SSRF guard's settings. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { loadSecretBox, resealAll, type SecretBox, type ServerKeyEnv } from './secrets.js';
import { type GuardOptions, type Resolver, systemResolver } from './ssrf.js';

export interface WebhookRuntime {
  box: SecretBox;
  guard: GuardOptions;
}

export interface WebhookSettings {
  /** STORELENS_SECRET_KEY / STORELENS_SECRET_KEY_PREVIOUS. */
  keys?: ServerKeyEnv;
  /** The local-development setting: allow http URLs and loopback addresses (off by default). */
  allowLocal?: boolean;
  /** Name resolution (default the system's; tests inject one). */
  resolve?: Resolver;
}

/** Loads the server key and reseals every secret not under it (older plain values, a rotated key). */
export async function webhookRuntime(q: Kysely<Database>, s: WebhookSettings = {}): Promise<WebhookRuntime> {
  const box = await loadSecretBox(q, s.keys);
  await resealAll(q, box);
  return { box, guard: { resolve: s.resolve ?? systemResolver, allowLocal: s.allowLocal ?? false } };
}
