/**
 * The MCP TypeScript SDK most assistants ship today (`@modelcontextprotocol/sdk` 1.x), over real
 * HTTP and without a browser: its own OAuth client provider meets the 401, registers itself
 * dynamically (with the resource's scopes), sends the member through sign-in and consent, and
 * calls a tool on imported accounts, and reads a problem as a tool error; its refresh token works. The 2.x client is covered by oauth-registration.test.ts.
 */
import { UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { HttpBrowser, MemoryProvider } from '../helpers/oauth.js';

const EMAIL = 'ravi@example.com';
const PASSWORD = 'correct horse battery';

async function connect(base: string, provider: MemoryProvider): Promise<Client> {
  const client = new Client({ name: 'storelens-sdk1-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  return client;
}

for (const d of dialects) describe.skipIf(d.skip)(`@modelcontextprotocol/sdk 1.x registering itself on ${d.label}`, () => {
  let h: Harness;
  let origin: string;
  let ws: Workspace;

  beforeAll(async () => {
    h = await startApi(d.name);
    origin = h.base.replace(/\/api\/v1$/, '');
    ws = await workspace(h.db);
    await upsertMember(h.db.kysely, ws.id, EMAIL, 'member', new Date());
    await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
    await importAccounts(h.db, ws.id, [
      { store_id: 'imported-1', score: 0.9, evidence: [{ signal: 'agentic_feature_adopted', detail: 'llms_txt' }] },
      { store_id: 'imported-2', score: 0.4, evidence: [{ feature: 'plus_plan', detail: 'On the Plus plan' }] },
    ], new Date());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('registers, signs in, calls a tool and refreshes', async () => {
    const provider = new MemoryProvider('Assistant on SDK 1.x');
    await expect(connect(h.base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    // The SDK registered itself before sending the member to sign in.
    expect(provider.info?.client_id).toBeTruthy();
    expect(provider.info.client_secret).toBeUndefined();
    // …asking for the scopes the resource advertises (the request the server once refused).
    expect(provider.info.scope.split(' ')).toEqual(expect.arrayContaining(['read:accounts', 'write:deals']));
    const params = await new HttpBrowser(origin).authorize(provider.authorizationUrl!, { email: EMAIL, password: PASSWORD, workspaceId: ws.id });
    expect(params.get('error')).toBeNull();
    await new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider }).finishAuth(params.get('code')!);
    expect(provider.saved.refresh_token).toBeTruthy();

    const client = await connect(h.base, provider);
    await client.listTools();
    // Imported accounts, as the client checks them against list_accounts' output schema.
    const page = await client.callTool({ name: 'list_accounts', arguments: { filter: 'all' } });
    expect(page.isError).toBeFalsy();
    expect((page.structuredContent as { data: { store_id: string }[] }).data.map((r) => r.store_id)).toEqual(['imported-1', 'imported-2']);
    // A problem reaches the assistant as a tool error it can read, not as a thrown client error.
    const missing = await client.callTool({ name: 'get_account', arguments: { store_id: 'not-ours' } });
    expect(missing.isError).toBe(true);
    expect(missing.structuredContent).toBeUndefined();
    expect(JSON.parse((missing.content as { text: string }[])[0]!.text)).toMatchObject({ type: 'https://storelens.dev/problems/not-found', status: 404 });
    // A member's tools: no webhook registration.
    expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('register_webhook');

    const r = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: provider.saved.refresh_token, client_id: provider.info.client_id }),
    });
    expect(r.status).toBe(200);
    expect(((await r.json()) as { refresh_token: string }).refresh_token).not.toBe(provider.saved.refresh_token);
    await client.close();
  }, 60_000);
});
