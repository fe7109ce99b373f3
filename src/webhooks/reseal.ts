/** Keeping the endpoints' signing secrets under the current server key (outbound/secrets.ts). */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import type { SecretBox } from '../outbound/secrets.js';

/**
 * Rewrites every endpoint secret not sealed under the current key (plain values of an older
 * version, values under a rotated key); resolves to how many it rewrote. A value under a key
 * that is not known is left alone.
 */
export async function resealAll(q: Kysely<Database>, box: SecretBox): Promise<number> {
  const rows = await q.selectFrom('webhook_endpoints').select(['id', 'secret', 'previous_secret']).execute();
  let n = 0;
  for (const r of rows) {
    const stale = !box.isCurrent(r.secret) || (r.previous_secret !== null && !box.isCurrent(r.previous_secret));
    if (!stale) continue;
    let secret: string;
    let previous: string | null;
    try {
      secret = box.seal(box.open(r.secret));
      previous = r.previous_secret === null ? null : box.seal(box.open(r.previous_secret));
    } catch {
      // Under a key nobody named: left as is; its deliveries fail and say which setting is missing.
      continue;
    }
    await q
      .updateTable('webhook_endpoints')
      .set({ secret, previous_secret: previous })
      .where('id', '=', r.id)
      .where('secret', '=', r.secret)
      .execute();
    n++;
  }
  return n;
}
