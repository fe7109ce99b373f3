import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const sources = (readdirSync(SRC, { recursive: true }) as string[])
  .filter((f) => f.endsWith('.ts'))
  .map((f) => ({ file: f.split('\\').join('/'), text: readFileSync(join(SRC, f), 'utf8') }));

// The floor and the month pattern are written once; every text and check reads them from there,
// so changing one changes every page, card, help text and validation together.
describe('constants written once', () => {
  it('states the publication floor as a number only in src/stats/floor.ts', () => {
    const stated = /\b30\s+stores\b|fewer than 30\b|floor:?\s*30\b|n\s*<\s*30\b|=\s*30;/;
    expect(sources.filter((s) => stated.test(s.text)).map((s) => s.file)).toEqual(['stats/floor.ts']);
  });

  it('writes the YYYY-MM pattern only in src/core/month.ts', () => {
    const pattern = /0\[1-9\]\|1\[0-2\]/;
    expect(sources.filter((s) => pattern.test(s.text)).map((s) => s.file)).toEqual(['core/month.ts']);
  });
});
