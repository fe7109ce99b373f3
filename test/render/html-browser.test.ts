/**
 * The fixture page in real Chromium (playwright-core driving Debian's /usr/bin/chromium; skipped
 * when it is not installed): the stats are visible, every embed snippet is there and copies,
 * a link to a stat's embed block opens it, the page fits a phone, and no script fails.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedSnippet } from '../../src/render/embed.js';
import { renderHtml } from '../../src/render/html.js';
import { fixturePage } from './fixture-page.js';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

describe.skipIf(!existsSync(CHROMIUM))('renderHtml in Chromium', () => {
  const model = fixturePage();
  const html = renderHtml(model);
  let profile: string;
  let context: BrowserContext;

  beforeAll(async () => {
    profile = mkdtempSync(join(tmpdir(), 'storelens-chromium-'));
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: ARGS, headless: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });
  afterAll(async () => {
    await context?.close();
    rmSync(profile, { recursive: true, force: true });
  });

  async function open(width: number): Promise<{ page: Page; errors: string[] }> {
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(String(e)));
    page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
    await page.route('**/*', (route) => route.abort());
    await page.setViewportSize({ width, height: 900 });
    await page.setContent(html, { waitUntil: 'load' });
    return { page, errors };
  }

  it('shows every stat row and holds every embed snippet', async () => {
    const { page, errors } = await open(1280);
    const stats = model.sections.flatMap((s) => s.stats);
    for (const stat of stats) await expect(page.locator(`[id="${stat.anchor}"]`).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('row', { name: /All stores 42\.1% 12,345 \+1\.2 pts/ }).count()).resolves.toBe(1);
    const snippets = await page.locator('textarea[readonly]').evaluateAll((areas) => areas.map((a) => (a as unknown as { value: string }).value));
    expect(snippets).toEqual(stats.map((stat) => renderEmbedSnippet({ baseUrl: model.baseUrl, slug: model.slug, stat })));
    expect(await page.locator('svg.trend[role="img"]').count()).toBe(model.sections.length);
    expect(errors).toEqual([]);
    await page.close();
  });

  it('opens the embed block a link points at, and its copy button copies', async () => {
    const { page, errors } = await open(1280);
    const stat = model.sections[0]!.stats[0]!;
    const block = page.locator(`[id="embed-${stat.anchor}"]`);
    expect(await block.isVisible()).toBe(false);
    await page.locator(`[id="${stat.anchor}"] a`).click();
    expect(await block.isVisible()).toBe(true);
    const button = block.locator('button[data-copy]');
    await expect(button.textContent()).resolves.toBe('Copy embed code');
    await button.click();
    await expect.poll(() => button.textContent(), { timeout: 5000 }).toBe('Copied');
    expect(errors).toEqual([]);
    await page.close();
  });

  it('fits a phone screen: only the tables scroll sideways', async () => {
    const { page } = await open(360);
    const [scrollWidth, clientWidth] = await page.evaluate<number[]>('[document.documentElement.scrollWidth, document.documentElement.clientWidth]');
    expect(scrollWidth).toBe(clientWidth);
    await page.close();
  });
});
