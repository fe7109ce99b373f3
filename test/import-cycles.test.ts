import { parseCircular } from 'dpdm';
import { beforeAll, describe, expect, it } from 'vitest';
import { srcTree } from './helpers/import-graph.js';

async function cycles(opts: { typeImports: boolean }): Promise<string[]> {
  return parseCircular(await srcTree(opts)).map((c) => c.join(' -> '));
}

describe('import graph of src/', () => {
  // Parsing src/ takes seconds: done once, under the hook's longer timeout.
  beforeAll(() => Promise.all([srcTree({ typeImports: true }), srcTree({ typeImports: false })]));

  it('has no import cycle between modules at run time', async () => {
    expect(await cycles({ typeImports: false })).toEqual([]);
  });

  it('has no cycle through type-only imports either', async () => {
    expect(await cycles({ typeImports: true })).toEqual([]);
  });
});
