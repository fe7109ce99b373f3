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

// Known cycle: the commands import the `Env` type from src/cli.ts, which imports the commands.
// Removed by the settings change (Env moves to src/env.ts); delete this exception then.
const knownTypeCycle = (cycle: string): boolean => cycle.split(' -> ').includes('src/cli.ts');

describe('import graph of src/', () => {
  it('has no import cycle between modules at run time', async () => {
    expect(await cycles({ typeImports: false })).toEqual([]);
  });

  it('has no cycle through type-only imports either, but for the known one', async () => {
    expect((await cycles({ typeImports: true })).filter((c) => !knownTypeCycle(c))).toEqual([]);
  });
});
