/**
 * Golden files (STYLE.md "Tests that read like examples"): `expectGolden('render/page.md', text)`
 * compares with `test/golden/render/page.md`. A missing golden is written locally but fails under
 * `CI=true`; a mismatch writes `<golden>.changed` (git-ignored) beside it for review and fails.
 * Accept a change by moving the .changed file over the golden.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'vitest';

export const GOLDEN_ROOT = fileURLToPath(new URL('../golden', import.meta.url));

export function expectGolden(name: string, actual: string | Buffer): void {
  const path = join(GOLDEN_ROOT, name);
  const changed = `${path}.changed`;
  const shown = relative(process.cwd(), path);
  if (!existsSync(path)) {
    if (process.env.CI === 'true') {
      throw new Error(`golden file ${shown} is missing (not written under CI=true); run the test locally and commit it`);
    }
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, actual);
    return;
  }
  const expected = readFileSync(path);
  const same = Buffer.isBuffer(actual) ? expected.equals(actual) : expected.toString('utf8') === actual;
  if (same) {
    rmSync(changed, { force: true });
    return;
  }
  writeFileSync(changed, actual);
  const message = `${shown} differs; the new output is in ${relative(process.cwd(), changed)}`;
  if (Buffer.isBuffer(actual)) expect.fail(message);
  expect(actual, message).toBe(expected.toString('utf8'));
}
