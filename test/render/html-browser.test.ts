/**
 * The fixture page in real Chromium (playwright-core driving Debian's /usr/bin/chromium; skipped
 * when it is not installed): the published stats are visible, the hidden ones summed up in one
 * line whose list opens on a click, every embed snippet is there and copies, a link to a stat's
 * embed block opens it, the page fits a phone, and no script fails.
 */
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderEmbedSnippet } from '../../src/render/embed.js';
import { statForPeople } from '../../src/render/format.js';
import { renderHtml } from '../../src/render/html.js';
import { fixturePage } from './fixture-page.js';
import { until } from '../helpers/wait.js';


describe.skipIf(!HAS_CHROMIUM)('renderHtml in Chromium', () => {
  const model = fixturePage();
  const html = renderHtml(model);
  let shots: string;
  let context: BrowserContext;

  beforeAll(async () => {
    shots = mkdtempSync(join(tmpdir(), 'storelens-screenshots-'));
    context = await launchChromium();
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  });
  afterAll(async () => {
    await context?.close();
    rmSync(shots, { recursive: true, force: true });
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

  it('shows every published stat row and holds every embed snippet', async () => {
    const { page, errors } = await open(1280);
    const stats = model.sections.flatMap((s) => s.stats);
    for (const stat of stats.filter((s) => !s.suppressed)) await expect(page.locator(`[id="${stat.anchor}"]`).isVisible()).resolves.toBe(true);
    await expect(page.getByRole('row', { name: /All stores 42\.1% 12,345 \+1\.2 pts/ }).count()).resolves.toBe(1);
    await expect(page.getByRole('row', { name: /Country: United Arab Emirates 48 48 hidden/ }).count()).resolves.toBe(1);
    const snippets = await page.locator('textarea[readonly]').evaluateAll((areas) => areas.map((a) => (a as unknown as { value: string }).value));
    expect(snippets).toEqual(stats.map((stat) => renderEmbedSnippet({ baseUrl: model.baseUrl, slug: model.slug, stat: statForPeople(stat) })));
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
    // The page opens it on 'hashchange', a task of its own that can run after click() returned.
    await until(() => block.isVisible());
    const button = block.locator('button[data-copy]');
    await expect(button.textContent()).resolves.toBe('Copy embed code');
    // The button says 'Copied' for 1.5 s only, which a loaded machine can poll past: every label it
    // takes is recorded in the page, and the test waits for the record.
    await button.evaluate((b) => {
      const w = globalThis as unknown as { copyLabels: (string | null)[]; MutationObserver: new (f: () => void) => { observe(n: unknown, o: object): void } };
      const seen: (string | null)[] = [];
      w.copyLabels = seen;
      new w.MutationObserver(() => seen.push(b.textContent)).observe(b, { childList: true, characterData: true, subtree: true });
    });
    await button.click();
    await until(() => page.evaluate<boolean>("window.copyLabels.includes('Copied')"));
    await expect(page.locator('#copy-status').textContent()).resolves.toBe('Embed code copied');
    expect(errors).toEqual([]);
    await page.close();
  });

  it("a copy button clicked again while it says 'Copied' goes back to its own label, not to 'Copied'", async () => {
    const page = await context.newPage();
    // The page's clock is the test's: the 1.5 s the label lasts pass when the test says so.
    await page.clock.install();
    await page.route('**/*', (route) => route.abort());
    await page.setContent(html, { waitUntil: 'load' });
    const stat = model.sections[0]!.stats[0]!;
    await page.locator(`[id="${stat.anchor}"] a`).click();
    const button = page.locator(`[id="embed-${stat.anchor}"] button[data-copy]`);
    await until(() => button.isVisible());
    await button.click();
    await until(async () => (await button.textContent()) === 'Copied');
    await button.click(); // within the 1.5 s: the clock has not moved
    await page.clock.runFor(3_000);
    expect(await button.textContent()).toBe('Copy embed code');
    await page.close();
  });

  it('sums up the hidden cells of a table in one visible line, and lists them on a click (screenshot in a temp dir)', async () => {
    const { page, errors } = await open(1280);
    const details = page.locator('details.hidden-cells', { hasText: '3 countries not published' });
    const summary = details.locator('summary');
    await summary.scrollIntoViewIfNeeded();
    await expect(summary.isVisible()).resolves.toBe(true);
    await expect(summary.textContent()).resolves.toBe('3 countries not published, each with fewer than 30 stores or hidden to protect one that has: Austria, Belgium, QQ.');
    const box = await summary.boundingBox();
    expect(box!.height).toBeGreaterThan(10);
    const austria = details.getByRole('link', { name: 'Austria' });
    await expect(austria.isVisible()).resolves.toBe(false);
    const closed = join(shots, 'hidden-cells-closed.png');
    await page.screenshot({ path: closed, fullPage: true });
    await summary.click();
    await expect(austria.isVisible()).resolves.toBe(true);
    const open_ = join(shots, 'hidden-cells-open.png');
    await details.screenshot({ path: open_ });
    for (const png of [closed, open_]) expect(readFileSync(png).subarray(1, 4).toString('latin1')).toBe('PNG');
    expect(statSync(open_).size).toBeGreaterThan(1000);
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
