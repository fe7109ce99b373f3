import { describe, expect, it } from 'vitest';
import { describeFailure } from '../../src/core/errors.js';

describe('describeFailure (the line the CLI prints for an unexpected failure)', () => {
  it("prints an Error's message, or its name when it has none", () => {
    expect(describeFailure(new Error('disk full'))).toBe('disk full');
    expect(describeFailure(new TypeError())).toBe('TypeError');
  });

  it('says what was thrown when it is not an Error', () => {
    expect(describeFailure({ message: 'worker gone' })).toBe('worker gone');
    expect(describeFailure({ code: 'EPIPE' })).toBe('{"code":"EPIPE"}');
    expect(describeFailure('plain text')).toBe('plain text');
    expect(describeFailure(undefined)).toBe('an unknown failure (undefined was thrown)');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(describeFailure(cyclic)).toBe('[object Object]');
  });
});
