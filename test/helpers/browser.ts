/**
 * Real Chromium for the browser tests: Debian's /usr/bin/chromium driven by playwright-core, with
 * the flags every run uses and a profile folder of its own, removed once the browser has closed
 * (the suites skip, saying so, where Chromium is not installed; .ci/run installs it).
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';
export const HAS_CHROMIUM = existsSync(CHROMIUM);
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * Chromium on a fresh profile folder; `extraArgs` come after the usual flags. Its `close()` also
 * removes the folder, once the browser has exited (the context's "close" event comes while
 * Chromium is still writing there).
 */
export async function launchChromium(extraArgs: readonly string[] = []): Promise<BrowserContext> {
  const profile = mkdtempSync(path.join(tmpdir(), 'storelens-chromium-'));
  const remove = () => rmSync(profile, { recursive: true, force: true, maxRetries: 3 });
  let context: BrowserContext;
  try {
    context = await chromium.launchPersistentContext(profile, { executablePath: CHROMIUM, args: [...ARGS, ...extraArgs], headless: true });
  } catch (e) {
    remove();
    throw e;
  }
  const close = context.close.bind(context);
  context.close = async (options) => {
    try {
      await close(options);
    } finally {
      remove();
    }
  };
  return context;
}
