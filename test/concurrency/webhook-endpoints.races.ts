/**
 * Webhook endpoints under concurrent changes split over two api processes: a deleted endpoint
 * stays deleted whatever raced its deletion, and a change that lost to it answers 404.
 */
import { describe, expect, it } from 'vitest';
import { insertWebhookEndpoint, WEBHOOK_ENDPOINTS_MAX } from '../../src/webhooks/endpoints-store.js';
import { burst, expectDeletesWon, type Fleet, seedWorkspace, statuses } from './fixture.js';

export function webhookEndpointRaces(fleet: () => Fleet): void {
  describe('webhook endpoints', () => {
    it('deletes endpoints that changes and rotations race: the delete 200, a loser 404, every endpoint stays deleted', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['manage:webhooks'], { keys: 18 });
      const endpoints = await Promise.all(
        Array.from({ length: 6 }, (_, i) => f.db.write((trx) => insertWebhookEndpoint(trx, ws.id, { url: `https://hooks${i}.example/in` }, new Date()))),
      );
      // Per endpoint: its deletion, a change of its description and a rotation of its secret, all at once.
      const rs = await burst(f, 18, (i) => {
        const ep = endpoints[Math.floor(i / 3)]!.id;
        const key = keys[i]!;
        if (i % 3 === 0) return { method: 'DELETE', path: `/webhooks/${ep}`, key };
        if (i % 3 === 1) return { method: 'PATCH', path: `/webhooks/${ep}`, key, body: { description: `changed ${i}` } };
        return { method: 'POST', path: `/webhooks/${ep}/rotate-secret`, key };
      });
      expectDeletesWon(rs);
      const rows = await f.db.kysely.selectFrom('webhook_endpoints').select(['id', 'deleted_at']).where('workspace_id', '=', ws.id).execute();
      expect(rows).toHaveLength(6);
      for (const r of rows) expect(r.deleted_at).not.toBeNull();
    });

    it('registers one endpoint into the last place when registrations race at the cap: one 201, the rest 422', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['manage:webhooks'], { keys: 8 });
      for (let i = 1; i < WEBHOOK_ENDPOINTS_MAX; i++) await f.db.write((trx) => insertWebhookEndpoint(trx, ws.id, { url: `https://hooks${i}.example/in` }, new Date()));
      const rs = await burst(f, 8, (i) => ({ method: 'POST', path: '/webhooks', key: keys[i]!, body: { url: `http://127.0.0.1:9/racer${i}` } }));
      expect(statuses(rs)).toEqual({ 201: 1, 422: 7 });
      const live = await f.db.kysely.selectFrom('webhook_endpoints').select('id').where('workspace_id', '=', ws.id).where('deleted_at', 'is', null).execute();
      expect(live).toHaveLength(WEBHOOK_ENDPOINTS_MAX);
    });

    it('deletes an endpoint once when deletions race: one 200, the rest 404', async () => {
      const f = fleet();
      const { ws, keys } = await seedWorkspace(f.db, ['manage:webhooks'], { keys: 6 });
      const ep = await f.db.write((trx) => insertWebhookEndpoint(trx, ws.id, { url: 'https://hooks.example/in' }, new Date()));
      const rs = await burst(f, 6, (i) => ({ method: 'DELETE', path: `/webhooks/${ep.id}`, key: keys[i]! }));
      expect(statuses(rs)).toEqual({ 200: 1, 404: 5 });
    });
  });
}
