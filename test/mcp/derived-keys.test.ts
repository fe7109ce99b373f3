/**
 * The Idempotency-Key derived for a mutating tool called without `idempotency_key`, over time: an
 * identical call by the same key within 24 hours is a replay, as the tool says; one made later is a
 * call of its own, billed like any other (re-enrolling a contact after a stop). A refused call
 * changed nothing and is not replayed: made again once its cause is gone, it runs.
 */
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
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

type Result = { content?: unknown; isError?: boolean; _meta?: Record<string, unknown> };
/** The two SDK lines assistants ship, each calling with an API key. */
const SDKS: { name: string; connect(base: string, key: string): Promise<{ callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<Result>; close(): Promise<void> }> }[] = [
  {
    name: '@modelcontextprotocol/sdk 1.x',
    async connect(base, key) {
      const client = new Sdk1Client({ name: 'derived-keys-sdk1', version: '1.0.0' });
      await client.connect(new Sdk1Transport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      return client as never;
    },
  },
  { name: '@modelcontextprotocol/client 2.x', connect: async (base, key) => (await mcpClient(base, { key })).client as never },
];

for (const d of dialects) {
  describe.skipIf(d.skip)(`derived idempotency keys over time on ${d.label}`, () => {
    let h: Harness;
    let mcp: McpTestClient;
    const run = adminCli(() => h.t);

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...Object.fromEntries(OPS.map((op) => [op, 'pilot'])), get_wallet: 'available', create_deal: 'available', request_growth_report: 'available' } });
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

    for (const sdk of SDKS) {
      it(`runs an identical call again once the cause of its refusal is gone, through ${sdk.name}`, async () => {
        const ws = await workspace(h.db);
        const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals', 'generate:reports', 'read:wallet']);
        const client = await sdk.connect(h.base, key);
        try {
          const answer = async (name: string, args: Record<string, unknown>) => {
            const r = await client.callTool({ name, arguments: args });
            return { body: toolJson(r), error: r.isError === true, replayed: r._meta?.['storelens/idempotent-replayed'] === true };
          };
          // A deal for a store that is not one of the workspace's accounts yet: 404.
          const deal = { store_id: 'store-late', title: 'Replatform' };
          expect(await answer('create_deal', deal)).toMatchObject({ error: true, body: { status: 404 } });
          await seedAccounts(h.db, ws.id, [{ store_id: 'store-late', score: 0.9 }]);
          const created = await answer('create_deal', deal);
          expect(created, JSON.stringify(created.body)).toMatchObject({ error: false, replayed: false, body: { object: 'deal', store_id: 'store-late' } });
          // What was done is still remembered: the identical call again is its replay, not a second deal.
          expect(await answer('create_deal', deal)).toMatchObject({ error: false, replayed: true, body: { id: created.body.id } });

          // A report the wallet cannot pay for: 409; once credited, the identical call is made (and charged once).
          const report = { store_id: 'store-late' };
          expect(await answer('request_growth_report', report)).toMatchObject({ error: true, body: { type: 'https://storelens.dev/problems/insufficient-funds' } });
          expect((await run('wallet', 'credit', ws.name, '10', '--reason', 'reports', '--as', 'owner@example.com')).code).toBe(0);
          const requested = await answer('request_growth_report', report);
          expect(requested, JSON.stringify(requested.body)).toMatchObject({ error: false, replayed: false });
          expect(await answer('request_growth_report', report)).toMatchObject({ error: false, replayed: true, body: { id: requested.body.id } });
          expect((await call(h.base, 'GET', '/wallet', { key })).body.balance).toBeLessThan(1000);
        } finally {
          await client.close();
        }
      });

      it(`says in words that a refusal kept under a given idempotency_key was not tried again, through ${sdk.name}`, async () => {
        const ws = await workspace(h.db);
        const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
        const client = await sdk.connect(h.base, key);
        try {
          const deal = { store_id: 'store-late', title: 'Replatform', idempotency_key: 'deal-late' };
          const first = await client.callTool({ name: 'create_deal', arguments: deal });
          expect(first.isError).toBe(true);
          expect(first.content).toHaveLength(1);
          await seedAccounts(h.db, ws.id, [{ store_id: 'store-late', score: 0.9 }]);
          // The same key replays the refusal, as over REST; the assistant reads that nothing was tried, and how to try.
          const again = await client.callTool({ name: 'create_deal', arguments: deal });
          expect(again).toMatchObject({ isError: true, _meta: { 'storelens/idempotent-replayed': true } });
          expect(toolJson(again)).toMatchObject({ status: 404 });
          expect((again.content as { text: string }[])[1]?.text).toMatch(/^Nothing was tried now: .*new idempotency_key/);
          const fresh = await client.callTool({ name: 'create_deal', arguments: { ...deal, idempotency_key: 'deal-late-2' } });
          expect(fresh.isError, JSON.stringify(fresh.content)).toBeFalsy();
        } finally {
          await client.close();
        }
      });
    }
  });
}
