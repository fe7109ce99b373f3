/**
 * A refresh finds a store's index among its ids (accounts/list-changes.ts idIndex) by binary search
 * when the ids are in JavaScript's string order, else through a map: either way as a map of the
 * ids would, for ids present and absent alike.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { idIndex } from '../../src/accounts/list-changes.js';

describe('the index of a refresh\'s store ids', () => {
  it('finds what a map finds, whether the ids are in string order or not', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 60 }), fc.array(fc.string({ unit: 'binary', maxLength: 6 }), { maxLength: 20 }), fc.boolean(), (unique, probes, sort) => {
        const ids = sort ? [...unique].sort() : unique;
        const map = new Map(ids.map((id, k) => [id, k]));
        const index = idIndex(ids);
        for (const id of [...ids, ...probes]) {
          expect(index.get(id)).toBe(map.get(id));
          expect(index.has(id)).toBe(map.has(id));
        }
      }),
    );
  });
});
