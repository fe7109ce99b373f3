/**
 * The ranking's score order (accounts/in-market.ts scoreOrder, descendingOrder): best score
 * first, ties by index, exactly as the comparator sort it replaced orders them, with many ties,
 * ±0, infinities and NaN among the keys, and over a subset of the indices.
 */
import { describe, expect, it } from 'vitest';
import { descendingOrder, scoreOrder } from '../../src/accounts/in-market.js';

/** A seeded generator (mulberry32), so a failure repeats. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const byComparator = (key: Float64Array, items: Uint32Array) => Uint32Array.from(items).sort((a, b) => key[b] - key[a] || a - b);

describe('the score order', () => {
  it('is the comparator sort\'s, ties by index, over every key and over a subset', () => {
    const r = random(7);
    for (const n of [0, 1, 2, 17, 5_000]) {
      const key = Float64Array.from({ length: n }, () => {
        const u = r();
        return u < 0.3 ? Math.round(u * 20) / 20 : u < 0.32 ? [0, -0, Infinity, -Infinity][Math.floor(r() * 4)] : r();
      });
      const all = Uint32Array.from({ length: n }, (_, k) => k);
      expect([...scoreOrder(key)]).toEqual([...byComparator(key, all)]);
      const some = all.filter(() => r() < 0.4);
      expect([...descendingOrder(key, some)]).toEqual([...byComparator(key, some)]);
    }
  });

  it('leaves keys with NaN to the comparator sort', () => {
    const key = Float64Array.from([0.5, Number.NaN, 0.7, 0.5]);
    const all = Uint32Array.from([0, 1, 2, 3]);
    expect([...descendingOrder(key, all)]).toEqual([...byComparator(key, all)]);
  });
});
