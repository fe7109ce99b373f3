/**
 * OAuth records and memberships changed by two processes at once: an authorization code or a
 * refresh token is consumed by one request only, so two token requests with one code never both
 * get tokens; consents of one member, assistant and workspace at once leave one grant; two
 * removals of a workspace's only two owners leave one owner. A first consent with a client that
 * registered itself, as its 24 hours end, and the `oauth` task deleting it: whichever holds the
 * client's row first wins — the consent is refused with nothing kept, or the client is kept.
 */
import { describe, expect, it } from 'vitest';
import { MembershipRefused } from '../../src/members/owners.js';
import { removeMembership } from '../../src/members/remove.js';
import { GRANT_TTL_S } from '../../src/oauth/provider.js';
import { UNUSED_CLIENT_TTL_MS, grantWorkspaceOf, oauthAdapter, pruneOAuthRecords, recordGrant, registerOAuthClient, revokeMemberGrants } from '../../src/oauth/store.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { upsertMember } from '../../src/members/store.js';
import type { Db } from '../../src/db/database.js';
import { dialects, raceAtCommit, useTwoHandles, whileHeld } from '../helpers/db.js';

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
    describe('a first consent with a self-registered client as the oauth task deletes it', () => {
      const registered = new Date('2026-01-02T00:00:00Z');
      const expires = registered.getTime() + UNUSED_CLIENT_TTL_MS;
      // The member allows a second before the client's 24 hours end; the task runs a second after.
      const consentAt = new Date(expires - 1000);
      const pruneAt = new Date(expires + 1000);

      /** A client that registered itself at `registered`, and the grant oidc-provider saved at the consent, before recording it. */
      const setUp = async (db: Db, name: string) => {
        const ws = await db.write((trx) => createWorkspace(trx, name, registered));
        await upsertMember(db.kysely, ws.id, 'reg@example.com', 'member', registered);
        const clientId = `client-${name}`;
        await new (oauthAdapter(db, () => registered))('Client').upsert(clientId, { client_id: clientId, redirect_uris: ['http://127.0.0.1:9/callback'] });
        await new (oauthAdapter(db, () => consentAt))('Grant').upsert(`grant-${name}`, { accountId: 'reg@example.com', clientId }, GRANT_TTL_S);
        return { grantId: `grant-${name}`, owner: { email: 'reg@example.com', workspace_id: ws.id, client_id: clientId } };
      };
      const client = (db: Db, id: string) => db.kysely.selectFrom('oauth_records').select('expires_ms').where('model', '=', 'Client').where('id', '=', id).executeTakeFirst();
      const kept = async (db: Db, grantId: string) => ({
        owner: await db.kysely.selectFrom('oauth_grants').select('grant_id').where('grant_id', '=', grantId).executeTakeFirst(),
        record: await db.kysely.selectFrom('oauth_records').select('id').where('model', '=', 'Grant').where('id', '=', grantId).executeTakeFirst(),
      });

      it('refuses the consent, keeping no grant, when the task deletes the client while the consent is recorded', async () => {
        const { t, other } = handles();
        const { grantId, owner } = await setUp(t.db, 'pruned-first');
        // The task has deleted the client and not committed yet; the consent waits for the client's row.
        const recorded = await whileHeld(t.db, (trx) => pruneOAuthRecords(trx, pruneAt), () => recordGrant(other, grantId, owner, consentAt, { storedClient: true }));
        expect(recorded).toBe('client-gone');
        expect(await client(t.db, owner.client_id)).toBeUndefined();
        expect(await kept(t.db, grantId)).toEqual({ owner: undefined, record: undefined });
        expect(await grantWorkspaceOf(t.db.kysely, grantId, consentAt)).toBeUndefined();
      });

      it('keeps the client, and the grant, when the consent is recorded first and the task comes while it commits', async () => {
        const { t, other } = handles();
        const { grantId, owner } = await setUp(t.db, 'consent-first');
        const [recorded, pruned] = await raceAtCommit(other, (db) => recordGrant(db, grantId, owner, consentAt, { storedClient: true }), () => t.db.write((trx) => pruneOAuthRecords(trx, pruneAt)));
        expect(recorded).toEqual({ status: 'fulfilled', value: 'recorded' });
        expect(pruned.status).toBe('fulfilled');
        expect(await client(t.db, owner.client_id)).toEqual({ expires_ms: null });
        expect(await grantWorkspaceOf(t.db.kysely, grantId, pruneAt)).toEqual(owner);
        // Kept for good: the next runs leave it too.
        await t.db.write((trx) => pruneOAuthRecords(trx, new Date(pruneAt.getTime() + 30 * UNUSED_CLIENT_TTL_MS)));
        expect(await client(t.db, owner.client_id)).toEqual({ expires_ms: null });
      });

      it('refuses a consent recorded after the client expired, before the task ran, and keeps the client expiring', async () => {
        const { t, other } = handles();
        const { grantId, owner } = await setUp(t.db, 'expired');
        expect(await recordGrant(other, grantId, owner, pruneAt, { storedClient: true })).toBe('client-gone');
        expect(await kept(t.db, grantId)).toEqual({ owner: undefined, record: undefined });
        expect(Number((await client(t.db, owner.client_id))?.expires_ms)).toBe(expires);
        await t.db.write((trx) => pruneOAuthRecords(trx, pruneAt));
        expect(await client(t.db, owner.client_id)).toBeUndefined();
      });

      it('records a consent with a pre-registered client or one found by its metadata document (no expiring row)', async () => {
        const { t, other } = handles();
        const { owner } = await setUp(t.db, 'others');
        await registerOAuthClient(t.db, { client_id: 'desk-assistant', redirect_uris: ['http://127.0.0.1:9/callback'] }, registered);
        expect(await recordGrant(other, 'grant-desk', { ...owner, client_id: 'desk-assistant' }, pruneAt, { storedClient: true })).toBe('recorded');
        const document = 'https://assistant.example/client.json';
        expect(await recordGrant(other, 'grant-document', { ...owner, client_id: document }, pruneAt, { storedClient: false })).toBe('recorded');
        expect(await client(t.db, document)).toBeUndefined();
        expect(await client(t.db, 'desk-assistant')).toEqual({ expires_ms: null });
      });
    });
  });
}
