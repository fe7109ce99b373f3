/**
 * The public statistics read by a script on another web origin, in real Chromium (playwright-core
 * driving Debian's /usr/bin/chromium; skipped with a message when it is missing — CI installs
 * it): a newsroom's chart fetches /api/data/{slug}, reads its ETag, and revalidates with
 * If-None-Match, which makes the browser ask a CORS preflight (OPTIONS) first; and after a
 * correction it reads the corrected document through the browser's own cache. The page is
 * served by a second server, so its origin is not serve's.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { BrowserContext } from 'playwright-core';
import { CHROMIUM, HAS_CHROMIUM, launchChromium } from '../helpers/browser.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { samplePublicationFiles, writePublication, type WrittenRelease } from '../helpers/publication.js';
import { tempDirs } from '../helpers/tmp.js';


if (!HAS_CHROMIUM) console.warn(`skipping the browser tests: ${CHROMIUM} is missing (install Debian's chromium; .ci/run does)`);

describe.skipIf(!HAS_CHROMIUM)('public statistics from another origin in Chromium', () => {
  const dirs = tempDirs('storelens-cors-');
  let server: RunningServer;
  let release: WrittenRelease;
  let out: string;
  let site: http.Server;
  let siteUrl: string;
  let context: BrowserContext;

  beforeAll(async () => {
    out = await dirs.make();
    release = await writePublication(out, samplePublicationFiles({ runId: 'run-A', months: ['2025-01', '2025-02'] }));
    server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
    site = http.createServer((_req, res) => res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>newsroom</title>'));
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
    siteUrl = `http://127.0.0.1:${(site.address() as AddressInfo).port}/`;
    context = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await server?.close();
    await new Promise<void>((r) => (site ? site.close(() => r()) : r()));
    await dirs.removeAll();
  });

  it('reads a document and its ETag, then revalidates it to a 304', async () => {
    const page = await context.newPage();
    await page.goto(siteUrl);
    const url = `${server.url}/api/data/agentic-commerce`;
    const seen = await page.evaluate(async (u: string) => {
      const first = await fetch(u);
      const doc = (await first.json()) as { slug: string };
      const etag = first.headers.get('etag');
      try {
        // The browser's fetch (Node's RequestInit type has no cache mode): past any HTTP cache, as a chart polling does.
        const init = { headers: { 'If-None-Match': etag ?? '' }, cache: 'no-store' };
        const again = await fetch(u, init as RequestInit);
        return { status: first.status, slug: doc.slug, etag, revalidated: again.status };
      } catch (e) {
        return { status: first.status, slug: doc.slug, etag, revalidated: String(e) };
      }
    }, url);
    expect(seen).toEqual({ status: 200, slug: 'agentic-commerce', etag: release.manifest.files['api/data/agentic-commerce.json'].etag, revalidated: 304 });
  });

  it('reads a correction at once through the browser cache, which never guesses a freshness from Last-Modified', async () => {
    const page = await context.newPage();
    await page.goto(siteUrl);
    const url = `${server.url}/api/data/agentic-commerce`;
    // A plain fetch, as a chart loading its data does: the browser's HTTP cache decides.
    const read = () => page.evaluate(async (u: string) => ((await (await fetch(u)).json()) as { completed_at: string }).completed_at, url);
    expect(await read()).toBe('run-A');
    // Last-Modified is the run's, long past: a tenth of that age would be weeks of guessed freshness.
    await writePublication(out, samplePublicationFiles({ runId: 'run-B', months: ['2025-01', '2025-02'] }));
    await server.serve.live.refresh();
    expect(await read()).toBe('run-B');
  });
});
