/**
 * The SSRF guard (src/outbound/ssrf.ts): its address rules (every blocked range by name, and the
 * local-development exception) and its bounded name resolution.
 */
import { describe, expect, it } from 'vitest';
import { addressRefusal, checkTarget, onePerHost, type ResolvedAddress } from '../../src/outbound/ssrf.js';
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

describe('name resolution', () => {
  it('names the address a refused host resolves to, then why that address is refused', async () => {
    const guard = (addresses: string[]) => ({ resolve: async (): Promise<ResolvedAddress[]> => addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })), allowLocal: false });
    await expect(checkTarget('https://hooks.test/', guard(['10.0.0.7']))).rejects.toMatchObject({
      message: 'hooks.test resolves to 10.0.0.7: 10.0.0.7 is a private address; only public addresses are allowed',
    });
    await expect(checkTarget('https://hooks.test/', guard(['93.184.216.34', '::ffff:7f00:1']))).rejects.toMatchObject({
      message: 'hooks.test resolves to ::ffff:7f00:1: 127.0.0.1 (embedded in ::ffff:7f00:1, ipv4Mapped) is a loopback address; only public addresses are allowed',
    });
  });
  it('gives up on a host that does not answer in time, as on one that does not resolve', async () => {
    const guard = { resolve: () => new Promise<never>(() => undefined), allowLocal: false, resolveTimeoutMs: 10 };
    await expect(checkTarget('https://slow.test/hook', guard)).rejects.toMatchObject({ message: 'the host slow.test did not resolve within 0.01 s', unresolved: true });
  });

  it('runs one lookup per host at a time: calls that gave up leave it running, and the next calls join it', async () => {
    const answers: ((a: ResolvedAddress[]) => void)[] = [];
    const asked: string[] = [];
    const resolve = onePerHost((host) => {
      asked.push(host);
      return new Promise((r) => answers.push(r));
    });
    const guard = { resolve, allowLocal: false, resolveTimeoutMs: 10 };
    await expect(checkTarget('https://slow.test/a', guard)).rejects.toMatchObject({ unresolved: true });
    await expect(checkTarget('https://slow.test/b', guard)).rejects.toMatchObject({ unresolved: true });
    await expect(checkTarget('https://other.test/', guard)).rejects.toMatchObject({ unresolved: true });
    expect(asked).toEqual(['slow.test', 'other.test']);
    // A call while the lookup runs shares its answer; once it has answered, the next call asks again.
    const joined = checkTarget('https://slow.test/c', { ...guard, resolveTimeoutMs: 60_000 });
    answers[0]([{ address: '93.184.216.34', family: 4 }]);
    expect((await joined).addresses).toEqual([{ address: '93.184.216.34', family: 4 }]);
    const next = checkTarget('https://slow.test/d', { ...guard, resolveTimeoutMs: 60_000 });
    expect(asked).toEqual(['slow.test', 'other.test', 'slow.test']);
    answers[2]([{ address: '93.184.216.34', family: 4 }]);
    await next;
  });
});
