/** The secret box (src/outbound/secrets.ts): sealing under the server key, resealing after a rotation, refusing an unknown key. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/compose/database.js';
import { loadSecretBox, newSigningSecret } from '../../src/outbound/secrets.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { resealAll } from '../../src/webhooks/reseal.js';
import { workspace } from '../helpers/api.js';

describe('the server key', () => {
  it('seals secrets under STORELENS_SECRET_KEY, reseals older values after a rotation, and refuses an unknown key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-key-'));
    const db = await openDatabase({ dbPath: join(dir, 'k.db') });
    try {
      const ws = await workspace(db);
      const generated = await loadSecretBox(db.kysely);
      const secret = newSigningSecret();
      const ep = await insertWebhookEndpoint(db.kysely, ws.id, { url: 'https://example.com/h', sealedSecret: generated.seal(secret) }, new Date());
      expect(ep.secret).not.toContain(secret.slice(6));
      const k1 = 'a'.repeat(64);
      const k2 = Buffer.alloc(32, 7).toString('base64');
      // Moving from the generated key to an environment key: the stored key still opens old values.
      const box1 = await loadSecretBox(db.kysely, { key: k1 });
      expect(await resealAll(db.kysely, box1)).toBe(1);
      const row1 = await db.kysely.selectFrom('webhook_endpoints').select('secret').where('id', '=', ep.id).executeTakeFirstOrThrow();
      expect(box1.isCurrent(row1.secret)).toBe(true);
      expect(box1.open(row1.secret)).toBe(secret);
      // Rotation k1 → k2 with the previous key named.
      const box2 = await loadSecretBox(db.kysely, { key: k2, previous: k1 });
      expect(await resealAll(db.kysely, box2)).toBe(1);
      const row2 = await db.kysely.selectFrom('webhook_endpoints').select('secret').where('id', '=', ep.id).executeTakeFirstOrThrow();
      expect(box2.open(row2.secret)).toBe(secret);
      // A value under a key nobody names cannot be opened (and says what to do).
      await db.kysely.deleteFrom('settings').where('name', '=', 'webhook_secret_key').execute();
      const stranger = await loadSecretBox(db.kysely, { key: 'b'.repeat(64) });
      expect(() => stranger.open(row2.secret)).toThrow(/STORELENS_SECRET_KEY_PREVIOUS/);
      // A plain secret of an older version is sealed at start.
      await db.kysely.updateTable('webhook_endpoints').set({ secret }).where('id', '=', ep.id).execute();
      expect(await resealAll(db.kysely, box2)).toBe(1);
      const row3 = await db.kysely.selectFrom('webhook_endpoints').select('secret').where('id', '=', ep.id).executeTakeFirstOrThrow();
      expect(row3.secret.startsWith('whsec_')).toBe(false);
      expect(box2.open(row3.secret)).toBe(secret);
    } finally {
      await db.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
