/**
 * A published page, served, in real Chromium (playwright-core driving Debian's /usr/bin/chromium;
 * skipped with a message when it is missing — CI installs it): the stats are visible, every stat
 * has its embed snippet with its card URL and the attribution link, and every card the snippets
 * name loads from `serve` as a 1200×630 image.
 *
 * The panel is published with the server's own URL as base URL, so the page's absolute card
 * URLs point at the server under test; `serve` picks the publication up without a restart.
 */
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page, Response } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import type { StatsDocument } from '../../src/stats/types.js';
import { generate, publishPanel, readDocument } from '../helpers/cli.js';
import { narrowPanel } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';
import { ensureRenderBuilt } from '../render/build-dist.js';

/** The part of the DOM's HTMLImageElement used in the page (the project compiles without DOM types). */
interface BrowserImage {
  src: string;
  naturalWidth: number;
  naturalHeight: number;
  onload: (() => void) | null;
  onerror: (() => void) | null;
}
const SLUG = 'agentic-commerce';
/** Where the one screenshot goes (overwritten by each run), to look at by eye. */
const SCREENSHOT = path.join(tmpdir(), 'storelens-e2e-agentic-commerce.png');

if (!HAS_CHROMIUM) console.warn(`skipping the browser tests: ${CHROMIUM} is missing (install Debian's chromium; .ci/run does)`);

describe.skipIf(!HAS_CHROMIUM)(`/data/${SLUG} in Chromium`, () => {
  const dirs = tempDirs('storelens-e2e-');
  let server: RunningServer;
  let context: BrowserContext;
  let page: Page;
  let doc: StatsDocument;
  let out: string;
  let pageResponse: Response | null;
  const errors: string[] = [];

  beforeAll(async () => {
    ensureRenderBuilt();
    const root = await dirs.make();
    const input = path.join(root, 'panel');
    out = path.join(root, 'out');
    await generate(input, { stores: 300, seed: 'browser', from: '2026-01', to: '2026-02' });
    await narrowPanel(input, ['US', 'GB']);
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    await publishPanel(input, out, { baseUrl: server.url, cards: 'latest', cardThreads: 2, now: () => new Date('2026-03-02T06:00:00Z') });
    await server.serve.live.refresh();
    doc = await readDocument(out, SLUG);

    context = await launchChromium();
    page = await context.newPage();
    page.on('pageerror', (e) => errors.push(String(e)));
    // The browser's own /favicon.ico request is the one 404 a page cannot avoid.
    page.on('response', (r) => r.status() >= 400 && !r.url().endsWith('/favicon.ico') && errors.push(`${r.status()} ${r.url()}`));
    await page.setViewportSize({ width: 1280, height: 900 });
    pageResponse = await page.goto(`${server.url}/data/${SLUG}`, { waitUntil: 'load' });
    expect(pageResponse?.status()).toBe(200);
  }, 180_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await dirs.removeAll();
  });

  it('shows a table row with its figures for every stat', async () => {
    expect(doc.month).toBe('2026-02');
    expect(doc.stats.length).toBeGreaterThan(10);
    for (const stat of doc.stats) {
      const row = page.locator(`tr[id="${stat.anchor}"]`);
      expect(await row.isVisible(), stat.id).toBe(true);
      const cells = await row.locator('td').allInnerTexts();
      if (stat.suppressed) expect(cells.join(' '), stat.id).toMatch(/suppressed/i);
      else {
        expect(cells[0], `${stat.id} value`).toMatch(/\d/);
        expect(cells[1], `${stat.id} n`).toBe(stat.n!.toLocaleString('en-US'));
      }
    }
    const all = page.locator(`tr[id="${doc.stats.find((s) => s.id === 'llms_txt_share:all')!.anchor}"]`);
    expect(await all.innerText()).toMatch(/All stores\s+\d+(\.\d)?%/);
    expect(errors).toEqual([]);
  });

  it('has an embed snippet for every stat, holding its card URL and the attribution link', async () => {
    const snippets = await page.locator('textarea[readonly]').evaluateAll((areas) => areas.map((a) => (a as unknown as { value: string }).value));
    expect(snippets).toHaveLength(doc.stats.length);
    for (const stat of doc.stats) {
      const snippet = await page.locator(`[id="embed-${stat.anchor}"] textarea[readonly]`).inputValue();
      const card = `${server.url}/data/cards/${SLUG}/${doc.month}/${stat.anchor}.png`;
      expect(snippet, stat.id).toContain(`<img src="${card}" width="1200" height="630"`);
      expect(snippet, stat.id).toContain(`<a href="${stat.canonical_url}">`);
      expect(snippet, stat.id).toContain('CC BY 4.0');
      expect(stat.canonical_url).toBe(`${server.url}/data/${SLUG}#${stat.anchor}`);
    }
  });

  it('loads every card image the snippets name, each 1200×630', async () => {
    const snippets = await page.locator('textarea[readonly]').evaluateAll((areas) => areas.map((a) => (a as unknown as { value: string }).value));
    const urls = snippets.map((s) => /<img src="([^"]+)"/.exec(s)![1]!);
    expect(new Set(urls).size).toBe(doc.stats.length);
    const sizes = await page.evaluate(
      (list) =>
        Promise.all(
          list.map(
            (src) =>
              new Promise<[string, number, number]>((resolve) => {
                const img = new (globalThis as unknown as { Image: new () => BrowserImage }).Image();
                img.onload = () => resolve([src, img.naturalWidth, img.naturalHeight]);
                img.onerror = () => resolve([src, 0, 0]);
                img.src = src;
              }),
          ),
        ),
      urls,
    );
    expect(sizes).toEqual(urls.map((u) => [u, 1200, 630]));
    expect(errors).toEqual([]);
  });

  it('receives the page compressed (Chromium takes br) and decodes it whole, byte for byte', async () => {
    const headers = await pageResponse!.allHeaders();
    const file = await readFile(path.join(out, 'data', `${SLUG}.html`));
    expect(headers['content-encoding']).toBe('br');
    expect(headers.vary).toBe('Accept-Encoding');
    // The bytes on the wire: a fraction of the file.
    expect(Number(headers['content-length'])).toBeLessThan(file.length / 4);
    expect((await pageResponse!.body()).equals(file)).toBe(true);
    // The page's last stat, at the very end of the document, is there to see.
    const last = doc.stats[doc.stats.length - 1];
    expect(await page.locator(`tr[id="${last.anchor}"]`).isVisible()).toBe(true);
  });

  it('renders the page (screenshot kept for a look by eye)', async () => {
    await page.screenshot({ path: SCREENSHOT });
    console.info(`screenshot: ${SCREENSHOT}`);
    expect(existsSync(SCREENSHOT)).toBe(true);
  });
});
