import { describe, expect, it } from 'vitest';
import { consecutiveIds, newId } from '../../src/db/ids.js';

describe('consecutiveIds', () => {
  it('gives ids shaped like newId, each the one before plus one', () => {
    const next = consecutiveIds('evt');
    const ids = Array.from({ length: 1000 }, next);
    const shape = /^evt_[0-9a-f]{20}$/;
    expect(newId('evt')).toMatch(shape);
    for (const id of ids) expect(id).toMatch(shape);
    const n = ids.map((id) => BigInt(`0x${id.slice(4)}`));
    for (let i = 1; i < n.length; i++) expect(n[i]).toBe((n[i - 1] + 1n) % 2n ** 80n);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('carries into the upper digits and wraps after the largest', () => {
    const carry = consecutiveIds('evt', Buffer.from('00000000fffffffffffe', 'hex'));
    expect([carry(), carry(), carry()]).toEqual(['evt_00000000fffffffffffe', 'evt_00000000ffffffffffff', 'evt_00000001000000000000']);
    const wrap = consecutiveIds('evt', Buffer.from('ffffffffffffffffffff', 'hex'));
    expect([wrap(), wrap()]).toEqual(['evt_ffffffffffffffffffff', 'evt_00000000000000000000']);
  });

  it('starts each batch at its own random place', () => {
    const a = consecutiveIds('evt')();
    const b = consecutiveIds('evt')();
    expect(a).not.toBe(b);
  });
});
