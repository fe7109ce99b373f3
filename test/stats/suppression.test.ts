/**
 * Primary and secondary suppression (src/stats/suppression.ts) as properties: after protect(),
 * a breakdown hides no cell with stores, or at least two holding at least 30 together; protect
 * only adds cells, adds none when nothing is hidden, and adds the smallest cells first.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FLOOR, isProtected, primary, protect, UNKNOWN, type SizedCell } from '../../src/stats/suppression.js';

/** A breakdown of known values (callers leave the unknown cell out): sizes around the floor, some empty. */
const breakdown = fc
  .uniqueArray(fc.string({ minLength: 1, maxLength: 6 }), { maxLength: 14 })
  .chain((keys) =>
    fc.tuple(...keys.map(() => fc.oneof(fc.constant(0), fc.integer({ min: 1, max: 45 }), fc.integer({ min: 30, max: 5000 })))).map((ns) =>
      keys.map((key, i): SizedCell => ({ key, n: ns[i] })),
    ),
  );
/** A breakdown and a starting hidden set: its primary cells, or any subset. */
const withHidden = breakdown.chain((cells) =>
  fc.oneof(
    fc.constant({ cells, hidden: primary(cells) }),
    fc.subarray(cells.map((c) => c.key)).map((keys) => ({ cells, hidden: new Set(keys) })),
  ),
);

const withStores = (cells: SizedCell[], keys: ReadonlySet<string>) => cells.filter((c) => keys.has(c.key) && c.n > 0);
/** Whether any hidden set can be safe: nothing hidden with stores, or enough cells with stores. */
const feasible = (cells: SizedCell[], hidden: ReadonlySet<string>) => {
  const populated = cells.filter((c) => c.n > 0);
  return withStores(cells, hidden).length === 0 || (populated.length >= 2 && populated.reduce((s, c) => s + c.n, 0) >= FLOOR);
};

describe('primary', () => {
  it('hides exactly the cells below the floor', () => {
    fc.assert(
      fc.property(breakdown, (cells) => {
        const hidden = primary(cells);
        for (const c of cells) expect(hidden.has(c.key)).toBe(c.n < FLOOR);
      }),
    );
  });

  it('gives the unknown-cell key no special treatment (its size is public, so callers leave it out)', () => {
    expect([...primary([{ key: UNKNOWN, n: 500 }, { key: 'US', n: 12 }])]).toEqual(['US']);
  });
});

describe('isProtected', () => {
  it('holds when no cell with stores is hidden, or two or more hold at least the floor together', () => {
    fc.assert(
      fc.property(withHidden, ({ cells, hidden }) => {
        const h = withStores(cells, hidden);
        const expected = h.length === 0 || (h.length >= 2 && h.reduce((s, c) => s + c.n, 0) >= FLOOR);
        expect(isProtected(cells, hidden)).toBe(expected);
      }),
    );
  });

  it('treats one hidden cell as derivable, however large', () => {
    expect(isProtected([{ key: 'a', n: 500 }, { key: 'b', n: 400 }], new Set(['a']))).toBe(false);
    expect(isProtected([{ key: 'a', n: 29 }, { key: 'b', n: 1 }, { key: 'c', n: 400 }], new Set(['a', 'b']))).toBe(true);
    expect(isProtected([{ key: 'a', n: 20 }, { key: 'b', n: 9 }, { key: 'c', n: 400 }], new Set(['a', 'b']))).toBe(false);
    expect(isProtected([{ key: 'a', n: 0 }, { key: 'b', n: 400 }], new Set(['a']))).toBe(true);
  });
});

describe('protect', () => {
  it('makes every breakdown safe whenever a safe pattern exists', () => {
    fc.assert(
      fc.property(withHidden, ({ cells, hidden }) => {
        const out = protect(cells, hidden);
        if (feasible(cells, hidden)) expect(isProtected(cells, out)).toBe(true);
      }),
    );
  });

  it('only ever adds cells, and only cells with stores', () => {
    fc.assert(
      fc.property(withHidden, ({ cells, hidden }) => {
        const out = protect(cells, hidden);
        for (const k of hidden) expect(out.has(k)).toBe(true);
        for (const k of out) if (!hidden.has(k)) expect(cells.find((c) => c.key === k)!.n).toBeGreaterThan(0);
      }),
    );
  });

  it('adds nothing when nothing with stores is hidden', () => {
    fc.assert(
      fc.property(breakdown, (cells) => {
        const empty = new Set(cells.filter((c) => c.n === 0).map((c) => c.key));
        expect([...protect(cells, empty)].sort()).toEqual([...empty].sort());
        expect(protect(cells, new Set()).size).toBe(0);
      }),
    );
  });

  it('adds the smallest published cells first, and stops as soon as the breakdown is safe', () => {
    fc.assert(
      fc.property(withHidden, ({ cells, hidden }) => {
        const out = protect(cells, hidden);
        const added = cells.filter((c) => out.has(c.key) && !hidden.has(c.key));
        const stillShown = cells.filter((c) => !out.has(c.key) && c.n > 0);
        for (const a of added) for (const s of stillShown) expect(a.n).toBeLessThanOrEqual(s.n);
        if (added.length > 0) {
          const largest = added.reduce((m, c) => (c.n > m.n || (c.n === m.n && c.key > m.key) ? c : m));
          expect(isProtected(cells, new Set([...out].filter((k) => k !== largest.key)))).toBe(false);
        }
      }),
    );
  });

  it('hides the next-smallest country beside a single small one', () => {
    const cells = [{ key: 'US', n: 700 }, { key: 'GB', n: 180 }, { key: 'IS', n: 4 }, { key: 'IT', n: 39 }, { key: 'SE', n: 38 }];
    expect([...protect(cells, primary(cells))].sort()).toEqual(['IS', 'SE']);
  });

  it('hides nothing in a breakdown whose cells all reach the floor', () => {
    const cells = [{ key: 'basic', n: 740 }, { key: 'grow', n: 586 }, { key: 'plus', n: 167 }, { key: 'advanced', n: 30 }];
    expect(protect(cells, primary(cells)).size).toBe(0);
  });

  it('hides the smallest large cell when a lone small cell cannot be paired with another small one', () => {
    const cells = [{ key: 'basic', n: 740 }, { key: 'grow', n: 586 }, { key: 'plus', n: 167 }, { key: 'enterprise', n: 3 }];
    expect([...protect(cells, primary(cells))].sort()).toEqual(['enterprise', 'plus']);
  });

  it('gives up (leaves everything hidden) when no safe pattern exists', () => {
    const cells = [{ key: 'a', n: 12 }, { key: 'b', n: 10 }];
    const out = protect(cells, primary(cells));
    expect([...out].sort()).toEqual(['a', 'b']);
    expect(isProtected(cells, out)).toBe(false);
  });
});
