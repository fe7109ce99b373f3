/**
 * OAuth records and memberships changed by two processes at once: an authorization code or a
 * refresh token is consumed by one request only, so two token requests with one code never both
 * get tokens; consents of one member, assistant and workspace at once leave one grant; two
 * removals of a workspace's only two owners leave one owner.
 */
import { describe, expect, it } from 'vitest';
import { MembershipRefused } from '../../src/members/owners.js';
import { removeMembership } from '../../src/members/remove.js';
import { revokeMemberGrants } from '../../src/oauth/store.js';
import { oauthAdapter, recordGrant } from '../../src/oauth/store.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { upsertMember } from '../../src/members/store.js';
import { dialects, useTwoHandles } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`OAuth records consumed on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    it('lets one of two concurrent consumers of a code or refresh token consume it', async () => {
      const { t, other } = handles();
      for (const model of ['AuthorizationCode', 'RefreshToken']) {
        const here = new (oauthAdapter(t.db))(model);
        const there = new (oauthAdapter(other))(model);
        await here.upsert('grant-1', { grantId: 'g1', kind: model }, 600);
        const results = await Promise.all([here.consume('grant-1'), there.consume('grant-1'), here.consume('grant-1'), there.consume('grant-1')]);
        expect(results.filter((r) => r === true)).toHaveLength(1);
        expect((await here.find('grant-1'))?.consumed).toEqual(expect.any(Number));
      }
    });

    it('keeps one grant of a member, assistant and workspace when six consents race', async () => {
      const { t, other } = handles();
      const now = new Date('2026-01-02T00:00:00Z');
      const ws = await t.db.write((trx) => createWorkspace(trx, 'consents', now));
      await upsertMember(t.db.kysely, ws.id, 'eve@example.com', 'member', now);
      const owner = { email: 'eve@example.com', workspace_id: ws.id, client_id: 'assistant-1' };
      await Promise.all([0, 1, 2, 3, 4, 5].map((i) => recordGrant(i % 2 ? other : t.db, `race-${i}`, owner, now)));
      const rows = await t.db.kysely.selectFrom('oauth_grants').select('grant_id').where('workspace_id', '=', ws.id).execute();
      expect(rows).toHaveLength(1);
    });

    it('keeps an owner when both owners of a workspace are removed at once', async () => {
      const { t, other } = handles();
      const now = new Date('2026-01-02T00:00:00Z');
      const ws = await t.db.write((trx) => createWorkspace(trx, 'two owners', now));
      for (const email of ['ann@example.com', 'bo@example.com']) await upsertMember(t.db.kysely, ws.id, email, 'owner', now);
      const results = await Promise.allSettled([
        removeMembership(t.db, { workspaceId: ws.id, email: 'ann@example.com', now }, { revokeAssistantGrants: revokeMemberGrants }),
        removeMembership(other, { workspaceId: ws.id, email: 'bo@example.com', now }, { revokeAssistantGrants: revokeMemberGrants }),
      ]);
      expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      expect(results.filter((r) => r.status === 'rejected' && r.reason instanceof MembershipRefused)).toHaveLength(1);
      const owners = await t.db.kysely.selectFrom('members').select('email').where('workspace_id', '=', ws.id).where('role', '=', 'owner').execute();
      expect(owners).toHaveLength(1);
    });
  });
}
