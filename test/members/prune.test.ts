/**
 * The background loop's `sessions` task deletes what no sign-in can use any more: browser
 * sessions past their 12 hours, invites used or past their 7 days. Live sessions and open invites
 * stay, and keep working. The clock is the server's injected one.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startBackground } from '../../src/compose/background.js';
import { inviteMember } from '../../src/members/invite.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';

const PASSWORD = 'correct horse battery';
const HOUR = 3_600_000;
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

for (const d of dialects)
  describe.skipIf(d.skip)(`deleting ended sessions and invites on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let origin: string;
    beforeEach(async () => {
      h = await startApi(d.name);
      origin = new URL(h.base).origin;
      ws = await workspace(h.db);
      await setPasswordHash(h.db.kysely, 'owner@example.com', await hashPassword(PASSWORD), new Date());
    });
    afterEach(async () => h?.close());

    /** A form's page and its post, with the page's cookies; the answer to the post. */
    const submit = async (path: string, fields: Record<string, string>): Promise<Response> => {
      const page = await fetch(`${origin}${path}`);
      expect(page.status).toBe(200);
      const cookie = page.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      return fetch(`${origin}${path}`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
        body: new URLSearchParams({ csrf: csrfOf(await page.text()), ...fields }).toString(),
      });
    };
    const signIn = async () => {
      const res = await submit('/signin', { next: '/integrations', email: 'owner@example.com', password: PASSWORD });
      expect(res.status).toBe(303);
      return res.headers.getSetCookie().find((c) => c.startsWith('storelens_session='))!.split(';')[0]!;
    };
    const invite = (email: string) => inviteMember(h.db, { workspaceId: ws.id, email, role: 'member', baseUrl: origin, now: h.clock.now() });
    const rows = async () => ({
      sessions: (await h.db.kysely.selectFrom('member_sessions').select('token_hash').execute()).length,
      invites: (await h.db.kysely.selectFrom('member_invites').select('email').orderBy('email').execute()).map((r) => r.email),
    });

    it('deletes sessions past their end and invites used or expired, and leaves the live ones working', async () => {
      const expired = await invite('old@example.com');
      h.clock.advance(8 * 24 * HOUR);
      const ended = await signIn();
      const used = await invite('used@example.com');
      expect((await submit(new URL(used.url).pathname, { password: PASSWORD, confirm: PASSWORD })).status).toBe(303);
      const open = await invite('open@example.com');
      h.clock.advance(13 * HOUR);
      const live = await signIn();
      expect(await rows()).toEqual({ sessions: 3, invites: ['old@example.com', 'open@example.com', 'used@example.com'] });

      const lines: string[] = [];
      const bg = startBackground(h.db, { now: h.clock.now, log: (l) => lines.push(l), only: ['sessions'] });
      expect(bg.tasks).toEqual(['sessions']);
      await bg.worker.idle();
      await bg.stop();

      // The sessions of `ended` and of the invite's browser were 13 hours old.
      expect(await rows()).toEqual({ sessions: 1, invites: ['open@example.com'] });
      expect(lines).toEqual(['sessions: deleted 2 ended sessions and 2 used or expired invites']);
      const opens = async (session: string) => (await fetch(`${origin}/integrations`, { redirect: 'manual', headers: { cookie: session } })).status;
      expect(await opens(live)).toBe(200);
      expect(await opens(ended)).toBe(303);
      expect((await fetch(open.url)).status).toBe(200);
      expect((await fetch(expired.url)).status).toBe(404);
    });
  });
