import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../src/compose/database.js';

// Each aggregate keeps the migrations of its tables in its own migrations/ folder.
const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const dirOf = new Map<string, string>();
for (const room of readdirSync(SRC, { withFileTypes: true }).filter((d) => d.isDirectory())) {
  const dir = join(SRC, room.name, 'migrations');
  if (existsSync(dir)) for (const f of readdirSync(dir)) dirOf.set(f, dir);
}
const files = [...dirOf.keys()].sort();
const DIR = (file: string) => dirOf.get(file)!;
/** The key a migration file is listed under: `0010-wallet.ts` is '0010_wallet'. */
const keyOf = (file: string) => file.replace(/\.ts$/, '').replaceAll('-', '_');

describe('the migration list', () => {
  it('holds only files named NNNN-what-it-does.ts in the aggregates’ migrations folders', () => {
    expect(files.filter((f) => !/^\d{4}(-[a-z0-9]+)+\.ts$/.test(f))).toEqual([]);
  });

  it('lists every migration file once, in key order, under the key its file name spells', () => {
    const keys = Object.keys(migrations);
    expect(keys).toEqual(files.map(keyOf));
    expect(keys).toEqual([...keys].sort());
  });

  it("runs each file's own migration under its key", async () => {
    for (const file of files) {
      const { migration } = (await import(pathToFileURL(join(DIR(file), file)).href)) as { migration: unknown };
      expect(migrations[keyOf(file)], file).toBe(migration);
    }
  });
});
