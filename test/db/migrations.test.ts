import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/db/migrations/index.js';

const DIR = fileURLToPath(new URL('../../src/db/migrations/', import.meta.url));
const files = readdirSync(DIR)
  .filter((f) => f !== 'index.ts')
  .sort();
/** The key a migration file is listed under: `0010-wallet.ts` is '0010_wallet'. */
const keyOf = (file: string) => file.replace(/\.ts$/, '').replaceAll('-', '_');

describe('the migration list', () => {
  it('holds only files named NNNN-what-it-does.ts beside it', () => {
    expect(files.filter((f) => !/^\d{4}(-[a-z0-9]+)+\.ts$/.test(f))).toEqual([]);
  });

  it('lists every migration file once, in key order, under the key its file name spells', () => {
    const keys = Object.keys(migrations);
    expect(keys).toEqual(files.map(keyOf));
    expect(keys).toEqual([...keys].sort());
  });

  it("runs each file's own migration under its key", async () => {
    for (const file of files) {
      const { migration } = (await import(pathToFileURL(join(DIR, file)).href)) as { migration: unknown };
      expect(migrations[keyOf(file)], file).toBe(migration);
    }
  });
});
