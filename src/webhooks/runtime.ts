/** The outbound runtime of a process that serves the webhook routes or delivers: loaded, and every endpoint secret resealed under its key. */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { type OutboundRuntime, outboundRuntime, type OutboundSettings } from '../outbound/runtime.js';
import { resealAll } from './reseal.js';

/** Loads the server key and reseals every endpoint secret not under it (older plain values, a rotated key). */
export async function webhookRuntime(q: Kysely<Database>, s: OutboundSettings = {}): Promise<OutboundRuntime> {
  const rt = await outboundRuntime(q, s);
  await resealAll(q, rt.box);
  return rt;
}
