import { isUtf8 } from 'node:buffer';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDuck } from '../../src/panel/duck.js';
import { readColumns } from '../../src/panel/read.js';
import { NDJSON_ARRAY, NDJSON_BOM, firstNonUtf8Line } from '../../src/panel/read-errors.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-read-errors-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** The first line not UTF-8, counted from 1, found the plain way: line by line. */
function reference(bytes: Buffer): number | null {
  let start = 0;
  for (let n = 1; ; n++) {
    const nl = bytes.indexOf(0x0a, start);
    if (!isUtf8(bytes.subarray(start, nl < 0 ? bytes.length : nl))) return n;
    if (nl < 0) return null;
    start = nl + 1;
  }
}

describe('firstNonUtf8Line', () => {
  it('names the line a plain line-by-line check names, in files read in several pieces', async () => {
    // Lines of one- to four-byte characters, some long (past one 64 KiB read); then a byte changed
    // or a multi-byte character cut at a random place, the place at times a piece's edge.
    const line = fc.oneof(
      fc.string({ unit: fc.constantFrom('a', ',', 'é', '€', '😀', '\r'), maxLength: 60 }),
      fc.string({ unit: fc.constantFrom('x', 'é', '😀'), minLength: 20_000, maxLength: 40_000 }),
    );
    const damage = fc.option(fc.tuple(fc.oneof(fc.nat(), fc.constantFrom(65_535, 65_536, 131_071, 131_072)), fc.constantFrom(0xff, 0xc3, 0x80, 0x0a)), { freq: 3 });
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 1, maxLength: 40 }), fc.boolean(), damage, async (lines, endsWithBreak, hurt) => {
        const bytes = Buffer.from(lines.join('\n') + (endsWithBreak ? '\n' : ''));
        if (hurt) bytes[hurt[0] % bytes.length] = hurt[1];
        const file = path.join(dir, 'lines.txt');
        await writeFile(file, bytes);
        expect(await firstNonUtf8Line(file)).toBe(reference(bytes));
      }),
      { numRuns: 60 },
    );
  });
});

describe('an NDJSON file that starts as no NDJSON file does', () => {
  // DuckDB reads a byte order mark without a word when it runs on one thread (a one-CPU machine's
  // default) and refuses it on several: the file is refused the same way whatever the machine.
  for (const threads of [1, 2]) {
    it(`is refused naming its first record, read by DuckDB on ${threads} thread(s): a byte order mark, a JSON array`, async () => {
      const record = JSON.stringify({ store_id: 's1', country: 'US' });
      const duck = await openDuck({ threads });
      try {
        for (const [name, text, said] of [
          ['bom', `\ufeff${record}\n`, NDJSON_BOM],
          ['array', `[\n  ${record}\n]\n`, NDJSON_ARRAY],
        ] as const) {
          const file = path.join(dir, `2026-0${threads}-${name}.ndjson`);
          await writeFile(file, text);
          await expect(readColumns(duck, { month: `2026-0${threads}`, file, name: path.basename(file), format: 'ndjson' }), name).rejects.toThrow(`${file}: row 1: ${said}`);
        }
      } finally {
        duck.close();
      }
    });
  }
});
