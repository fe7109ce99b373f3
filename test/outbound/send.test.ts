/** A signed POST (src/outbound/send.ts): its deadline counts from the start of the attempt, name resolution included. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { send } from '../../src/outbound/send.js';
import { checkTarget } from '../../src/outbound/ssrf.js';
import { type Receiver, startReceiver } from '../helpers/receiver.js';

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
});
