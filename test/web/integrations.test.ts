/**
 * Integrations → API & MCP over HTTP against a member who names a workspace not theirs: a page
 * or form of another workspace (one they never belonged to, or left while its page was open)
 * answers 404 and changes nothing, in that workspace or in their own.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashPassword } from '../../src/members/passwords.js';
import { removeMember, setPasswordHash, upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { apiKey, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects, lockWaiter, openAgain } from '../helpers/db.js';
import { lockMember } from '../../src/members/owners.js';
import { HttpBrowser } from '../helpers/oauth.js';

const EMAIL = 'ann@example.com';
const PASSWORD = 'correct horse battery';

/** The CSRF token of the page's forms. */
const csrfOf = (html: string) => /name="csrf" value="([^"]+)"/.exec(html)![1]!;

for (const d of dialects)
  describe.skipIf(d.skip)(`Integrations of a workspace the member is not in, on ${d.label}`, () => {
    let h: Harness;
    let mine: Workspace;
    let theirs: Workspace;
    let browser: HttpBrowser;

    const keysOf = async (ws: Workspace) =>
      h.db.kysely.selectFrom('api_keys').select(['id', 'name', 'revoked_at']).where('workspace_id', '=', ws.id).orderBy('name').execute();

    beforeEach(async () => {
      h = await startApi(d.name);
      mine = await workspace(h.db, 'mine');
      theirs = await workspace(h.db, 'theirs');
      await upsertMember(h.db.kysely, mine.id, EMAIL, 'owner', new Date());
      await setPasswordHash(h.db.kysely, EMAIL, await hashPassword(PASSWORD), new Date());
      browser = new HttpBrowser(new URL(h.base).origin);
      const signIn = (await browser.open('/signin')).page!;
      const signedIn = await browser.open('/signin', { method: 'POST', form: { csrf: csrfOf(signIn.html), next: '/integrations', email: EMAIL, password: PASSWORD } });
      expect(signedIn.page?.url).toMatch(/\/integrations$/);
    });
    afterEach(async () => h?.close());

    it('answers 404 for the page of a workspace the member never belonged to', async () => {
      const page = (await browser.open(`/integrations?workspace=${theirs.id}`)).page!;
      expect(page.status).toBe(404);
      expect(page.html).toContain('not a member of that workspace');
      expect(page.html).not.toContain('mine');
    });

    it('creates no key, in either workspace, from a form naming a workspace the member is not in', async () => {
      const csrf = csrfOf((await browser.open(`/integrations?workspace=${mine.id}`)).page!.html);
      const created = (await browser.open(`/integrations/keys?workspace=${theirs.id}`, { method: 'POST', form: { csrf, name: 'CRM sync', access: 'read' } })).page!;
      expect(created.status).toBe(404);
      expect(created.html).not.toMatch(/slk_[0-9a-f]{12}_/);
      expect(await keysOf(mine)).toEqual([]);
      expect(await keysOf(theirs)).toEqual([]);
    });

    it('answers 404 to the forms of a workspace the member left while its page was open, and revokes nothing', async () => {
      await upsertMember(h.db.kysely, theirs.id, EMAIL, 'admin', new Date());
      await apiKey(h.db, mine.id, ['read:accounts']);
      const open = (await browser.open(`/integrations?workspace=${theirs.id}`)).page!;
      expect(open.status).toBe(200);
      const csrf = csrfOf(open.html);
      await removeMember(h.db.kysely, theirs.id, EMAIL);

      const created = (await browser.open(`/integrations/keys?workspace=${theirs.id}`, { method: 'POST', form: { csrf, name: 'For theirs', access: 'read' } })).page!;
      expect(created.status).toBe(404);
      const [key] = await keysOf(mine);
      const revoked = (await browser.open(`/integrations/keys/${key!.id}/revoke?workspace=${theirs.id}`, { method: 'POST', form: { csrf } })).page!;
      expect(revoked.status).toBe(404);
      expect(await keysOf(mine)).toEqual([{ id: key!.id, name: 'test', revoked_at: null }]);
      expect(await keysOf(theirs)).toEqual([]);
    });

    it('answers a form of the member removed from their last workspace with the sign-in form, saying so, and creates nothing', async () => {
      const csrf = csrfOf((await browser.open(`/integrations?workspace=${mine.id}`)).page!.html);
      await removeMember(h.db.kysely, mine.id, EMAIL);
      const created = (await browser.open(`/integrations/keys?workspace=${mine.id}`, { method: 'POST', form: { csrf, name: 'After leaving', access: 'read' } })).page!;
      expect(created.status).toBe(401);
      expect(created.html).toContain('You are no longer a member of any workspace; nothing was changed.');
      expect(created.html).toContain(`name="next" value="/integrations?workspace=${mine.id}"`);
      expect(await keysOf(mine)).toEqual([]);
    });

    // Two processes on one PostgreSQL database: the page's server, and `storelens members add`
    // demoting the member, whose transaction holds the workspace lock while the revoke arrives.
    it.skipIf(d.name !== 'PostgreSQL')('revokes nothing for an owner demoted while the revoke waits for the workspace lock', async () => {
      await upsertMember(h.db.kysely, mine.id, 'other-owner@example.com', 'owner', new Date());
      await apiKey(h.db, mine.id, ['read:accounts']);
      const [key] = await keysOf(mine);
      const csrf = csrfOf((await browser.open(`/integrations?workspace=${mine.id}`)).page!.html);
      const other = await openAgain(h.t);
      try {
        let release!: () => void;
        const held = new Promise<void>((r) => (release = r));
        let locked!: () => void;
        const ready = new Promise<void>((r) => (locked = r));
        const demotion = other.write(async (trx) => {
          await lockMember(trx, mine.id, EMAIL);
          await upsertMember(trx, mine.id, EMAIL, 'member', new Date());
          locked();
          await held;
        });
        await ready;
        const revoke = browser.open(`/integrations/keys/${key!.id}/revoke?workspace=${mine.id}`, { method: 'POST', form: { csrf } });
        // Let go once the revoke waits for the lock, or has answered without waiting for it.
        await Promise.race([lockWaiter(h.db.kysely), revoke.then(() => undefined, () => undefined)]);
        release();
        await demotion;
        const page = (await revoke).page!;
        expect(page.status).toBe(403);
        expect(page.html).toContain('your role in this workspace changed meanwhile');
        expect(await keysOf(mine)).toEqual([{ id: key!.id, name: 'test', revoked_at: null }]);
      } finally {
        await other.close();
      }
    });
  });
