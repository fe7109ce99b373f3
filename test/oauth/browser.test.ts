/**
 * The assistant connector end to end: the official MCP SDK client (with its OAuth support)
 * meets a 401, discovers the protected-resource and authorization-server metadata, sends the
 * member to the sign-in page in real Chromium (sign-in form, consent screen listing the grants),
 * gets its tokens with PKCE, lists tools and calls one. Then a demotion narrows the tools on the
 * next call, a removal ends access, a token is refused at another audience, a refresh rotates the
 * refresh token, and revocation ends access.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setPasswordHash } from '../../src/members/store.js';
import { registerOAuthClient } from '../../src/oauth/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { removeMember, upsertMember } from '../../src/members/store.js';
import { hashPassword } from '../../src/members/passwords.js';
import { call, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { MemoryProvider } from '../helpers/oauth.js';

const CLIENT_ID = 'test-assistant';
const EMAIL = 'ann@example.com';
const PASSWORD = 'correct horse battery';

/** The loopback redirect target: each answer at /callback, in order (other paths, e.g. a favicon, are 404). */
function callbackServer(): Promise<{ url: string; next: () => Promise<URLSearchParams>; close: () => void }> {
  const answers: URLSearchParams[] = [];
  let waiting: ((p: URLSearchParams) => void) | undefined;
  const server: Server = createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://127.0.0.1');
    if (u.pathname !== '/callback') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'text/plain' }).end('You can close this window.');
    if (waiting) {
      waiting(u.searchParams);
      waiting = undefined;
    } else answers.push(u.searchParams);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/callback`,
        next: () => (answers.length ? Promise.resolve(answers.shift()!) : new Promise((r) => (waiting = r))),
        close: () => server.close(),
      }),
    ),
  );
}

/** Leaves the page (on the assistant's callback) and closes it. */
async function done(page: Page): Promise<void> {
  await page.goto('about:blank');
  await page.close();
}

async function connect(base: string, provider: OAuthClientProvider): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const client = new Client({ name: 'storelens-oauth-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), { authProvider: provider });
  await client.connect(transport);
  return { client, transport };
}

for (const d of dialects) describe.skipIf(!HAS_CHROMIUM || d.skip)(`the assistant connector's OAuth sign-in in Chromium on ${d.label}`, () => {
  let h: Harness;
  let ws: Workspace;
  let browser: BrowserContext;
  let origin: string;
  let cb: Awaited<ReturnType<typeof callbackServer>>;
  let provider: MemoryProvider;

  beforeAll(async () => {
    h = await startApi(d.name);
    ws = await workspace(h.db);
    origin = h.base.replace(/\/api\/v1$/, '');
    cb = await callbackServer();
    provider = new MemoryProvider('Test assistant', { redirectUrl: cb.url, clientId: CLIENT_ID });
    await upsertMember(h.db.kysely, ws.id, EMAIL, 'admin', new Date());
    await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
    await registerOAuthClient(h.db, { client_id: CLIENT_ID, client_name: 'Test assistant', redirect_uris: [cb.url] }, new Date());
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    cb?.close();
    await h?.close();
  });

  it('publishes the metadata an MCP client discovers from the 401', async () => {
    const r = await fetch(`${h.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(r.status).toBe(401);
    const challenge = r.headers.get('www-authenticate')!;
    expect(challenge).toContain(`resource_metadata="${origin}/.well-known/oauth-protected-resource/api/v1/mcp"`);
    const prm = (await (await fetch(`${origin}/.well-known/oauth-protected-resource/api/v1/mcp`)).json()) as any;
    expect(prm).toMatchObject({ resource: `${origin}/api/v1/mcp`, authorization_servers: [origin] });
    const as = (await (await fetch(`${origin}/.well-known/oauth-authorization-server`)).json()) as any;
    expect(as.issuer).toBe(origin);
    expect(as.code_challenge_methods_supported).toEqual(['S256']);
    expect(as.authorization_response_iss_parameter_supported).toBe(true);
    expect(as.authorization_endpoint).toBe(`${origin}/oauth/auth`);
    expect(as.registration_endpoint).toBe(`${origin}/oauth/reg`);
    expect(as.revocation_endpoint).toBeDefined();
    expect(as.grant_types_supported).toEqual(expect.arrayContaining(['authorization_code', 'refresh_token']));
  });

  it('signs a member in through the page, then lists and calls tools with grants of the role at each call', async () => {
    // 1. The SDK meets the 401, discovers everything and hands over the authorization URL.
    await expect(connect(h.base, provider)).rejects.toBeInstanceOf(UnauthorizedError);
    const authUrl = provider.authorizationUrl!;
    expect(authUrl.origin + authUrl.pathname).toBe(`${origin}/oauth/auth`);
    expect(authUrl.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authUrl.searchParams.get('resource')).toBe(`${origin}/api/v1/mcp`);

    // 2. The member signs in and consents in Chromium.
    const page = await browser.newPage();
    await page.goto(authUrl.href);
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email').fill(EMAIL);
    await page.getByLabel('Password').fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/oauth\/interaction\//);
    const grants = await page.getByRole('list', { name: `Grants in ${ws.name}` }).textContent();
    expect(grants).toContain('manage:webhooks');
    expect(grants).toContain('read:accounts');
    await page.getByRole('button', { name: 'Allow' }).click();
    const params = await cb.next();
    expect(params.get('iss')).toBe(origin);
    const code = params.get('code')!;
    expect(code).toBeTruthy();
    await done(page);

    // 3. The SDK exchanges the code (PKCE) and connects with the access token.
    const first = new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider });
    await first.finishAuth(code, params.get('iss')!);
    expect(provider.saved.access_token).toBeTruthy();
    expect(provider.saved.refresh_token).toBeTruthy();
    const { client } = await connect(h.base, provider);
    const names = (await client.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['list_accounts', 'register_webhook']));
    const listed = await client.callTool({ name: 'list_accounts', arguments: { limit: 1 } });
    expect(listed.isError).toBeFalsy();

    // A token for the MCP URL is no API key for REST, and no token for another audience.
    expect((await call(h.base, 'GET', '/accounts', { key: provider.saved.access_token })).status).toBe(401);
    const otherAudience = await fetch(`${h.base.replace('127.0.0.1', 'localhost')}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(otherAudience.status).toBe(401);
    expect(otherAudience.headers.get('www-authenticate')).toContain('invalid_token');

    // 4. Demoted to member: webhook management is gone at the next call.
    await upsertMember(h.db.kysely, ws.id, EMAIL, 'member', new Date());
    const after = (await client.listTools()).tools.map((t) => t.name);
    expect(after).toContain('list_accounts');
    expect(after).not.toContain('register_webhook');
    // A call of the tool listed before answers the 403 REST would, as a tool error the assistant can read.
    const refused = await client.callTool({ name: 'list_webhooks', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(JSON.parse((refused.content as { text: string }[])[0]!.text)).toMatchObject({ type: 'https://storelens.dev/problems/insufficient-scope', status: 403 });

    // 5. Removed from the workspace: the very next call is a 401.
    await removeMember(h.db.kysely, ws.id, EMAIL);
    const gone = await fetch(`${h.base}/mcp`, {
      method: 'POST',
      headers: { authorization: `Bearer ${provider.saved.access_token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });
    expect(gone.status).toBe(401);
    await client.close().catch(() => {});
  }, 60_000);

  it('rotates the refresh token, and a revoked token stops working on the next call', async () => {
    await upsertMember(h.db.kysely, ws.id, EMAIL, 'member', new Date());
    const tokenUrl = `${origin}/oauth/token`;
    const oldRefresh = provider.saved.refresh_token as string;
    const refreshed = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: oldRefresh, client_id: CLIENT_ID }) });
    expect(refreshed.status).toBe(200);
    const fresh = (await refreshed.json()) as { access_token: string; refresh_token: string };
    expect(fresh.refresh_token).not.toBe(oldRefresh);

    const mcp = (token: string) =>
      fetch(`${h.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
    expect((await mcp(fresh.access_token)).status).toBe(200);
    // Revocation (RFC 7009) of the refresh token ends its grant: the access token stops at the next call.
    const revoked = await fetch(`${origin}/oauth/token/revocation`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ token: fresh.refresh_token, client_id: CLIENT_ID }) });
    expect(revoked.status).toBe(200);
    expect((await mcp(fresh.access_token)).status).toBe(401);
    // The rotated-out refresh token is spent.
    const reuse = await fetch(tokenUrl, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: oldRefresh, client_id: CLIENT_ID }) });
    expect(reuse.status).toBe(400);
  }, 30_000);

  it('reuses the signed-in session, refuses a consent without the CSRF token, and tells the assistant when the member denies', async () => {
    const other = new MemoryProvider('Test assistant', { redirectUrl: cb.url, clientId: CLIENT_ID });
    await expect(connect(h.base, other)).rejects.toBeInstanceOf(UnauthorizedError);
    const page = await browser.newPage();
    // Signed in already (the browser kept the session): straight to the consent screen.
    await page.goto(other.authorizationUrl!.href);
    await page.waitForURL(/\/oauth\/interaction\//);
    const grants = await page.getByRole('list', { name: `Grants in ${ws.name}` }).textContent();
    expect(grants).toContain('read:accounts');
    expect(grants).not.toContain('manage:webhooks'); // a member now
    const forged = await page.request.post(page.url(), { form: { decision: 'allow', workspace: ws.id }, maxRedirects: 0 });
    expect(forged.status()).toBe(403);
    await page.getByRole('button', { name: 'Deny' }).click();
    const params = await cb.next();
    expect(params.get('error')).toBe('access_denied');
    expect(params.get('iss')).toBe(origin);
    expect(params.get('code')).toBeNull();
    await done(page);
  }, 30_000);
});
