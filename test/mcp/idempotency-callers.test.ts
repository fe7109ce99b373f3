/**
 * A mutating tool called without `idempotency_key` by members signed in through the assistant
 * connector: the derived key belongs to the member and the assistant, so two members recording
 * the same outcome make two rows and neither is replayed; one member repeating a call is a retry.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomToken } from '../../src/core/tokens.js';
import { accountIdOf, mcpResourceOf } from '../../src/oauth/provider.js';
import { oauthAdapter, recordGrant } from '../../src/oauth/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { upsertMember } from '../../src/members/store.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`derived idempotency keys of signed-in members on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;

    beforeAll(async () => {
      h = await startApi(d.name);
      ws = await workspace(h.db);
      await seedAccounts(h.db, ws.id, [{ store_id: 'shared-store', score: 0.9 }]);
    });
    afterAll(async () => {
      await h?.close();
    });

    /** An access token of `email` through assistant `client`, as the connector stores one. */
    async function signIn(email: string, client: string): Promise<string> {
      await upsertMember(h.db.kysely, ws.id, email, 'member', h.clock.now());
      const Adapter = oauthAdapter(h.db, h.clock.now);
      const accountId = accountIdOf(email);
      const iat = Math.floor(h.clock.now().getTime() / 1000);
      const grantId = `grant-${randomToken()}`;
      await new Adapter('Grant').upsert(grantId, { accountId, clientId: client, iat, exp: iat + 3600 }, 3600);
      await recordGrant(h.db, grantId, { email, workspace_id: ws.id, client_id: client }, h.clock.now());
      const token = `at-${randomToken()}`;
      const resource = mcpResourceOf(h.base.replace(/\/api\/v1$/, ''));
      await new Adapter('AccessToken').upsert(token, { accountId, grantId, clientId: client, aud: resource, scope: 'write:outcomes read:accounts', iat, exp: iat + 3600 }, 3600);
      return token;
    }

    let rpcId = 0;
    async function recordOutcome(token: string, note: string): Promise<{ id: string; replayed: boolean }> {
      const r = await fetch(`${h.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: ++rpcId, method: 'tools/call', params: { name: 'record_outcome', arguments: { store_id: 'shared-store', action: 'proposal', note } } }),
      });
      expect(r.status).toBe(200);
      const text = await r.text();
      // JSON, or one server-sent event carrying it.
      const json = JSON.parse(text.startsWith('{') ? text : text.split('\n').find((l) => l.startsWith('data: '))!.slice(6));
      expect(json.result.isError).toBeFalsy();
      return { id: JSON.parse(json.result.content[0].text).id, replayed: json.result._meta?.['storelens/idempotent-replayed'] === true };
    }

    const rows = async (note: string) => (await h.db.kysely.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).where('note', '=', note).execute()).length;

    it('gives two members their own rows for the same call, and replays a member repeating it', async () => {
      const ann = await signIn('ann@example.com', 'assistant-1');
      const bo = await signIn('bo@example.com', 'assistant-1');
      const a = await recordOutcome(ann, 'two members');
      const b = await recordOutcome(bo, 'two members');
      expect(a.replayed).toBe(false);
      expect(b.replayed).toBe(false);
      expect(b.id).not.toBe(a.id);
      expect(await rows('two members')).toBe(2);

      const again = await recordOutcome(bo, 'two members');
      expect(again).toEqual({ id: b.id, replayed: true });
      expect(await rows('two members')).toBe(2);
    });

    it('keeps one member\'s two assistants apart', async () => {
      const one = await signIn('cy@example.com', 'assistant-1');
      const two = await signIn('cy@example.com', 'assistant-2');
      const a = await recordOutcome(one, 'two assistants');
      const b = await recordOutcome(two, 'two assistants');
      expect(b.replayed).toBe(false);
      expect(b.id).not.toBe(a.id);
      expect(await rows('two assistants')).toBe(2);
    });
  });
}
