/**
 * `storelens --version`: the version package.json declares, on stdout, exit 0 (what a bug report
 * or a deployment check asks for first).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { runBin } from '../helpers/published.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

describe('storelens --version', () => {
  it("prints package.json's version and exits 0", async () => {
    for (const flag of ['--version', '-V']) {
      const r = await runBin([flag]);
      expect(r.stderr).toBe('');
      expect(r.stdout).toBe(`${version}\n`);
      expect(r.code).toBe(0);
    }
  });
});
