/**
 * An invite and a role change of the same email from two database handles at once (two
 * processes): the invite waits for the workspace lock the role change holds, finds the member it
 * added, and keeps the role it was given (an invite never changes a role).
 */
import { describe, expect, it } from 'vitest';
import { inviteMember } from '../../src/members/invite.js';
import { lockMember } from '../../src/members/owners.js';
import { getMember, upsertMember } from '../../src/workspaces/store.js';
import { workspace } from '../api/harness.js';
import { dialects, useTwoHandles } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`an invite racing a role change on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    it('keeps the owner role a concurrent members add gave, however the invite asked for a member', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      let release!: () => void;
      const held = new Promise<void>((r) => (release = r));
      let locked!: () => void;
      const firstLocked = new Promise<void>((r) => (locked = r));
      // members add, as setMemberRole does it: the workspace lock, then the member written.
      const add = t.db.write(async (trx) => {
        await lockMember(trx, ws.id, 'kim@example.com');
        locked();
        await held;
        await upsertMember(trx, ws.id, 'kim@example.com', 'owner', new Date());
      });
      await firstLocked;
      const invite = inviteMember(other, { workspaceId: ws.id, email: 'kim@example.com', role: 'member', baseUrl: 'https://app.example.com', now: new Date() });
      release();
      await add;
      expect((await invite).role).toBe('owner');
      expect((await getMember(t.db.kysely, ws.id, 'kim@example.com'))?.role).toBe('owner');
    });
  });
}
