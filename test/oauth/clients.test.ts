/**
 * How assistants identify themselves to the authorization server, over a real socket: a Client
 * ID Metadata Document on loopback (accepted only under the local-development setting, read
 * through the SSRF guard, and signed in end to end with the SDK), dynamic registration for older clients, and the rules every
 * authorization request meets — PKCE S256 only, the MCP URL as the only resource.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport, UnauthorizedError, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { upsertMember } from '../../src/members/store.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { adminCli } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';
import { HttpBrowser } from '../helpers/oauth.js';

const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

/** Serves one client metadata document at /client.json (its client_id is its own URL). */
function cimdServer(): Promise<{ id: string; redirect: string; close: () => void }> {
  let id = '';
  let redirect = '';
  const server: Server = createServer((req, res) => {
    if (req.url !== '/client.json') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ client_id: id, client_name: 'Loopback assistant', redirect_uris: [redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as AddressInfo).port;
      id = `http://127.0.0.1:${port}/client.json`;
      redirect = `http://127.0.0.1:${port}/callback`;
      resolve({ id, redirect, close: () => server.close() });
    }),
  );
}

const authorize = (origin: string, p: Record<string, string>) => fetch(`${origin}/oauth/auth?${new URLSearchParams({ response_type: 'code', scope: 'read:accounts', ...p })}`, { redirect: 'manual' });

for (const d of dialects) describe.skipIf(d.skip)(`OAuth clients on ${d.label}`, () => {
  let local: Harness;
  let strict: Harness;
  let cimd: Awaited<ReturnType<typeof cimdServer>>;
  const originOf = (h: Harness) => h.base.replace(/\/api\/v1$/, '');

  beforeAll(async () => {
    local = await startApi(d.name, { oauth: { allowLocal: true } });
    strict = await startApi(d.name);
    cimd = await cimdServer();
  });
  afterAll(async () => {
    cimd?.close();
    await local?.close();
    await strict?.close();
  });

  it('advertises Client ID Metadata Documents and dynamic registration', async () => {
    const as = (await (await fetch(`${originOf(strict)}/.well-known/oauth-authorization-server`)).json()) as any;
    expect(as.client_id_metadata_document_supported).toBe(true);
    expect(as.registration_endpoint).toBe(`${originOf(strict)}/oauth/reg`);
  });

  it('accepts a loopback metadata document only under the local-development setting', async () => {
    const origin = originOf(local);
    const ok = await authorize(origin, { client_id: cimd.id, redirect_uri: cimd.redirect, code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/api/v1/mcp` });
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(/\/oauth\/interaction\//);

    const so = originOf(strict);
    const refused = await authorize(so, { client_id: cimd.id, redirect_uri: cimd.redirect, code_challenge: challenge, code_challenge_method: 'S256', resource: `${so}/api/v1/mcp` });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain('invalid_client');

    // An https document on a private address is never fetched (the webhooks' SSRF guard).
    const privateDoc = await authorize(so, { client_id: 'https://10.0.0.7/client.json', redirect_uri: 'https://10.0.0.7/cb', code_challenge: challenge, code_challenge_method: 'S256' });
    expect(privateDoc.status).toBe(400);
    expect(await privateDoc.text()).toContain('invalid_client');
  });

  it('signs in end to end with the SDK identified by a metadata document, and calls a tool', async () => {
    const origin = originOf(local);
    const ws = await workspace(local.db);
    await upsertMember(local.db.kysely, ws.id, 'cim@example.com', 'member', new Date());
    await setPasswordHash(local.db.kysely, 'cim@example.com', await hashPassword('correct horse battery'), new Date());
    let saved: any;
    let verifier = '';
    let authorizationUrl: URL | undefined;
    // The SDK sends an https metadata URL as client_id itself; a loopback one is given as the client's id.
    const provider: OAuthClientProvider = {
      redirectUrl: cimd.redirect,
      clientMetadata: { client_name: 'Loopback assistant', redirect_uris: [cimd.redirect], grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      clientInformation: () => ({ client_id: cimd.id }),
      tokens: () => saved,
      saveTokens: (t) => void (saved = t),
      redirectToAuthorization: (u) => void (authorizationUrl = u),
      saveCodeVerifier: (v) => void (verifier = v),
      codeVerifier: () => verifier,
    };
    const connect = async () => {
      const client = new Client({ name: 'storelens-cimd-test', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${local.base}/mcp`), { authProvider: provider }));
      return client;
    };
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    expect(authorizationUrl!.searchParams.get('client_id')).toBe(cimd.id);
    const params = await new HttpBrowser(origin).authorize(authorizationUrl!, { email: 'cim@example.com', password: 'correct horse battery', workspaceId: ws.id });
    await new StreamableHTTPClientTransport(new URL(`${local.base}/mcp`), { authProvider: provider }).finishAuth(params.get('code')!, params.get('iss')!);
    const client = await connect();
    expect((await client.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBeFalsy();
    await client.close();
  });

  it('pre-registers an assistant with `storelens oauth register`', async () => {
    const run = adminCli(() => strict.t);
    const origin = originOf(strict);
    const params = { client_id: 'desk-assistant', redirect_uri: 'http://127.0.0.1:9/desk', code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/api/v1/mcp` };
    expect((await authorize(origin, params)).status).toBe(400);
    const bad = await run('oauth', 'register', 'desk-assistant', '--redirect-uri', 'http://desk.example/cb');
    expect(bad.code).not.toBe(0);
    const r = await run('oauth', 'register', 'desk-assistant', '--redirect-uri', 'http://127.0.0.1:9/desk', '--client-name', 'Desk', '--json');
    expect(r.code).toBe(0);
    expect(r.json).toEqual({ client_id: 'desk-assistant', client_name: 'Desk', redirect_uris: ['http://127.0.0.1:9/desk'] });
    const ok = await authorize(origin, params);
    expect(ok.status).toBe(303);
    expect(ok.headers.get('location')).toMatch(/\/oauth\/interaction\//);
  });

  it('registers older clients dynamically, and insists on PKCE S256 and the MCP URL as resource', async () => {
    const origin = originOf(strict);
    const reg = await fetch(`${origin}/oauth/reg`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ client_name: 'Older assistant', redirect_uris: ['http://127.0.0.1:9/callback'], application_type: 'native', grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' }),
    });
    expect(reg.status).toBe(201);
    const client = (await reg.json()) as { client_id: string };
    const base = { client_id: client.client_id, redirect_uri: 'http://127.0.0.1:9/callback' };

    const fine = await authorize(origin, { ...base, code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/api/v1/mcp` });
    expect(fine.status).toBe(303);
    expect(fine.headers.get('location')).toMatch(/\/oauth\/interaction\//);

    const errorOf = (r: Response) => new URL(r.headers.get('location')!).searchParams;
    const noPkce = await authorize(origin, { ...base, resource: `${origin}/api/v1/mcp` });
    expect(errorOf(noPkce).get('error')).toBe('invalid_request');
    const plain = await authorize(origin, { ...base, code_challenge: verifier, code_challenge_method: 'plain', resource: `${origin}/api/v1/mcp` });
    expect(errorOf(plain).get('error')).toBe('invalid_request');
    const elsewhere = await authorize(origin, { ...base, code_challenge: challenge, code_challenge_method: 'S256', resource: 'https://other.example/api' });
    expect(errorOf(elsewhere).get('error')).toBe('invalid_target');
    expect(errorOf(elsewhere).get('iss')).toBe(origin);
  });
});
