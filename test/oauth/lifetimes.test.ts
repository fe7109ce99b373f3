/**
 * How long an assistant stays signed in, over real HTTP: each refresh keeps the connection for
 * another 30 days of disuse, and no refresh carries it past 90 days from the sign-in (then the
 * member signs in again).
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash, upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { HttpBrowser, MemoryProvider } from '../helpers/oauth.js';

const EMAIL = 'lee@example.com';
const PASSWORD = 'correct horse battery';
const DAY_MS = 24 * 3600_000;

for (const d of dialects) describe.skipIf(d.skip)(`an assistant's sign-in lifetime on ${d.label}`, () => {
  let h: Harness;
  let origin: string;
  let ws: Workspace;

  beforeAll(async () => {
    h = await startApi(d.name);
    origin = h.base.replace(/\/api\/v1$/, '');
    ws = await workspace(h.db);
    await upsertMember(h.db.kysely, ws.id, EMAIL, 'member', new Date());
    await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
  });
  afterAll(async () => {
    await h?.close();
  });

  /** Registers, signs in and exchanges the code: the provider holds the tokens. */
  async function signIn(): Promise<MemoryProvider> {
    const provider = new MemoryProvider('Lifetime assistant');
    const connect = () => new Client({ name: 'lifetime-test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider }));
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    const params = await new HttpBrowser(origin).authorize(provider.authorizationUrl!, { email: EMAIL, password: PASSWORD, workspaceId: ws.id });
    await new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { authProvider: provider }).finishAuth(params.get('code')!, params.get('iss')!);
    return provider;
  }
  /** One refresh: the new tokens are kept; the answer's status and error. */
  async function refresh(p: MemoryProvider): Promise<{ status: number; error?: string }> {
    const r = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: p.saved.refresh_token, client_id: p.info.client_id }),
    });
    const body = (await r.json()) as { refresh_token?: string; error?: string };
    if (r.ok) p.saved = { ...p.saved, ...body };
    return { status: r.status, error: body.error };
  }

  it('keeps a connection used at least every 30 days until 90 days after the sign-in, and no longer', async () => {
    h.clock.set('2026-01-15T10:00:00.000Z');
    const p = await signIn();
    for (let day = 29; day <= 87; day += 29) {
      h.clock.set(new Date(Date.parse('2026-01-15T10:00:00.000Z') + day * DAY_MS).toISOString());
      expect(await refresh(p), `day ${day}`).toEqual({ status: 200 });
    }
    h.clock.set(new Date(Date.parse('2026-01-15T10:00:00.000Z') + 90 * DAY_MS + 60_000).toISOString());
    expect(await refresh(p)).toEqual({ status: 400, error: 'invalid_grant' });
  });

  it('ends a connection left unused for 30 days', async () => {
    h.clock.set('2026-06-01T10:00:00.000Z');
    const p = await signIn();
    h.clock.set('2026-07-01T10:01:00.000Z');
    expect(await refresh(p)).toEqual({ status: 400, error: 'invalid_grant' });
  });
});
