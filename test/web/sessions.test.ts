/**
 * Signing in over another session in the same browser: the cookie the browser presented stops
 * opening anything at once, whoever it belonged to, so a shared computer's earlier member is out
 * when the next one signs in, not for up to 12 more hours to whoever copied the cookie.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash, upsertMember } from '../../src/members/store.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';

const PASSWORD = 'correct horse battery';

for (const d of dialects)
  describe.skipIf(d.skip)(`signing in over another session on ${d.label}`, () => {
    let h: Harness;
    let origin: string;
    beforeEach(async () => {
      h = await startApi(d.name);
      origin = new URL(h.base).origin;
      const ws = await workspace(h.db);
      for (const email of ['ann@example.com', 'bob@example.com']) {
        await upsertMember(h.db.kysely, ws.id, email, 'member', new Date());
        await setPasswordHash(h.db.kysely, email, await hashPassword(PASSWORD), new Date());
      }
    });
    afterEach(async () => h?.close());

    /** Signs in as `email` from a browser holding `session` (a `storelens_session=…` pair, or none); the new session's pair. */
    const signIn = async (email: string, session?: string): Promise<string> => {
      const page = await fetch(`${origin}/signin`, { headers: session ? { cookie: session } : {} });
      const csrf = /name="csrf" value="([^"]+)"/.exec(await page.text())![1]!;
      const pre = page.headers.getSetCookie().map((c) => c.split(';')[0]!);
      const res = await fetch(`${origin}/signin`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: [...pre, ...(session ? [session] : [])].join('; ') },
        body: new URLSearchParams({ csrf, next: '/integrations', email, password: PASSWORD }).toString(),
      });
      expect(res.status).toBe(303);
      return res.headers.getSetCookie().find((c) => c.startsWith('storelens_session='))!.split(';')[0]!;
    };
    const opens = async (session: string) => (await fetch(`${origin}/integrations`, { redirect: 'manual', headers: { cookie: session } })).status;
    const sessionsOf = async (email: string) => (await h.db.kysely.selectFrom('member_sessions').select('token_hash').where('email', '=', email).execute()).length;

    it("ends the session the browser presented when another member signs in, and keeps the new one", async () => {
      const ann = await signIn('ann@example.com');
      expect(await opens(ann)).toBe(200);
      const bob = await signIn('bob@example.com', ann);
      expect(await opens(ann)).toBe(303);
      expect(await opens(bob)).toBe(200);
      expect(await sessionsOf('ann@example.com')).toBe(0);
      expect(await sessionsOf('bob@example.com')).toBe(1);
    });

    it('replaces the session when the same member signs in again, and leaves their other browsers signed in', async () => {
      const laptop = await signIn('ann@example.com');
      const phone = await signIn('ann@example.com');
      const again = await signIn('ann@example.com', laptop);
      expect(await opens(laptop)).toBe(303);
      expect(await opens(again)).toBe(200);
      expect(await opens(phone)).toBe(200);
      expect(await sessionsOf('ann@example.com')).toBe(2);
    });
  });
