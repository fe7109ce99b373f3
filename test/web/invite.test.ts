/**
 * An invite link over HTTP: setting a password from it works once, signs that browser in, and
 * signs out every other browser of the email (whoever knew the old password is out as well), so
 * a new link is how a member whose password leaked takes their account back.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inviteMember } from '../../src/members/invite.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash, upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { HttpBrowser } from '../helpers/oauth.js';

const EMAIL = 'ann@example.com';
const OLD = 'correct horse battery';
const NEW = 'a new password, mine alone';

const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

for (const d of dialects)
  describe.skipIf(d.skip)(`passwords set from an invite link on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let origin: string;

    const signIn = async (b: HttpBrowser, password: string) => {
      const form = (await b.open('/signin')).page!;
      return b.open('/signin', { method: 'POST', form: { csrf: csrfOf(form.html), next: '/integrations', email: EMAIL, password } });
    };
    const setPassword = async (b: HttpBrowser, url: string, password: string) => {
      const form = (await b.open(url)).page!;
      return b.open(url, { method: 'POST', form: { csrf: csrfOf(form.html), password, confirm: password } });
    };
    const onIntegrations = async (b: HttpBrowser) => new URL((await b.open('/integrations')).page!.url).pathname === '/integrations';

    beforeEach(async () => {
      h = await startApi(d.name);
      origin = new URL(h.base).origin;
      ws = await workspace(h.db);
      await upsertMember(h.db.kysely, ws.id, EMAIL, 'admin', new Date());
      await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(OLD), new Date());
    });
    afterEach(async () => h?.close());

    it('signs out the other browsers of the email when a new link sets the password, and works once', async () => {
      const attacker = new HttpBrowser(origin);
      const earlier = new HttpBrowser(origin);
      expect((await signIn(attacker, OLD)).page?.url).toMatch(/\/integrations$/);
      expect((await signIn(earlier, OLD)).page?.url).toMatch(/\/integrations$/);

      const invite = await inviteMember(h.db, { workspaceId: ws.id, email: EMAIL, role: 'member', baseUrl: origin, now: new Date() });
      const owner = new HttpBrowser(origin);
      const set = await setPassword(owner, new URL(invite.url).pathname, NEW);
      expect(set.page?.url).toBe(`${origin}/integrations?workspace=${ws.id}`);
      expect(set.page?.status).toBe(200);

      expect(await onIntegrations(owner)).toBe(true);
      expect(await onIntegrations(attacker)).toBe(false);
      expect(await onIntegrations(earlier)).toBe(false);
      expect((await signIn(attacker, OLD)).page?.status).toBe(401);
      expect(await onIntegrations(attacker)).toBe(false);
      // The link works once.
      expect((await attacker.open(new URL(invite.url).pathname)).page?.status).toBe(404);
      expect((await signIn(earlier, NEW)).page?.url).toMatch(/\/integrations$/);
    });
  });
