import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repeatedMember } from '../../src/core/json-members.js';

describe('repeated member names in JSON text', () => {
  it('finds none in any JSON text of a value (whose objects have distinct names), however it is spaced', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(undefined, 1, '\t'), (value, space) => {
        expect(repeatedMember(JSON.stringify(value, null, space))).toBeUndefined();
      }),
    );
  });
  it('names the path of a name repeated in any object of any value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.string(), (value, name) => {
        // The repeated member sits in an object at the end of a list beside the value.
        const text = `{"v":[${JSON.stringify(value)},{${JSON.stringify(name)}:1,${JSON.stringify(name)}:2}]}`;
        expect(repeatedMember(text)).toEqual(['v', '1', name]);
      }),
    );
  });
  it('compares names as decoded, not as written', () => {
    expect(repeatedMember('{"a":1,"\\u0061":2}')).toEqual(['a']);
    expect(repeatedMember('{"a\\"b":1,"a\\u0022b":2}')).toEqual(['a"b']);
    expect(repeatedMember('{"a":{"a":{"a":1}},"b":[{"a":1},{"a":2}]}')).toBeUndefined();
  });
});
