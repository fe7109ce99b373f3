/**
 * Whose an OAuth grant is (oauth_grants): one grant per member, assistant and workspace, a
 * member's revocation in one workspace or all, and the grants made before 0020 (account
 * `{workspace}:{email}`) carried over. Tokens and codes kept only as hashes (and those kept
 * before 0033 rewritten so). Expired records deleted by the `oauth` task.
 */
import { describe, expect, it } from 'vitest';
import { startBackground } from '../../src/compose/background.js';
import { migration } from '../../src/oauth/migrations/0020-oauth-grants.js';
import { migration as hashTokens } from '../../src/oauth/migrations/0033-oauth-token-hashes.js';
import { findAccessToken, grantWorkspaceOf, oauthAdapter, recordGrant, revokeMemberGrants, tokenKey } from '../../src/oauth/store.js';
import { insertSession } from '../../src/members/store.js';
import { dialects, useFreshDb } from '../helpers/db.js';

const at = new Date('2026-01-02T00:00:00Z');

for (const d of dialects) describe.skipIf(d.skip)(`OAuth grants on ${d.label}`, () => {
  const db = useFreshDb(d.name);

  /** A grant as oidc-provider stores it, with a token under it. */
  const grant = async (id: string, accountId: string, clientId: string) => {
    const Adapter = oauthAdapter(db(), () => at);
    await new Adapter('Grant').upsert(id, { accountId, clientId, iat: at.getTime() / 1000 }, 3600);
    await new Adapter('AccessToken').upsert(`at-${id}`, { grantId: id, accountId, clientId }, 3600);
  };
  const live = async (id: string) => (await grantWorkspaceOf(db().kysely, id, at)) !== undefined;
  const tokenOf = async (id: string) => (await db().kysely.selectFrom('oauth_records').select('id').where('id', '=', tokenKey(`at-${id}`)).executeTakeFirst()) !== undefined;
  /** Every stored row of oauth_records as one text: what a reader of the database or a backup sees. */
  const stored = async () => JSON.stringify(await db().kysely.selectFrom('oauth_records').selectAll().execute());

  it('keeps one grant per member, assistant and workspace, and revokes a member in one workspace or all', async () => {
    for (const [id, ws, client] of [['g1', 'wx', 'a'], ['g2', 'wy', 'b'], ['g3', 'wy', 'a']] as const) {
      await grant(id, 'eve@example.com', client);
      await recordGrant(db(), id, { email: 'eve@example.com', workspace_id: ws, client_id: client }, at);
    }
    await grant('o1', 'olf@example.com', 'a');
    await recordGrant(db(), 'o1', { email: 'olf@example.com', workspace_id: 'wx', client_id: 'a' }, at);
    expect(await grantWorkspaceOf(db().kysely, 'g2', at)).toEqual({ email: 'eve@example.com', workspace_id: 'wy', client_id: 'b' });

    // Assistant a connected to wx again: its earlier grant there ends, nothing else.
    await grant('g4', 'eve@example.com', 'a');
    await recordGrant(db(), 'g4', { email: 'eve@example.com', workspace_id: 'wx', client_id: 'a' }, at);
    expect([await live('g1'), await tokenOf('g1'), await live('g2'), await live('g3'), await live('g4')]).toEqual([false, false, true, true, true]);

    expect(await db().write((trx) => revokeMemberGrants(trx, 'eve@example.com', 'wy'))).toBe(2);
    expect([await live('g2'), await tokenOf('g2'), await live('g3'), await live('g4')]).toEqual([false, false, false, true]);
    expect(await db().write((trx) => revokeMemberGrants(trx, 'eve@example.com'))).toBe(1);
    expect([await live('g4'), await tokenOf('g4'), await live('o1'), await tokenOf('o1')]).toEqual([false, false, true, true]);
  });

  it('records a consent only while its browser session lasts: one signed out meanwhile leaves the grant revoked', async () => {
    const now = new Date();
    await db().write((trx) => insertSession(trx, { tokenHash: 'session-live', email: 'sam@example.com', csrf: 'c', now, expiresAt: new Date(now.getTime() + 3600_000) }));
    await grant('s1', 'sam@example.com', 'a');
    expect(await recordGrant(db(), 's1', { email: 'sam@example.com', workspace_id: 'wx', client_id: 'a' }, at, { session: 'session-live' })).toBe('recorded');
    await grant('s2', 'sam@example.com', 'b');
    expect(await recordGrant(db(), 's2', { email: 'sam@example.com', workspace_id: 'wx', client_id: 'b' }, at, { session: 'session-gone' })).toBe('signed-out');
    expect([await live('s1'), await live('s2'), await tokenOf('s2')]).toEqual([true, false, false]);
  });

  it('keeps access and refresh tokens and codes only as hashes, and finds each by its value', async () => {
    const Adapter = oauthAdapter(db(), () => at);
    const secrets = { AccessToken: 'at-secret-Zk3p', RefreshToken: 'rt-secret-Qm8w', AuthorizationCode: 'code-secret-Hv2x' };
    for (const [model, value] of Object.entries(secrets)) await new Adapter(model).upsert(value, { jti: value, grantId: 'gh', kind: model, exp: at.getTime() / 1000 + 3600 }, 3600);
    const rows = await stored();
    for (const value of Object.values(secrets)) expect(rows).not.toContain(value);
    for (const [model, value] of Object.entries(secrets)) {
      expect(await new Adapter(model).find(value)).toMatchObject({ jti: value, grantId: 'gh', kind: model });
      // What the database holds is no token: presented, it finds nothing.
      expect(await new Adapter(model).find(tokenKey(value))).toBeUndefined();
    }
    expect(await findAccessToken(db().kysely, secrets.AccessToken, at)).toMatchObject({ grantId: 'gh' });
    expect(await findAccessToken(db().kysely, tokenKey(secrets.AccessToken), at)).toBeUndefined();
    // A code is consumed once, then destroyed, by its value.
    const codes = new Adapter('AuthorizationCode');
    expect([await codes.consume(secrets.AuthorizationCode), await codes.consume(secrets.AuthorizationCode)]).toEqual([true, false]);
    expect(await codes.find(secrets.AuthorizationCode)).toMatchObject({ consumed: expect.any(Number) });
    await codes.destroy(secrets.AuthorizationCode);
    expect(await codes.find(secrets.AuthorizationCode)).toBeUndefined();
    // A grant is found by its id, which is no credential: kept as it is.
    await new Adapter('Grant').upsert('grant-id-1', { accountId: 'a', clientId: 'c' }, 3600);
    expect(await stored()).toContain('grant-id-1');
  });

  it('rewrites tokens kept before 0033 as hashes, and they keep working', async () => {
    const payload = (jti: string) => JSON.stringify({ jti, grantId: 'gold', kind: 'AccessToken', exp: at.getTime() / 1000 + 3600 });
    const row = (model: string, id: string) => ({ model, id, payload: payload(id), grant_id: 'gold', uid: null, user_code: null, expires_ms: at.getTime() + 3_600_000, consumed_ms: null });
    await db().kysely.insertInto('oauth_records').values([row('AccessToken', 'old-access-Tq9'), row('RefreshToken', 'old-refresh-Lp4'), row('Session', 'old-session-Wx1')]).execute();
    await hashTokens.up(db().kysely);
    const rows = await stored();
    expect(rows).not.toContain('old-access-Tq9');
    expect(rows).not.toContain('old-refresh-Lp4');
    expect(rows).toContain('old-session-Wx1');
    expect(await findAccessToken(db().kysely, 'old-access-Tq9', at)).toMatchObject({ grantId: 'gold' });
    expect(await new (oauthAdapter(db(), () => at))('RefreshToken').find('old-refresh-Lp4')).toMatchObject({ jti: 'old-refresh-Lp4', grantId: 'gold' });
  });

  it('deletes expired records, and the ownership of grants gone with them, in the background loop\'s `oauth` task', async () => {
    let now = at;
    const Adapter = oauthAdapter(db(), () => now);
    await new Adapter('Grant').upsert('brief', { accountId: 'ann@example.com', clientId: 'desk' }, 60);
    await new Adapter('AuthorizationCode').upsert('code-Zx8', { grantId: 'brief' }, 60);
    await new Adapter('Grant').upsert('lasting', { accountId: 'ann@example.com', clientId: 'desk' }, 3600);
    for (const grantId of ['brief', 'lasting']) await db().kysely.insertInto('oauth_grants').values({ grant_id: grantId, email: 'ann@example.com', workspace_id: 'wz', client_id: 'desk', created_ms: at.getTime() }).execute();
    now = new Date(at.getTime() + 120_000);
    await new Adapter('Session').upsert('browser', { accountId: 'ann@example.com' }, 3600);
    // An expired record is dead before it is deleted: never answered.
    expect(await new Adapter('AuthorizationCode').find('code-Zx8')).toBeUndefined();
    const bg = startBackground(db(), { now: () => now, log: () => {}, only: ['oauth'] });
    expect(bg.tasks).toEqual(['oauth']);
    await bg.worker.idle();
    await bg.stop();
    const ids = ['brief', 'lasting', 'browser', tokenKey('code-Zx8')];
    const records = await db().kysely.selectFrom('oauth_records').select(['model', 'id']).where('id', 'in', ids).orderBy('id').execute();
    expect(records).toEqual([{ model: 'Session', id: 'browser' }, { model: 'Grant', id: 'lasting' }]);
    const owned = await db().kysely.selectFrom('oauth_grants').select('grant_id').where('grant_id', 'in', ['brief', 'lasting']).execute();
    expect(owned.map((r) => r.grant_id)).toEqual(['lasting']);
  });

  it('carries over grants made before 0020 from their `{workspace}:{email}` account', async () => {
    await db().kysely.schema.dropTable('oauth_grants').execute();
    const payload = JSON.stringify({ accountId: 'wz:max@example.com', clientId: 'desk', iat: at.getTime() / 1000 });
    await db().kysely.insertInto('oauth_records').values({ model: 'Grant', id: 'old', payload, grant_id: null, uid: null, user_code: null, expires_ms: at.getTime() + 3_600_000, consumed_ms: null }).execute();
    await migration.up(db().kysely);
    expect(await grantWorkspaceOf(db().kysely, 'old', at)).toEqual({ email: 'max@example.com', workspace_id: 'wz', client_id: 'desk' });
  });
});
