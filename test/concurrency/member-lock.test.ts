/**
 * Writes that hang on a member, from two database handles at once (two processes), each waiting
 * for the workspace lock a role change, a removal or a sign-out holds: an invite keeps the role a
 * concurrent members add gave; a key is not issued to a member removed meanwhile; a consent is
 * not recorded for a browser session signed out meanwhile.
 */
import type { Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/compose/database.js';
import { issueApiKey, KeyCreatorRefused, KeyManagerRefused } from '../../src/members/issue-key.js';
import { revokeKeyAsMember } from '../../src/members/revoke-key.js';
import { inviteMember } from '../../src/members/invite.js';
import { deleteSession, insertSession } from '../../src/members/store.js';
import { lockRows } from '../../src/db/locks.js';
import { grantWorkspaceOf, recordGrant } from '../../src/oauth/store.js';
import { lockMember } from '../../src/members/owners.js';
import { getMember, removeMember, upsertMember } from '../../src/members/store.js';
import { workspace } from '../helpers/api.js';
import { dialects, useTwoHandles, whileHeld as whileHeldOn } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`an invite racing a role change on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    it('keeps the owner role a concurrent members add gave, however the invite asked for a member', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      // members add, as setMemberRole does it: the workspace lock, then the member written.
      const invite = await whileHeld(
        async (trx) => {
          await lockMember(trx, ws.id, 'kim@example.com');
          await upsertMember(trx, ws.id, 'kim@example.com', 'owner', new Date());
        },
        () => inviteMember(other, { workspaceId: ws.id, email: 'kim@example.com', role: 'member', baseUrl: 'https://app.example.com', now: new Date() }),
      );
      expect(invite.role).toBe('owner');
      expect((await getMember(t.db.kysely, ws.id, 'kim@example.com'))?.role).toBe('owner');
    });

    /** Runs `hold` in a transaction on the first handle and `race` on the other once `hold` has its locks; resolves to `race`'s outcome. */
    const whileHeld = <T>(hold: (trx: Kysely<Database>) => Promise<void>, race: () => Promise<T>): Promise<T> => whileHeldOn(handles().t.db, hold, race);

    it('issues no key to an admin whose removal holds the lock when the key is asked for', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      await upsertMember(t.db.kysely, ws.id, 'ari@example.com', 'admin', new Date());
      const issue = whileHeld(
        async (trx) => {
          await lockMember(trx, ws.id, 'ari@example.com');
          await removeMember(trx, ws.id, 'ari@example.com');
        },
        () => issueApiKey(other, { workspaceId: ws.id, name: 'late', scopes: ['read:accounts'], createdBy: 'ari@example.com', now: new Date(), creatorManages: true }),
      );
      await expect(issue).rejects.toThrow(KeyCreatorRefused);
      expect(await t.db.kysely.selectFrom('api_keys').select('id').where('workspace_id', '=', ws.id).execute()).toEqual([]);
    });

    it('revokes no key for an admin whose removal or demotion holds the lock when the revoke is asked for', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      for (const [email, change] of [
        ['rio@example.com', (trx: Kysely<Database>) => removeMember(trx, ws.id, 'rio@example.com')],
        ['dee@example.com', (trx: Kysely<Database>) => upsertMember(trx, ws.id, 'dee@example.com', 'member', new Date())],
      ] as const) {
        await upsertMember(t.db.kysely, ws.id, email, 'admin', new Date());
        const key = await issueApiKey(t.db, { workspaceId: ws.id, name: `kept from ${email}`, scopes: ['read:accounts'], createdBy: 'owner@example.com', now: new Date() });
        const revoke = whileHeld(
          async (trx) => {
            await lockMember(trx, ws.id, email);
            await change(trx);
          },
          () => revokeKeyAsMember(other, { workspaceId: ws.id, id: key.id, by: email, now: new Date() }),
        );
        await expect(revoke, email).rejects.toThrow(KeyManagerRefused);
        expect(await t.db.kysely.selectFrom('api_keys').select('revoked_at').where('id', '=', key.id).executeTakeFirst(), email).toEqual({ revoked_at: null });
      }
    });

    it('records no consent for a browser session whose sign-out holds the lock when it is recorded', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      await upsertMember(t.db.kysely, ws.id, 'sol@example.com', 'member', new Date());
      const now = new Date();
      await t.db.write((trx) => insertSession(trx, { tokenHash: `session-${ws.id}`, email: 'sol@example.com', csrf: 'c', now, expiresAt: new Date(now.getTime() + 3600_000) }));
      const recorded = whileHeld(
        async (trx) => {
          await lockRows(trx, 'members', { email: 'sol@example.com' });
          await deleteSession(trx, `session-${ws.id}`);
        },
        () => recordGrant(other, `grant-${ws.id}`, { email: 'sol@example.com', workspace_id: ws.id, client_id: 'a' }, now, { session: `session-${ws.id}` }),
      );
      expect(await recorded).toBe('signed-out');
      expect(await grantWorkspaceOf(t.db.kysely, `grant-${ws.id}`, now)).toBeUndefined();
    });
  });
}
