/**
 * The walls between workspaces for a member signed in through the assistant connector: one
 * member connects an assistant to workspace X and another to workspace Y, each through the
 * official SDK's OAuth sign-in. Each token acts in its own workspace only, and what one spends
 * (its rate limit) is not the other's; a consent to a workspace the member is not in is refused.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash, upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { HttpBrowser, MemoryProvider } from '../helpers/oauth.js';

const EMAIL = 'dana@example.com';
const PASSWORD = 'correct horse battery';

async function connect(base: string, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'storelens-walls-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  return client;
}

async function signIn(base: string, browser: HttpBrowser, provider: MemoryProvider, ws: Workspace): Promise<Client> {
  await expect(connect(base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
  const params = await browser.authorize(provider.authorizationUrl!, { email: EMAIL, password: PASSWORD, workspaceId: ws.id });
  await new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }).finishAuth(params.get('code')!, params.get('iss')!);
  return connect(base, provider);
}

const meta = (r: { _meta?: Record<string, unknown> }) => r._meta?.['storelens/status'];
const text = (r: { content?: unknown }) => (r.content as { text: string }[])[0]!.text;

for (const d of dialects) {
  describe.skipIf(d.skip)(`one member's assistants on two workspaces on ${d.label}`, () => {
    let h: Harness;
    let x: Workspace;
    let y: Workspace;
    let inX: Client;
    let inY: Client;

    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: { read: 3, write: 20, report: 5 } });
      x = await workspace(h.db);
      y = await workspace(h.db);
      for (const ws of [x, y]) await upsertMember(h.db.kysely, ws.id, EMAIL, 'admin', new Date());
      await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
      await importAccounts(h.db, x.id, [{ store_id: 'x-store', score: 0.5 }], new Date());
      await importAccounts(h.db, y.id, [{ store_id: 'y-store', score: 0.5 }], new Date());
      const origin = h.base.replace(/\/api\/v1$/, '');
      const browser = new HttpBrowser(origin);
      inX = await signIn(h.base, browser, new MemoryProvider('Assistant X'), x);
      inY = await signIn(h.base, browser, new MemoryProvider('Assistant Y'), y);
    });
    afterAll(async () => {
      await inX?.close();
      await inY?.close();
      await h?.close();
    });

    it("allows no consent to a workspace the member is not in, existing or not, and records no grant for it", async () => {
      const z = await workspace(h.db);
      const origin = h.base.replace(/\/api\/v1$/, '');
      const answers: string[] = [];
      for (const id of [z.id, `ws_${'0'.repeat(20)}`]) {
        const provider = new MemoryProvider('Assistant Z');
        await expect(connect(h.base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
        const err = await new HttpBrowser(origin).authorize(provider.authorizationUrl!, { email: EMAIL, password: PASSWORD, workspaceId: id }).catch((e: Error) => e);
        expect(err).toBeInstanceOf(Error);
        answers.push(String((err as Error).message).replace(/at \S+/, 'at <page>').replace(/nonce="[^"]*"/g, 'nonce="…"'));
      }
      expect(answers[0]).toMatch(/did not lead back to the assistant: 403/);
      expect(answers[1]).toBe(answers[0]);
      expect(await h.db.kysely.selectFrom('oauth_grants').select('grant_id').where('workspace_id', '=', z.id).execute()).toEqual([]);
    });

    it("reads each workspace's own accounts only", async () => {
      expect(meta(await inX.callTool({ name: 'get_account', arguments: { store_id: 'y-store' } }))).toBe(404);
      expect(meta(await inY.callTool({ name: 'get_account', arguments: { store_id: 'x-store' } }))).toBe(404);
      expect(meta(await inY.callTool({ name: 'get_account', arguments: { store_id: 'y-store' } }))).toBe(200);
    });

    it("counts each workspace's calls against its own limit: the calls made in X leave Y's untouched", async () => {
      // The next minute: a window of its own.
      h.clock.advance(60_000);
      const inXCalls = [];
      for (let i = 0; i < 4; i++) inXCalls.push(meta(await inX.callTool({ name: 'list_accounts', arguments: {} })));
      expect(inXCalls).toEqual([200, 200, 200, 429]);
      const r = await inY.callTool({ name: 'list_accounts', arguments: {} });
      expect(meta(r), text(r)).toBe(200);
    });
  });
}
