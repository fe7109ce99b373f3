/**
 * A native app's sign-in in real Chromium: an assistant whose redirect URI is its own scheme
 * (`com.example.app:/callback`, RFC 8252 §7.1, which registration accepts) gets its answer,
 * allowed or denied. The consent form's answer redirects to that scheme, which Chromium lets a
 * form lead to only when the page's form-action names it.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash, upsertMember } from '../../src/members/store.js';
import { registerOAuthClient } from '../../src/oauth/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';

const CLIENT_ID = 'native-assistant';
const REDIRECT = 'com.example.app:/callback';
const EMAIL = 'ann@example.com';
const PASSWORD = 'correct horse battery';

const verifier = randomBytes(32).toString('base64url');
const challenge = createHash('sha256').update(verifier).digest('base64url');

for (const d of dialects) describe.skipIf(!HAS_CHROMIUM || d.skip)(`a native app's sign-in in Chromium on ${d.label}`, () => {
  let h: Harness;
  let ws: Workspace;
  let browser: BrowserContext;
  let origin: string;

  beforeAll(async () => {
    h = await startApi(d.name);
    ws = await workspace(h.db);
    origin = h.base.replace(/\/api\/v1$/, '');
    await upsertMember(h.db.kysely, ws.id, EMAIL, 'admin', new Date());
    await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
    await registerOAuthClient(h.db, { client_id: CLIENT_ID, client_name: 'Native assistant', redirect_uris: [REDIRECT] }, new Date());
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  /** Opens the consent screen of a new authorization (signing in first when the browser is not). */
  const consent = async (): Promise<Page> => {
    const page = await browser.newPage();
    const auth = new URLSearchParams({ response_type: 'code', client_id: CLIENT_ID, redirect_uri: REDIRECT, scope: 'read:accounts', code_challenge: challenge, code_challenge_method: 'S256', resource: `${origin}/api/v1/mcp` });
    await page.goto(`${origin}/oauth/auth?${auth}`);
    if (new URL(page.url()).pathname === '/signin') {
      await page.getByLabel('Email').fill(EMAIL);
      await page.getByLabel('Password').fill(PASSWORD);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }
    await page.waitForURL(/\/oauth\/interaction\//);
    return page;
  };

  /** Presses `button` and resolves to the query the browser hands to the app's scheme. */
  const answer = async (page: Page, button: 'Allow' | 'Deny'): Promise<URLSearchParams> => {
    const toApp = page.waitForEvent('request', { predicate: (r) => r.url().startsWith('com.example.app:'), timeout: 10_000 });
    await page.getByRole('button', { name: button }).click();
    const params = new URL((await toApp).url()).searchParams;
    await page.close();
    return params;
  };

  it('hands the code to the app when the member allows, and it gets tokens', async () => {
    const params = await answer(await consent(), 'Allow');
    expect(params.get('iss')).toBe(origin);
    const tokens = await fetch(`${origin}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'authorization_code', code: params.get('code')!, redirect_uri: REDIRECT, code_verifier: verifier, client_id: CLIENT_ID }),
    });
    expect(tokens.status).toBe(200);
    expect(((await tokens.json()) as { access_token?: string }).access_token).toBeTruthy();
  }, 30_000);

  it('tells the app when the member denies', async () => {
    const params = await answer(await consent(), 'Deny');
    expect(params.get('error')).toBe('access_denied');
  }, 30_000);
});
