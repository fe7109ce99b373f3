/**
 * Integrations → API & MCP in real Chromium: an invited owner sets a password and lands on the
 * page, creates a key with each choice and sees it once, the key works on the API, revoking it
 * stops it; a plain member sees the list without controls and cannot revoke by a forged POST.
 * A form sent twice, after its session ended, or from the page of an earlier sign-in does what
 * the person expects: one key, the sign-in form back to the page, no half sign-out.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upsertMember } from '../../src/members/store.js';
import { inviteMember } from '../../src/members/invite.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { call, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';


for (const d of dialects) describe.skipIf(!HAS_CHROMIUM || d.skip)(`Integrations page in Chromium on ${d.label}`, () => {
  let h: Harness;
  let ws: Workspace;
  let browser: BrowserContext;
  let origin: string;

  const newPage = async (): Promise<Page> => {
    // One browser profile: each test starts signed out.
    await browser.clearCookies();
    return browser.newPage();
  };

  /** Signs the owner in on the sign-in form the page shows, and waits for where it leads. */
  const signInOwner = async (page: Page, to: string | RegExp = /\/integrations/) => {
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('correct horse battery');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(to);
  };

  beforeAll(async () => {
    h = await startApi(d.name);
    ws = await workspace(h.db);
    origin = h.base.replace(/\/api\/v1$/, '');
    browser = await launchChromium();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('lets an invited owner set a password, create a key of each choice shown once, and revoke it', async () => {
    const invite = await inviteMember(h.db, { workspaceId: ws.id, email: 'owner@example.com', role: 'owner', baseUrl: origin, now: new Date() });
    const page = await newPage();
    await page.goto(invite.url);
    await page.getByLabel('New password').fill('correct horse battery');
    await page.getByLabel('Repeat it').fill('correct horse battery');
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(/\/integrations/);
    expect(await page.locator('#mcp-url').textContent()).toBe(`${origin}/api/v1/mcp`);
    const cookies = await page.context().cookies();
    expect(cookies.find((c) => c.name === 'storelens_session')).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const expected: Record<string, string[]> = { read: ['read:accounts', 'read:watch'], 'write-outcomes': ['write:outcomes'], reports: ['generate:reports'] };
    for (const [choice, scopes] of Object.entries(expected)) {
      await page.getByLabel('Name').fill(`key ${choice}`);
      await page.locator(`#choice-${choice}`).check();
      await page.getByRole('button', { name: 'Create key' }).click();
      const key = (await page.locator('#new-key').textContent())!;
      expect(key.length).toBeGreaterThan(20);
      const row = page.locator('tbody tr', { hasText: `key ${choice}` });
      expect(await row.textContent()).toContain(scopes.join(' '));
      // Shown once: the page again does not carry it.
      await page.goto(`${origin}/integrations`);
      expect(await page.content()).not.toContain(key);
      if (choice === 'read') {
        expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(200);
        await page.locator('tbody tr', { hasText: 'key read' }).getByRole('button', { name: /Revoke/ }).click();
        await page.waitForURL(/\/integrations/);
        expect(await page.locator('tbody tr', { hasText: 'key read' }).textContent()).toContain('revoked');
        expect((await call(h.base, 'GET', '/accounts', { key })).status).toBe(401);
      }
    }
  });

  it('refuses a key with no choice', async () => {
    const page = await newPage();
    await setPasswordHash(h.db.kysely, 'owner@example.com', await hashPassword('correct horse battery'), new Date());
    await page.goto(`${origin}/signin`);
    await signInOwner(page);
    await page.getByLabel('Name').fill('nothing');
    await page.getByRole('button', { name: 'Create key' }).click();
    expect(await page.getByRole('alert').textContent()).toMatch(/at least one/);
  });

  it('issues one key from a Create key form sent again, by a reload or two submissions at once', async () => {
    const page = await newPage();
    await page.goto(`${origin}/signin`);
    await signInOwner(page);
    const named = (name: string) => h.db.kysely.selectFrom('api_keys').select(['id', 'prefix']).where('name', '=', name).execute();

    await page.getByLabel('Name').fill('sent twice');
    await page.locator('#choice-reports').check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.locator('#new-key').textContent())!;
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin });
    await page.getByRole('button', { name: 'Copy' }).click();
    await expect.poll(() => page.locator('#copied').textContent()).toBe('Copied');
    expect(await page.evaluate('navigator.clipboard.readText()')).toBe(key);
    // Reloading the answer sends the form again: it finds the key it issued, and shows no value.
    const again = await page.reload();
    expect(again?.status()).toBe(409);
    const [issued, ...more] = await named('sent twice');
    expect(more).toEqual([]);
    expect(await page.getByRole('alert').textContent()).toContain(`sent already: it created the key “sent twice” (${issued!.prefix})`);
    expect(await page.locator('#new-key').count()).toBe(0);
    expect(await page.content()).not.toContain(key);

    // The same form sent twice at once (a double click): one key, the other answer says so.
    await page.goto(`${origin}/integrations`);
    const create = page.locator('form[action^="/integrations/keys?"]');
    const form = { csrf: await create.locator('input[name=csrf]').inputValue(), form: await create.locator('input[name=form]').inputValue(), name: 'double click', access: 'read' };
    const action = `${origin}${await create.getAttribute('action')}`;
    const send = () => page.request.post(action, { form });
    const statuses = (await Promise.all([send(), send()])).map((r) => r.status()).sort();
    expect(statuses).toEqual([201, 409]);
    expect(await named('double click')).toHaveLength(1);
  });

  it('shows a member the keys without controls, and refuses a forged revoke', async () => {
    await upsertMember(h.db.kysely, ws.id, 'member@example.com', 'member', new Date());
    await setPasswordHash(h.db.kysely, 'member@example.com', await hashPassword('member password 1'), new Date());
    const page = await newPage();
    await page.goto(`${origin}/integrations`);
    await page.waitForURL(/\/signin/);
    await page.getByLabel('Email').fill('member@example.com');
    await page.getByLabel('Password').fill('member password 1');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/integrations/);
    expect(await page.locator('tbody tr', { hasText: 'key reports' }).textContent()).toContain('active');
    expect(await page.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    // A hand-made POST with the member's own session and CSRF token is still refused.
    const csrf = await page.locator('input[name=csrf]').first().inputValue();
    const keyId = (await h.db.kysely.selectFrom('api_keys').select('id').where('name', '=', 'key reports').executeTakeFirstOrThrow()).id;
    const r = await page.request.post(`${origin}/integrations/keys/${keyId}/revoke`, { form: { csrf } });
    expect(r.status()).toBe(403);
    const still = await h.db.kysely.selectFrom('api_keys').select('revoked_at').where('id', '=', keyId).executeTakeFirstOrThrow();
    expect(still.revoked_at).toBeNull();
  });

  it('asks to sign in again when the session ended while the page was open, and leads back to the page', async () => {
    const page = await newPage();
    await page.goto(`${origin}/signin`);
    await signInOwner(page);
    await page.getByLabel('Name').fill('after the session');
    await page.locator('#choice-read').check();
    h.clock.advance(13 * 3600_000);
    const [answer] = await Promise.all([page.waitForResponse((r) => r.request().method() === 'POST'), page.getByRole('button', { name: 'Create key' }).click()]);
    expect(answer.status()).toBe(401);
    expect(await page.getByRole('alert').textContent()).toBe('Your session ended, so nothing was changed. Sign in to go on.');
    await signInOwner(page, `${origin}/integrations?workspace=${ws.id}`);
    expect(await page.getByRole('button', { name: 'Create key' }).count()).toBe(1);
    expect(await h.db.kysely.selectFrom('api_keys').select('id').where('name', '=', 'after the session').execute()).toEqual([]);
  });

  it('keeps the browser signed in when Sign out comes from the page of an earlier sign-in, and offers its own', async () => {
    const signIn = async (page: Page) => {
      await page.goto(`${origin}/signin`);
      await signInOwner(page);
    };
    const sessions = async () => (await h.db.kysely.selectFrom('member_sessions').select('token_hash').where('email', '=', 'owner@example.com').execute()).length;
    const before = await sessions();
    const earlier = await newPage();
    await signIn(earlier);
    // Another tab signs in again: the earlier tab's session ends, its page stays open.
    const later = await browser.newPage();
    await signIn(later);
    expect(await sessions()).toBe(before + 1);

    const [answer] = await Promise.all([earlier.waitForResponse((r) => r.request().method() === 'POST'), earlier.getByRole('button', { name: 'Sign out' }).click()]);
    expect(answer.status()).toBe(403);
    expect(await earlier.locator('main').textContent()).toContain('nothing was done: this browser is signed in as owner@example.com');
    expect(await sessions()).toBe(before + 1);
    expect((await later.reload())?.url()).toMatch(/\/integrations$/);

    await earlier.getByRole('button', { name: 'Sign out' }).click();
    await earlier.waitForURL(/\/signin$/);
    expect(await sessions()).toBe(before);
  });

  it('selects the new key for copying by hand where the page may not write the clipboard (http, not this machine)', async () => {
    // A host name other than localhost over http: no secure context, so no navigator.clipboard.
    const port = new URL(origin).port;
    const insecure = await launchChromium(['--host-resolver-rules=MAP storelens.test 127.0.0.1']);
    try {
      const page = await insecure.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      await page.goto(`http://storelens.test:${port}/signin`);
      await signInOwner(page);
      expect(await page.evaluate('isSecureContext')).toBe(false);
      await page.getByLabel('Name').fill('copied by hand');
      await page.locator('#choice-read').check();
      await page.getByRole('button', { name: 'Create key' }).click();
      await page.getByRole('button', { name: 'Copy' }).click();
      await expect.poll(() => page.locator('#copied').textContent()).toBe('Selected: press Ctrl+C (⌘C on a Mac) to copy it.');
      expect(await page.evaluate('getSelection().toString()')).toBe(await page.locator('#new-key').textContent());
      expect(errors).toEqual([]);
    } finally {
      await insecure.close();
    }
  });

  it('refuses a form without the CSRF token', async () => {
    const page = await newPage();
    const r = await page.request.post(`${origin}/signin`, { form: { email: 'owner@example.com', password: 'correct horse battery' }, maxRedirects: 0 });
    expect(r.status()).toBe(403);
  });
});
