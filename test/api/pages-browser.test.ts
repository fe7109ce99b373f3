/**
 * The API's two HTML pages outside the members' site, in real Chromium (skipped when
 * /usr/bin/chromium is not installed): the reference at /api/v1/docs and the page an assistant's
 * failed sign-in ends on. Each is served with a Content-Security-Policy that lets nothing load or
 * run, and Chromium shows each as meant under it (the reference's style applied, no violation).
 */
import type { BrowserContext } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApi, type Harness } from '../helpers/api.js';


describe.skipIf(!HAS_CHROMIUM)('the API pages in Chromium', () => {
  let h: Harness;
  let context: BrowserContext;

  beforeAll(async () => {
    h = await startApi('SQLite');
    context = await launchChromium();
  });
  afterAll(async () => {
    await context?.close();
    await h?.close();
  });

  /** Opens `url`; its answer's CSP and what Chromium reported (a refused style or script is a console error). */
  async function open(url: string) {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    // (A page answered 4xx is logged as a failed load of itself: not a refusal of the policy.)
    page.on('console', (m) => m.type() === 'error' && !m.text().startsWith('Failed to load resource: the server responded') && errors.push(m.text()));
    const res = await page.goto(url);
    return { page, errors, status: res!.status(), policy: res!.headers()['content-security-policy'] ?? '' };
  }

  it('shows the API reference styled, under a policy that loads and runs nothing', async () => {
    const { page, errors, status, policy } = await open(`${h.base}/docs`);
    expect(status).toBe(200);
    expect(policy).toMatch(/^default-src 'none'; style-src 'sha256-[A-Za-z0-9+/]+=*';/);
    expect(policy).not.toMatch(/unsafe|script-src/);
    expect(await page.evaluate('getComputedStyle(document.body).maxWidth')).toBe('960px');
    expect(await page.getByRole('heading', { name: 'Operations' }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('ends a failed assistant sign-in on a page that loads and runs nothing', async () => {
    const origin = h.base.replace(/\/api\/v1$/, '');
    const { page, errors, status, policy } = await open(`${origin}/oauth/auth?response_type=code&scope=read:accounts&client_id=unknown-client`);
    expect(status).toBe(400);
    expect(policy).toBe("default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
    expect(await page.getByRole('heading', { name: "The assistant's sign-in failed" }).count()).toBe(1);
    expect(errors).toEqual([]);
    await page.close();
  });
});
