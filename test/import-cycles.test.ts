import { fileURLToPath } from 'node:url';
import { parseCircular, parseDependencyTree } from 'dpdm';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
// Every module is an entry, so entry points (cli, bench, card worker, checkpointer) and
// lazily imported commands are all covered.
const ENTRIES = ['src/**/*.ts'];

async function cycles(opts: { typeImports: boolean }): Promise<string[]> {
  const tree = await parseDependencyTree(ENTRIES, { context: ROOT, transform: !opts.typeImports, skipDynamicImports: false });
  return parseCircular(tree).map((c) => c.join(' -> '));
}

describe('import graph of src/', () => {
  it('has no import cycle between modules at run time', async () => {
    expect(await cycles({ typeImports: false })).toEqual([]);
  });

  it('has no cycle through type-only imports either', async () => {
    expect(await cycles({ typeImports: true })).toEqual([]);
  });
});
