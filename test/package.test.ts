/**
 * `npm install` prints no warning of ours: every dependency the lockfile marks as running an
 * install script is reviewed in package.json's `allowScripts` (npm 11 lists the others as "not
 * yet covered by allowScripts" and a later npm skips their scripts).
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const json = (file: string) => JSON.parse(readFileSync(new URL(`../${file}`, import.meta.url), 'utf8'));
const pkg = json('package.json') as { allowScripts?: Record<string, boolean> };
const lock = json('package-lock.json') as { packages: Record<string, { hasInstallScript?: boolean }> };

describe('package.json', () => {
  it('reviews the install script of every dependency that has one (allowScripts)', () => {
    const withScripts = Object.entries(lock.packages)
      .filter(([where, p]) => where !== '' && p.hasInstallScript)
      .map(([where]) => where.slice(where.lastIndexOf('node_modules/') + 'node_modules/'.length));
    expect(withScripts).toContain('better-sqlite3');
    for (const name of withScripts) expect(Object.keys(pkg.allowScripts ?? {}), name).toContain(name);
  });

  it('lets better-sqlite3 build its native binding', () => {
    expect(pkg.allowScripts?.['better-sqlite3']).toBe(true);
  });
});
