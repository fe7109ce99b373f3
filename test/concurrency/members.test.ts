/**
 * Membership changes from two database handles at once (two processes), each overlapping the
 * other's open transaction the same way every time: of two demotions (or a demotion and a
 * removal) of a workspace's only two owners one is refused, and an invite link is used once.
 */
import { describe, expect, it } from 'vitest';
import { inviteMember } from '../../src/members/invite.js';
import { MembershipRefused, setMemberRole } from '../../src/members/owners.js';
import { removeMembership } from '../../src/members/remove.js';
import { upsertMember, useInvite } from '../../src/members/store.js';
import { revokeMemberGrants } from '../../src/oauth/store.js';
import { tokenHash } from '../../src/core/tokens.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, raceAtCommit, useTwoHandles } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`membership changes raced on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    type Change = (db: Db, workspaceId: string) => Promise<unknown>;
    const demote = (email: string): Change => (db, workspaceId) => setMemberRole(db, { workspaceId, email, role: 'member', now: new Date() });
    const remove = (email: string): Change => (db, workspaceId) => removeMembership(db, { workspaceId, email, now: new Date() }, { revokeAssistantGrants: revokeMemberGrants });

    for (const [name, first, second] of [
      ['both owners are demoted', demote('ann@example.com'), demote('bo@example.com')],
      ['one owner is demoted as the other is removed', demote('ann@example.com'), remove('bo@example.com')],
      ['one owner is removed as the other is demoted', remove('ann@example.com'), demote('bo@example.com')],
    ] as const) {
      it(`keeps an owner when ${name} at once: the second refused`, async () => {
        const { t, other } = handles();
        const ws = await workspace(t.db);
        for (const email of ['ann@example.com', 'bo@example.com']) await upsertMember(t.db.kysely, ws.id, email, 'owner', new Date());
        await t.db.kysely.deleteFrom('members').where('workspace_id', '=', ws.id).where('email', '=', 'owner@example.com').execute();
        const [a, b] = await raceAtCommit(t.db, (db) => first(db, ws.id), () => second(other, ws.id));
        expect(a.status, String((a as PromiseRejectedResult).reason)).toBe('fulfilled');
        expect(b.status).toBe('rejected');
        expect((b as PromiseRejectedResult).reason).toBeInstanceOf(MembershipRefused);
        const owners = await t.db.kysely.selectFrom('members').select('email').where('workspace_id', '=', ws.id).where('role', '=', 'owner').execute();
        expect(owners).toEqual([{ email: 'bo@example.com' }]);
      });
    }

    it('uses an invite link once when two acceptances of it overlap', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      const invite = await inviteMember(t.db, { workspaceId: ws.id, email: 'cy@example.com', role: 'member', baseUrl: 'https://app.example.com', now: new Date() });
      const hash = tokenHash(invite.url.split('/').pop()!);
      const [a, b] = await raceAtCommit(t.db, (db) => db.write((trx) => useInvite(trx, hash, new Date())), () => other.write((trx) => useInvite(trx, hash, new Date())));
      expect([a, b]).toEqual([{ status: 'fulfilled', value: true }, { status: 'fulfilled', value: false }]);
    });
  });
}
