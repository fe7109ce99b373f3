/**
 * What dynamic client registration (RFC 7591) may cost, over real HTTP: registrations are counted
 * per client address (ten at once, then the address waits, told by 429 and Retry-After), and a
 * client that registered itself and never completed a sign-in is deleted by the background
 * loop's `oauth` task 24 hours on. A client a member signed in with, and one an administrator
 * registered, stay. A member who allows a client that the task deletes at that moment is told
 * so, and nothing is kept: no grant, no code.
 */
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { startBackground } from '../../src/compose/background.js';
import { hashPassword } from '../../src/members/passwords.js';
import { SIGNIN_THROTTLE } from '../../src/members/signin-throttle.js';
import { setPasswordHash, upsertMember } from '../../src/members/store.js';
import { pruneOAuthRecords, registerOAuthClient } from '../../src/oauth/store.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects, whileHeld } from '../helpers/db.js';
import { HttpBrowser, MemoryProvider, REDIRECT } from '../helpers/oauth.js';

const EMAIL = 'kim@example.com';
const PASSWORD = 'correct horse battery';
const HOUR = 3600_000;

for (const d of dialects) describe.skipIf(d.skip)(`dynamic client registration's bounds on ${d.label}`, () => {
  let h: Harness | undefined;
  afterEach(async () => h?.close());

  const originOf = (harness: Harness) => harness.base.replace(/\/api\/v1$/, '');
  const register = (harness: Harness, forwardedFor?: string, path = '/oauth/reg') =>
    fetch(`${originOf(harness)}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
      body: JSON.stringify({ client_name: 'Some assistant', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
    });
  const clientIds = async (harness: Harness) =>
    (await harness.db.kysely.selectFrom('oauth_records').select('id').where('model', '=', 'Client').orderBy('id').execute()).map((r) => r.id);

  it('answers an address past ten registrations 429 with Retry-After, whatever the path spelling; another address still registers', async () => {
    h = await startApi(d.name, { trustedProxies: ['127.0.0.1'] });
    const free = SIGNIN_THROTTLE.free.registration;
    expect(free).toBe(10);
    const statuses: number[] = [];
    for (let i = 0; i <= free; i++) statuses.push((await register(h, '198.51.100.7', i % 2 ? '/oauth/REG/' : '/oauth/reg')).status);
    expect(statuses).toEqual(Array(free + 1).fill(201));
    const refused = await register(h, '198.51.100.7');
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(await refused.json()).toMatchObject({ error: 'temporarily_unavailable' });
    expect((await clientIds(h)).length).toBe(free + 1);
    // Another client behind the same proxy is not held up.
    expect((await register(h, '203.0.113.9')).status).toBe(201);
    // Once the lock ends the address registers again, and the next lock is longer.
    h.clock.advance(1_000);
    expect((await register(h, '198.51.100.7')).status).toBe(201);
    const again = await register(h, '198.51.100.7');
    expect([again.status, again.headers.get('retry-after')]).toEqual([429, '2']);
  });

  it('deletes a self-registered client that completed no sign-in 24 hours on, and keeps one a member signed in with and a pre-registered one', async () => {
    h = await startApi(d.name);
    const harness = h;
    const ws = await workspace(harness.db);
    await upsertMember(harness.db.kysely, ws.id, EMAIL, 'member', new Date());
    await setPasswordHash(harness.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
    await registerOAuthClient(harness.db, { client_id: 'desk-assistant', redirect_uris: [REDIRECT] }, harness.clock.now());

    const unused = (await (await register(harness)).json()) as { client_id: string; registration_access_token?: string };
    expect(unused).not.toHaveProperty('registration_access_token');
    const used = new MemoryProvider('Used assistant');
    const connect = () => new Client({ name: 'limits-test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${harness.base}/mcp`), { authProvider: used }));
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    const params = await new HttpBrowser(originOf(harness)).authorize(used.authorizationUrl!, { email: EMAIL, password: PASSWORD, workspaceId: ws.id });
    expect(params.get('code')).toBeTruthy();
    expect(await clientIds(harness)).toEqual(['desk-assistant', unused.client_id, used.info.client_id].sort());

    harness.clock.advance(24 * HOUR + 60_000);
    const lines: string[] = [];
    const bg = startBackground(harness.db, { now: harness.clock.now, log: (l) => lines.push(l), only: ['oauth'] });
    await bg.worker.idle();
    await bg.stop();
    expect(await clientIds(harness)).toEqual(['desk-assistant', used.info.client_id].sort());
    expect(lines).toContain('oauth: deleted 1 assistants registered over 24 hours ago that never completed a sign-in');
    // The deleted client is unknown to the authorization endpoint.
    const authorize = new URL(used.authorizationUrl!);
    authorize.searchParams.set('client_id', unused.client_id);
    const answer = await fetch(authorize, { redirect: 'manual' });
    expect(answer.status).toBe(400);
    expect(await answer.text()).toContain('invalid_client');
  });
  /**
   * A member at the consent screen of an assistant that registered itself, a minute before its 24
   * hours end (never signed in with before).
   */
  async function atConsentBeforeExpiry() {
    h = await startApi(d.name);
    const harness = h;
    const ws = await workspace(harness.db);
    await upsertMember(harness.db.kysely, ws.id, EMAIL, 'member', new Date());
    await setPasswordHash(harness.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
    const late = new MemoryProvider('Late assistant');
    const connect = () => new Client({ name: 'limits-test', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(`${harness.base}/mcp`), { authProvider: late }));
    await expect(connect()).rejects.toBeInstanceOf(UnauthorizedError);
    const registered = harness.clock.now().getTime();
    harness.clock.advance(24 * HOUR - 60_000);
    const browser = new HttpBrowser(originOf(harness));
    const consent = (await browser.toConsent(late.authorizationUrl!, { email: EMAIL, password: PASSWORD })).page!;
    return { harness, ws, browser, consent, registered };
  }

  it("refuses a member's Allow with a page that says so, keeping no grant and issuing no code, when the task deletes the client meanwhile", async () => {
    const { harness, ws, browser, consent, registered } = await atConsentBeforeExpiry();
    expect(consent.status).toBe(200);
    const allowed = await whileHeld(harness.db, (trx) => pruneOAuthRecords(trx, new Date(registered + 24 * HOUR + 60_000)), () => browser.allow(consent, ws.id));
    expect(allowed.left).toBeUndefined();
    expect(allowed.page).toMatchObject({ status: 400, html: expect.stringContaining('This assistant is not known here any more') });
    expect(allowed.page!.html).toContain('Nothing was allowed');
    const kept = async (model: string) => (await harness.db.kysely.selectFrom('oauth_records').select('id').where('model', '=', model).execute()).length;
    expect(await clientIds(harness)).toEqual([]);
    expect(await harness.db.kysely.selectFrom('oauth_grants').select('grant_id').execute()).toEqual([]);
    expect([await kept('Grant'), await kept('AuthorizationCode'), await kept('AccessToken'), await kept('RefreshToken')]).toEqual([0, 0, 0, 0]);
    // The consent screen, opened again, says the same.
    const again = await browser.open(consent.url);
    expect(again.page).toMatchObject({ status: 400, html: expect.stringContaining('This assistant is not known here any more') });
  });
  it("refuses an Allow that comes after the client's 24 hours ended, before the task deleted it, and keeps nothing", async () => {
    const { harness, ws, browser, consent } = await atConsentBeforeExpiry();
    // The member leaves the consent screen open past the client's 24 hours, then allows.
    harness.clock.advance(120_000);
    const allowed = await browser.allow(consent, ws.id);
    expect(allowed.left).toBeUndefined();
    expect(allowed.page).toMatchObject({ status: 400, html: expect.stringContaining('This assistant is not known here any more') });
    expect(await harness.db.kysely.selectFrom('oauth_grants').select('grant_id').execute()).toEqual([]);
    expect(await harness.db.kysely.selectFrom('oauth_records').select('model').where('model', 'in', ['Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken']).execute()).toEqual([]);
    // Still expiring: the task deletes it.
    const bg = startBackground(harness.db, { now: harness.clock.now, log: () => {}, only: ['oauth'] });
    await bg.worker.idle();
    await bg.stop();
    expect(await clientIds(harness)).toEqual([]);
  });
});
