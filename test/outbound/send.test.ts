/** A signed POST (src/outbound/send.ts): its deadline counts from the start of the attempt, name resolution included. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { send } from '../../src/outbound/send.js';
import { checkTarget } from '../../src/outbound/ssrf.js';
import { type Receiver, selfSigned, startReceiver } from '../helpers/receiver.js';

describe('send', () => {
  let rx: Receiver;
  beforeEach(async () => {
    rx = await startReceiver({ tls: false, host: '127.0.0.1' });
    rx.respond = () => ({ status: 200, hang: true });
  });
  afterEach(() => rx.close());

  it('gives the answer only what is left of the attempt: the time taken to resolve the host counts', async () => {
    const target = await checkTarget(rx.url(), { resolve: async () => [], allowLocal: true });
    // An attempt that began an hour ago (its host took that long to resolve) has nothing left to wait.
    const r = await send(target, '{}', {}, { timeoutMs: 3600_000, startedAt: performance.now() - 3600_000 });
    expect(r).toEqual({ statusCode: null, error: 'no answer within 3600 s', retryAfterMs: null });
    // Not even sent: nobody would wait for its answer.
    expect(rx.received).toHaveLength(0);
  });

  describe('a host of several addresses', () => {
    // The receiver listens on 127.0.0.1 only: on 127.0.0.2 and 127.0.0.3 (loopback too) nothing
    // answers and the connection is refused at once, as at a server that is down.
    const resolveTo = (...addresses: string[]) => async () => addresses.map((address) => ({ address, family: 4 as const }));

    it('is reached at the next checked address when the first does not answer', async () => {
      const tls = await startReceiver();
      try {
        const target = await checkTarget(tls.url(), { resolve: resolveTo('127.0.0.2', '127.0.0.1'), allowLocal: true });
        const r = await send(target, '{"n":1}', {}, { ca: selfSigned().cert });
        expect(r).toEqual({ statusCode: 200, error: null, retryAfterMs: null });
        expect(tls.received.map((m) => m.body)).toEqual(['{"n":1}']);
      } finally {
        await tls.close();
      }
    });

    it('names every address that failed when none answers', async () => {
      const target = await checkTarget(`http://hooks.test:${rx.port}/hook`, { resolve: resolveTo('127.0.0.2', '127.0.0.3'), allowLocal: true });
      const r = await send(target, '{}', {});
      expect(r.statusCode).toBeNull();
      expect(r.error).toBe(`connect ECONNREFUSED 127.0.0.2:${rx.port}; connect ECONNREFUSED 127.0.0.3:${rx.port}`);
      expect(rx.received).toHaveLength(0);
    });

    it('connects to no address the guard did not check', async () => {
      // The name would resolve elsewhere now (a rebinding): the checked address is still the one used.
      const target = await checkTarget(`http://hooks.test:${rx.port}/hook`, { resolve: resolveTo('127.0.0.3'), allowLocal: true });
      rx.respond = () => ({ status: 200 });
      const r = await send(target, '{}', {});
      expect(r.error).toBe(`connect ECONNREFUSED 127.0.0.3:${rx.port}`);
      expect(rx.received).toHaveLength(0);
    });
  });
});

