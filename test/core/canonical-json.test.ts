import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/core/canonical-json.js';

/** The same members in another order, at every level. */
function shuffled(value: unknown, seed: number): unknown {
  if (Array.isArray(value)) return value.map((v, i) => shuffled(v, seed + i));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const rotated = entries.length ? [...entries.slice(seed % entries.length), ...entries.slice(0, seed % entries.length)].reverse() : entries;
  return Object.fromEntries(rotated.map(([k, v]) => [k, shuffled(v, seed + 1)]));
}

describe('canonical JSON (card hashes, idempotency fingerprints, derived MCP keys)', () => {
  it('is one text for a value whatever the order of its keys, and reads back as that value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.nat(), (value, seed) => {
        const text = canonicalJson(value);
        expect(canonicalJson(shuffled(value, seed))).toBe(text);
        expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });
  it('sorts keys by code unit at every level and drops undefined members', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: undefined, x: 2 }], c: null }, B: 'é' })).toBe('{"B":"é","a":{"c":null,"d":[{"x":2,"z":1}]},"b":1}');
    expect(canonicalJson(undefined)).toBe('null');
  });
});
