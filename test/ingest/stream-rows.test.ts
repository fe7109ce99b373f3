/**
 * A DuckDB chunk that fails to read in the middle of a load is the error the load reports, never
 * an unhandled rejection (which ends the process: `storelens start`'s watcher with it). A fetch
 * started ahead of the write before it was once tried (no faster: docs/measurements) and had
 * exactly that bug.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { streamRows } from '../../src/ingest/ingest.js';
import type { Duck } from '../../src/panel/duck.js';

/** A Duck whose query yields one chunk of one row, then a fetch that has already failed. */
function failingOnSecondChunk(error: Error): Duck {
  const chunks = [
    () => Promise.resolve({ rowCount: 1, getColumns: () => [[1]] }),
    () => Promise.reject(error),
  ];
  const result = { fetchChunk: () => chunks.shift()!() };
  return { conn: { stream: async () => result } } as unknown as Duck;
}

const unhandled: unknown[] = [];
const record = (reason: unknown) => unhandled.push(reason);
afterEach(() => {
  process.off('unhandledRejection', record);
  unhandled.length = 0;
});

describe('streamRows', () => {
  it('reports a fetch that fails while the batch before is written, as its error and not an unhandled rejection', async () => {
    process.on('unhandledRejection', record);
    const boom = new Error('the run file could not be read');
    const written: number[] = [];
    const load = streamRows(failingOnSecondChunk(boom), 'SELECT 1', 1, async (cols, n) => {
      // The write takes a turn of the event loop, as a database write does: the failed fetch is seen then.
      await new Promise((r) => setImmediate(r));
      await new Promise((r) => setImmediate(r));
      written.push(n);
    });
    await expect(load).rejects.toBe(boom);
    expect(written).toEqual([1]);
    expect(unhandled).toEqual([]);
  });
});
