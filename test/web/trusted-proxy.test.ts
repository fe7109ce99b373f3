/**
 * The client address behind a reverse proxy, over real HTTP: `X-Forwarded-For` names the client
 * only on a request from a trusted proxy (`--trusted-proxy`), and then by its right-most address
 * that is not a trusted proxy; from any other peer a forged header changes nothing. The sign-in
 * throttle's address count shows which address was taken.
 */
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { SIGNIN_THROTTLE } from '../../src/members/signin-throttle.js';
import { resolveConfig } from '../../src/settings/config.js';
import { capturedEnv } from '../helpers/cli.js';
import { dialects, freshDb } from '../helpers/db.js';
import { startApi, type Harness } from '../helpers/api.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-trusted-proxy-');
afterAll(() => dirs.removeAll());

/** One failed sign-in (an unknown email, a wrong password) with `forwardedFor` as X-Forwarded-For. */
async function failSignIn(origin: string, email: string, forwardedFor: string): Promise<number> {
  const page = await fetch(`${origin}/signin`, { headers: { 'x-forwarded-for': forwardedFor } });
  const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
  const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
  const res = await fetch(`${origin}/signin`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie, 'x-forwarded-for': forwardedFor },
    body: new URLSearchParams({ csrf, next: '/integrations', email, password: 'wrong password' }).toString(),
  });
  await res.arrayBuffer();
  return res.status;
}

/** Past the free failures of an address, the next one is refused (its lock is then running). */
const PAST_FREE = SIGNIN_THROTTLE.free.address + 2;

for (const d of dialects)
  describe.skipIf(d.skip)(`the client address behind a proxy on ${d.label}`, () => {
    let h: Harness | undefined;
    afterEach(async () => {
      await h?.close();
      h = undefined;
    });

    it('ignores X-Forwarded-For from a peer that is not a trusted proxy: forged addresses all count as the connection', async () => {
      h = await startApi(d.name, { trustedProxies: ['10.0.0.0/8'] });
      const origin = new URL(h.base).origin;
      const statuses: number[] = [];
      for (let i = 0; i < PAST_FREE; i++) statuses.push(await failSignIn(origin, `u${i}@example.com`, `203.0.113.${i + 1}`));
      expect(statuses.at(-1)).toBe(429);
    });

    it('takes the right-most untrusted X-Forwarded-For address from a trusted proxy: each client counts alone, a forged left part is ignored', async () => {
      h = await startApi(d.name, { trustedProxies: ['127.0.0.1', '192.0.2.0/24'] });
      const origin = new URL(h.base).origin;
      // As many clients as the free failures and more, each behind the proxy: none is locked.
      const clients: number[] = [];
      for (let i = 0; i < PAST_FREE; i++) clients.push(await failSignIn(origin, `c${i}@example.com`, `203.0.113.${i + 1}`));
      expect(new Set(clients)).toEqual(new Set([401]));
      // One client forging addresses in front of its own, through two trusted hops: it is 198.51.100.7 every time.
      const forger: number[] = [];
      for (let i = 0; i < PAST_FREE; i++) forger.push(await failSignIn(origin, `f${i}@example.com`, `198.18.0.${i + 1}, 198.51.100.7, 192.0.2.10`));
      expect(forger.slice(0, SIGNIN_THROTTLE.free.address)).toEqual(Array(SIGNIN_THROTTLE.free.address).fill(401));
      expect(forger.at(-1)).toBe(429);
    });

    it('takes the trusted proxies of `storelens api` from STORELENS_TRUSTED_PROXIES', async () => {
      const t = await freshDb(d.name);
      const dir = await dirs.make();
      const none = { value: () => undefined, source: () => undefined };
      const config = resolveConfig('api', none, { STORELENS_TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1' });
      expect(config.trustedProxy).toEqual(['10.0.0.0/8', '127.0.0.1']);
      const api = await runApi({ ...config, port: 0, host: '127.0.0.1', db: t.dbPath ?? join(dir, 'unused.db'), databaseUrl: t.databaseUrl, requestsOnly: true, runs: join(dir, 'runs'), out: join(dir, 'out') }, capturedEnv(new Date()).env, false);
      try {
        const origin = new URL(api.url).origin;
        const clients: number[] = [];
        for (let i = 0; i < PAST_FREE; i++) clients.push(await failSignIn(origin, `e${i}@example.com`, `203.0.113.${i + 1}`));
        expect(new Set(clients)).toEqual(new Set([401]));
      } finally {
        await api.close();
        await t.cleanup();
      }
    });
  });
