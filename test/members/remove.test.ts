/**
 * `storelens members remove` and `members list`, against a running server on the same database
 * (the CLI opens its own connections, as another process does): a removal ends the member's API
 * keys, browser sessions and assistant tokens at the server's next request; adding the member
 * again revives none of them; the last owner cannot be removed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueApiKey, KeyCreatorRefused } from '../../src/members/issue-key.js';
import { randomToken, tokenHash } from '../../src/core/tokens.js';
import { insertSession } from '../../src/members/store.js';
import { accountIdOf, mcpResourceOf } from '../../src/oauth/provider.js';
import { oauthAdapter, recordGrant } from '../../src/oauth/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { upsertMember } from '../../src/members/store.js';
import { call, startApi, workspace, type Harness } from '../helpers/api.js';
import { adminCli } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';

const BO = 'bo@example.com';

for (const d of dialects) {
  describe.skipIf(d.skip)(`members remove and list on ${d.label}`, () => {
    let h: Harness;
    let origin: string;
    let ws: Workspace;
    const run = adminCli(() => h.t);

    beforeAll(async () => {
      h = await startApi(d.name);
      origin = h.base.replace(/\/api\/v1$/, '');
    });
    afterAll(async () => {
      await h?.close();
    });

    /** bo, an admin of `ws` (and a member of another workspace, so a session alive would still sign in), with a key, a browser session and an assistant token. */
    async function boWithEverything() {
      ws = await workspace(h.db);
      const elsewhere = await workspace(h.db);
      await upsertMember(h.db.kysely, ws.id, BO, 'admin', h.clock.now());
      await upsertMember(h.db.kysely, elsewhere.id, BO, 'member', h.clock.now());
      const key = (await issueApiKey(h.db, { workspaceId: ws.id, name: 'bo key', scopes: ['read:accounts'], createdBy: BO, now: h.clock.now() })).key;
      const cookie = randomToken();
      const now = h.clock.now();
      await h.db.write((trx) => insertSession(trx, { tokenHash: tokenHash(cookie), email: BO, csrf: randomToken(), now, expiresAt: new Date(now.getTime() + 3600_000) }));
      const Adapter = oauthAdapter(h.db, h.clock.now);
      const accountId = accountIdOf(BO);
      const iat = Math.floor(now.getTime() / 1000);
      await new Adapter('Grant').upsert('grant-bo', { accountId, clientId: 'test-assistant', iat, exp: iat + 3600 }, 3600);
      await recordGrant(h.db, 'grant-bo', { email: BO, workspace_id: ws.id, client_id: 'test-assistant' }, now);
      const token = `at-${randomToken()}`;
      await new Adapter('AccessToken').upsert(token, { accountId, grantId: 'grant-bo', clientId: 'test-assistant', aud: mcpResourceOf(origin), scope: 'read:accounts', iat, exp: iat + 3600 }, 3600);
      await new Adapter('RefreshToken').upsert(`rt-${randomToken()}`, { accountId, grantId: 'grant-bo', clientId: 'test-assistant', iat, exp: iat + 3600 }, 3600);
      return {
        apiKey: () => call(h.base, 'GET', '/accounts', { key }),
        page: () => fetch(`${origin}/integrations`, { headers: { cookie: `storelens_session=${cookie}` }, redirect: 'manual' }),
        mcp: () =>
          fetch(`${h.base}/mcp`, {
            method: 'POST',
            headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
            body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
          }),
      };
    }

    it('ends the key (401), the browser session and the assistant token at the next request', async () => {
      const bo = await boWithEverything();
      expect((await bo.apiKey()).status).toBe(200);
      expect((await bo.page()).status).toBe(200);
      expect((await bo.mcp()).status).toBe(200);

      const r = await run('members', 'remove', ws.name, 'Bo@Example.com', '--json');
      expect(r.code).toBe(0);
      expect(r.json).toEqual({
        workspace_id: ws.id,
        email: BO,
        role: 'admin',
        revoked_keys: [expect.stringMatching(/.+/)],
        sessions_ended: 1,
        assistant_grants_revoked: 1,
        invites_withdrawn: 0,
      });

      const key = await bo.apiKey();
      expect(key.status).toBe(401);
      expect(key.headers.get('www-authenticate')).toMatch(/invalid_token/);
      const page = await bo.page();
      expect(page.status).toBe(303);
      expect(page.headers.get('location')).toMatch(/^\/signin/);
      const mcp = await bo.mcp();
      expect(mcp.status).toBe(401);
      expect(mcp.headers.get('www-authenticate')).toMatch(/invalid_token/);
    });

    it('revives nothing when the member is added again: the old key stays revoked', async () => {
      const bo = await boWithEverything();
      expect((await run('members', 'remove', ws.name, BO)).code).toBe(0);
      expect((await run('members', 'add', '--workspace', ws.name, '--email', BO, '--role', 'admin')).code).toBe(0);
      const key = await bo.apiKey();
      expect(key.status).toBe(401);
      expect(key.body.detail).toMatch(/unknown or revoked/);
      expect((await bo.mcp()).status).toBe(401);
      expect((await bo.page()).status).toBe(303);
      const keys = await run('keys', 'list', '--workspace', ws.name, '--json');
      expect((keys.json as { keys: { created_by: string; revoked_at: string | null }[] }).keys.filter((k) => k.created_by === BO)).toEqual([
        expect.objectContaining({ revoked_at: '2026-02-01T09:00:00.000Z' }),
      ]);
    });

    it('issues no key to a member removed, or no longer an owner or admin, after the check before it: checked again under the removal\'s lock', async () => {
      await boWithEverything();
      const issue = () => issueApiKey(h.db, { workspaceId: ws.id, name: 'late', scopes: ['read:accounts'], createdBy: BO, now: h.clock.now(), creatorManages: true });
      const keys = () => h.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id).where('name', '=', 'late').execute();
      await upsertMember(h.db.kysely, ws.id, BO, 'member', h.clock.now());
      await expect(issue()).rejects.toThrow(KeyCreatorRefused);
      expect((await run('members', 'remove', ws.name, BO)).code).toBe(0);
      await expect(issue()).rejects.toThrow(/not a member/);
      expect(await keys()).toEqual([]);
      await upsertMember(h.db.kysely, ws.id, BO, 'admin', h.clock.now());
      expect((await issue()).created_by).toBe(BO);
    });

    it('refuses to remove the last owner (exit 2), and removes an owner while another remains', async () => {
      ws = await workspace(h.db);
      const last = await run('members', 'remove', ws.name, 'owner@example.com');
      expect(last.code).toBe(2);
      expect(last.stderr).toMatch(/owner@example.com is the last owner/);
      await upsertMember(h.db.kysely, ws.id, BO, 'owner', h.clock.now());
      expect((await run('members', 'remove', ws.name, 'owner@example.com')).code).toBe(0);
      expect((await run('members', 'remove', ws.name, BO)).code).toBe(2);
    });

    it('refuses to give the last owner another role with members add, and allows it once another owner exists', async () => {
      ws = await workspace(h.db);
      const demote = await run('members', 'add', '--workspace', ws.name, '--email', 'owner@example.com', '--role', 'admin');
      expect(demote.code).toBe(2);
      expect(demote.stderr).toMatch(/owner@example.com is the last owner/);
      expect((await run('members', 'add', '--workspace', ws.name, '--email', 'owner@example.com', '--role', 'owner')).code).toBe(0);
      expect((await run('members', 'add', '--workspace', ws.name, '--email', BO, '--role', 'owner')).code).toBe(0);
      expect((await run('members', 'add', '--workspace', ws.name, '--email', 'owner@example.com', '--role', 'admin')).code).toBe(0);
    });

    it('refuses an email that is not a member, and an unknown workspace', async () => {
      ws = await workspace(h.db);
      const r = await run('members', 'remove', ws.name, 'nobody@example.com');
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/nobody@example.com is not a member/);
      expect((await run('members', 'remove', 'no-such-workspace', BO)).code).toBe(2);
    });

    it('lists the members with role and date added, as text and as JSON', async () => {
      ws = await workspace(h.db);
      await run('members', 'add', '--workspace', ws.name, '--email', 'cy@example.com', '--role', 'member');
      const r = await run('members', 'list', ws.name, '--json');
      expect(r.code).toBe(0);
      expect(r.json).toEqual({
        workspace_id: ws.id,
        members: [
          { email: 'cy@example.com', role: 'member', created_at: '2026-02-01T09:00:00.000Z' },
          { email: 'owner@example.com', role: 'owner', created_at: expect.any(String) },
        ],
      });
      const text = await run('members', 'list', ws.name);
      expect(text.stdout).toMatch(/^cy@example.com {2}member {2}added 2026-02-01T09:00:00.000Z\nowner@example.com {2}owner/);
    });
  });
}
