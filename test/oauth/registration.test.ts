/**
 * Assistants as they ship, over real HTTP and without a browser: the official MCP SDK's own OAuth
 * client provider meets the 401, registers itself dynamically (with the resource's scopes, as the
 * SDK does), sends the member through sign-in and consent, and calls tools. One member keeps two
 * assistants on two workspaces at once; signing out ends both. Registration takes public clients
 * with https or loopback redirect URIs only.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SCOPES } from '../../src/api/scopes.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { removeMember, upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { HttpBrowser, REDIRECT, MemoryProvider } from '../helpers/oauth.js';

const EMAIL = 'dana@example.com';
const PASSWORD = 'correct horse battery';

async function connect(base: string, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'storelens-registration-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }));
  return client;
}

/** Registers, signs in through `browser` to `ws`, and connects: the SDK's whole first connection. */
async function signIn(base: string, browser: HttpBrowser, provider: MemoryProvider, ws: Workspace): Promise<Client> {
  await expect(connect(base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
  const params = await browser.authorize(provider.authorizationUrl!, { email: EMAIL, password: PASSWORD, workspaceId: ws.id });
  expect(params.get('error')).toBeNull();
  await new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider }).finishAuth(params.get('code')!, params.get('iss')!);
  return connect(base, provider);
}

for (const d of dialects) describe.skipIf(d.skip)(`the official SDK's dynamic registration on ${d.label}`, () => {
  let h: Harness;
  let origin: string;
  let x: Workspace;
  let y: Workspace;
  const mcp = (token: string) =>
    fetch(`${h.base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
  const refresh = (p: MemoryProvider) =>
    fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: p.saved.refresh_token, client_id: p.info.client_id }),
    });
  const register = (body: Record<string, unknown>) =>
    fetch(`${origin}/oauth/reg`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none', ...body }) });

  beforeAll(async () => {
    h = await startApi(d.name);
    origin = h.base.replace(/\/api\/v1$/, '');
    x = await workspace(h.db);
    y = await workspace(h.db);
    await upsertMember(h.db.kysely, x.id, EMAIL, 'admin', new Date());
    await upsertMember(h.db.kysely, y.id, EMAIL, 'member', new Date());
    await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
  });
  afterAll(async () => {
    await h?.close();
  });

  it('lists the resource scopes in the authorization server metadata and registers a client asking for them', async () => {
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as { scopes_supported: string[] };
    expect(as.scopes_supported).toEqual(expect.arrayContaining([...SCOPES, 'offline_access']));
    const r = await register({ scope: 'read:accounts write:deals' });
    expect(r.status).toBe(201);
    const client = (await r.json()) as Record<string, unknown>;
    expect(client.scope).toBe('read:accounts write:deals');
    expect(client.token_endpoint_auth_method).toBe('none');
    expect(client).not.toHaveProperty('client_secret');
  });

  it('registers public clients only, with https or loopback redirect URIs', async () => {
    for (const method of ['client_secret_basic', 'client_secret_post', 'client_secret_jwt']) {
      const r = await register({ token_endpoint_auth_method: method });
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe('invalid_client_metadata');
    }
    const plainHttp = await register({ redirect_uris: ['http://assistant.example/callback'] });
    expect(plainHttp.status).toBe(400);
    expect(((await plainHttp.json()) as { error: string }).error).toBe('invalid_redirect_uri');
    const fragment = await register({ redirect_uris: ['https://assistant.example/callback#x'] });
    expect(fragment.status).toBe(400);
    expect((await register({ redirect_uris: ['https://assistant.example/callback', 'http://[::1]:8123/cb', 'http://localhost:8123/cb'] })).status).toBe(201);
    expect((await register({ scope: 'read:everything' })).status).toBe(400);
  });

  it('signs in with the SDK registering itself, and one member keeps two assistants on two workspaces at once', async () => {
    const browser = new HttpBrowser(origin);
    const a = new MemoryProvider('Assistant A');
    const b = new MemoryProvider('Assistant B');

    const clientA = await signIn(h.base, browser, a, x);
    // The SDK registered itself with the scopes the resource advertises.
    expect(a.info.client_id).toBeTruthy();
    expect(a.info.scope.split(' ')).toEqual(expect.arrayContaining(['read:accounts', 'write:deals']));
    expect(a.saved.refresh_token).toBeTruthy();
    expect((await clientA.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBeFalsy();

    // The same browser (still signed in) connects a second assistant to another workspace.
    const clientB = await signIn(h.base, browser, b, y);
    expect(b.info.client_id).not.toBe(a.info.client_id);
    expect((await clientB.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBeFalsy();

    // Both stay connected, each with its workspace's role: admin in X, member in Y.
    expect((await clientA.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBeFalsy();
    expect((await clientA.listTools()).tools.map((t) => t.name)).toContain('register_webhook');
    expect((await clientB.listTools()).tools.map((t) => t.name)).not.toContain('register_webhook');

    // Each refreshes, and each new access token works.
    for (const p of [a, b]) {
      const r = await refresh(p);
      expect(r.status).toBe(200);
      const fresh = (await r.json()) as { access_token: string; refresh_token: string };
      expect(fresh.refresh_token).not.toBe(p.saved.refresh_token);
      p.saved = { ...p.saved, ...fresh };
      expect((await mcp(fresh.access_token)).status).toBe(200);
    }

    // Leaving workspace Y ends B's access only.
    await removeMember(h.db.kysely, y.id, EMAIL);
    expect((await mcp(b.saved.access_token)).status).toBe(401);
    expect((await refresh(b)).status).toBe(400);
    expect((await mcp(a.saved.access_token)).status).toBe(200);
    await upsertMember(h.db.kysely, y.id, EMAIL, 'member', new Date());

    // Connecting B again (its registration kept, to Y) leaves A alone; then signing out disconnects both.
    const b2 = new MemoryProvider('Assistant B');
    b2.info = b.info;
    const again = await signIn(h.base, browser, b2, y);
    expect((await again.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBeFalsy();
    expect((await mcp(a.saved.access_token)).status).toBe(200);
    await browser.signOut();
    for (const p of [a, b2]) {
      expect((await mcp(p.saved.access_token)).status).toBe(401);
      const r = await refresh(p);
      expect(r.status).toBe(400);
      expect(((await r.json()) as { error: string }).error).toBe('invalid_grant');
    }
    await Promise.all([clientA, clientB, again].map((c) => c.close().catch(() => {})));
  }, 60_000);
});
