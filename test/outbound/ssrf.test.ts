/** The SSRF guard's address rules (src/outbound/ssrf.ts): every blocked range by name, and the local-development exception. */
import { describe, expect, it } from 'vitest';
import { addressRefusal } from '../../src/outbound/ssrf.js';
import { BLOCKED, PUBLIC } from '../helpers/addresses.js';

describe('addressRefusal', () => {
  it.each(BLOCKED)('refuses %s', (address, why) => {
    expect(addressRefusal(address, false)).toMatch(why);
  });
  it.each(PUBLIC)('admits public %s', (address) => {
    expect(addressRefusal(address, false)).toBeNull();
  });
  it('admits loopback only with the local-development setting, and nothing else private', () => {
    expect(addressRefusal('127.0.0.1', true)).toBeNull();
    expect(addressRefusal('::1', true)).toBeNull();
    expect(addressRefusal('10.0.0.1', true)).toMatch(/private/);
    expect(addressRefusal('169.254.169.254', true)).toMatch(/link-local/);
  });
});
