/**
 * The Idempotency-Key derived for a mutating tool called without `idempotency_key`, over time: an
 * identical call by the same key within 24 hours is a replay, as the tool says; one made later is a
 * call of its own, billed like any other (re-enrolling a contact after a stop).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertContact } from '../../src/contacts/store.js';
import { newId } from '../../src/db/ids.js';
import { setPilotAccess } from '../../src/workspaces/store.js';
import { seedAccounts } from '../helpers/accounts.js';
import { adminCli } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';
import { mcpClient, toolJson, type McpTestClient } from '../helpers/mcp.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const HOUR = 3600_000;
const OPS = ['create_outreach_cadence', 'enroll_outreach', 'stop_outreach', 'get_outreach_enrollment'];

for (const d of dialects) {
  describe.skipIf(d.skip)(`derived idempotency keys over time on ${d.label}`, () => {
    let h: Harness;
    let mcp: McpTestClient;
    const run = adminCli(() => h.t);

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...Object.fromEntries(OPS.map((op) => [op, 'pilot'])), get_wallet: 'available' } });
    });
    afterAll(async () => {
      await mcp?.close();
      await h?.close();
    });

    it('replays an identical enroll_outreach within 24 hours, and enrolls again (charged) when it is made later', async () => {
      const ws = await workspace(h.db);
      await setPilotAccess(h.db.kysely, ws.id, true);
      await seedAccounts(h.db, ws.id, [{ store_id: 'store-a', score: 0.9 }]);
      const contact = newId('con');
      const at = new Date().toISOString();
      await h.db.write((trx) => insertContact(trx, { id: contact, workspace_id: ws.id, store_id: 'store-a', name: null, email: `${contact}@example.com`, role: null, source: 'manual', source_detail: null, created_by: 'member:owner@example.com', created_at: at, updated_at: at }));
      expect((await run('wallet', 'credit', ws.name, '10', '--reason', 'outreach', '--as', 'owner@example.com')).code).toBe(0);
      const key = await apiKey(h.db, ws.id, ['write:outreach', 'read:wallet']);
      const cadence = await call(h.base, 'POST', '/outreach/cadences', { key, idem: freshIdem(), body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }] } });
      mcp = await mcpClient(h.base, { key });
      const enroll = async () => {
        const r = await mcp.client.callTool({ name: 'enroll_outreach', arguments: { store_id: 'store-a', contact_id: contact, cadence_id: cadence.body.id } });
        return { body: toolJson(r), error: r.isError === true, replayed: (r._meta as Record<string, unknown> | undefined)?.['storelens/idempotent-replayed'] === true };
      };
      const balance = async () => (await call(h.base, 'GET', '/wallet', { key })).body.balance;

      const first = await enroll();
      expect(first).toMatchObject({ error: false, replayed: false, body: { status: 'active' } });
      const stopped = await mcp.client.callTool({ name: 'stop_outreach', arguments: { id: first.body.id } });
      expect(toolJson(stopped)).toMatchObject({ status: 'stopped' });
      h.clock.advance(23 * HOUR);
      expect(await enroll()).toMatchObject({ error: false, replayed: true, body: { id: first.body.id } });
      expect(await balance()).toBe(1000 - 100);

      h.clock.advance(2 * HOUR);
      const later = await enroll();
      expect(later, JSON.stringify(later.body)).toMatchObject({ error: false, replayed: false, body: { status: 'active' } });
      expect(later.body.id).not.toBe(first.body.id);
      expect(await balance()).toBe(1000 - 200);
      // And that call in turn is replayed for its own 24 hours.
      h.clock.advance(23 * HOUR);
      expect(await enroll()).toMatchObject({ replayed: true, body: { id: later.body.id } });
    });
  });
}
