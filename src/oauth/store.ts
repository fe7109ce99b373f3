/**
 * The assistant connector's OAuth storage: every oidc-provider model (sessions, interactions,
 * grants, codes, access and refresh tokens, registered clients) as a JSON payload in
 * `oauth_records`, keyed by model and id, with the columns the library looks records up by
 * (grant, interaction uid, user code) and its expiry. Expired rows are never answered and are
 * swept on writes. `oauth_grants` says whose each grant is (member, assistant, workspace).
 * Works on SQLite and PostgreSQL alike.
 *
 * A record whose id is itself a credential (TOKEN_MODELS: an access or refresh token, a code) is
 * kept under the id's sha256, its payload without the id (`jti`): the database, or a backup of it,
 * holds no token anyone could present, as it holds no API key. The id is put back when the
 * record is found by it.
 */
import { type Kysely, sql } from 'kysely';
import type { Database, Db } from '../db/database.js';
import { lockRows } from '../db/locks.js';
import { hashApiKey } from '../api/keys.js';

/** What oidc-provider stores per record (its `AdapterPayload`). */
export type OAuthPayload = Record<string, unknown> & { grantId?: string; uid?: string; userCode?: string; consumed?: unknown };

/** oidc-provider's adapter contract (one instance per model name). */
export interface OAuthAdapter {
  readonly model: string;
  upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void>;
  find(id: string): Promise<OAuthPayload | undefined>;
  findByUid(uid: string): Promise<OAuthPayload | undefined>;
  findByUserCode(userCode: string): Promise<OAuthPayload | undefined>;
  /** Marks the record consumed; false when another request consumed it first (a code or refresh token used twice). */
  consume(id: string): Promise<boolean | void>;
  destroy(id: string): Promise<void>;
  revokeByGrantId(grantId: string): Promise<void>;
}

/**
 * A client that registered itself (RFC 7591) lives this long unless a member signs in with it
 * (recordGrant makes it permanent); then the background loop's `oauth` task (pruneOAuthRecords)
 * deletes it. Pre-registered clients (registerOAuthClient) never expire.
 */
export const UNUSED_CLIENT_TTL_MS = 24 * 3600_000;

/**
 * Deletes every expired record, and the ownership rows of grants gone with them; resolves to how
 * many clients went. A client whose first consent is being recorded meanwhile (recordGrant holds
 * its row) is waited for, and kept; one deleted first refuses that consent.
 */
export async function pruneOAuthRecords(q: Kysely<Database>, at: Date): Promise<{ clients: number }> {
  const clients = await q.deleteFrom('oauth_records').where('model', '=', 'Client').where('expires_ms', '<', at.getTime()).executeTakeFirst();
  await q.deleteFrom('oauth_records').where('expires_ms', '<', at.getTime()).execute();
  await q
    .deleteFrom('oauth_grants')
    .where(({ not, exists, selectFrom }) => not(exists(selectFrom('oauth_records as r').select('r.id').where('r.model', '=', 'Grant').whereRef('r.id', '=', 'oauth_grants.grant_id'))))
    .execute();
  return { clients: Number(clients.numDeletedRows) };
}

/**
 * oidc-provider's models whose id is a bearer secret and which are only ever found by it (so the
 * id can be put back from the request): stored under tokenKey. Grants, sessions, interactions and
 * clients are found by other columns or are not credentials, and keep their ids.
 */
export const TOKEN_MODELS: ReadonlySet<string> = new Set([
  'AccessToken', 'RefreshToken', 'AuthorizationCode', 'ClientCredentials', 'RegistrationAccessToken', 'InitialAccessToken', 'PushedAuthorizationRequest',
]);

/** The stored id of a token: the sha256 hex of its value, as an API key's (api/keys.ts). */
export const tokenKey = hashApiKey;

/** An adapter class for oidc-provider's `adapter` option, storing in `db`; `now` is the clock. */
export function oauthAdapter(db: Db, now: () => Date = () => new Date()): new (model: string) => OAuthAdapter {
  const live = (row: { payload: string; expires_ms: number | string | null; consumed_ms: number | string | null } | undefined): OAuthPayload | undefined => {
    if (!row) return undefined;
    if (row.expires_ms !== null && Number(row.expires_ms) <= now().getTime()) return undefined;
    const payload = JSON.parse(row.payload) as OAuthPayload;
    return row.consumed_ms === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_ms) / 1000) };
  };
  const columns = ['payload', 'expires_ms', 'consumed_ms'] as const;

  return class DbOAuthAdapter implements OAuthAdapter {
    private readonly secret: boolean;
    constructor(readonly model: string) {
      this.secret = TOKEN_MODELS.has(model);
    }

    /** The row id of a record's id. */
    private key(id: string): string {
      return this.secret ? tokenKey(id) : id;
    }

    async upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void> {
      const kept = this.secret ? { ...payload, jti: undefined } : payload;
      const row = {
        payload: JSON.stringify(kept),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        // The library stores a client only when it registers itself: until a sign-in, for a while.
        expires_ms: expiresIn ? now().getTime() + expiresIn * 1000 : this.model === 'Client' ? now().getTime() + UNUSED_CLIENT_TTL_MS : null,
      };
      await db.write((trx) =>
        trx
          .insertInto('oauth_records')
          .values({ model: this.model, id: this.key(id), ...row, consumed_ms: null })
          .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
          .execute(),
      );
    }

    async find(id: string): Promise<OAuthPayload | undefined> {
      const found = live(await db.kysely.selectFrom('oauth_records').select(columns).where('model', '=', this.model).where('id', '=', this.key(id)).executeTakeFirst());
      return found && this.secret ? { ...found, jti: id } : found;
    }

    async findByUid(uid: string): Promise<OAuthPayload | undefined> {
      return live(await db.kysely.selectFrom('oauth_records').select(columns).where('model', '=', this.model).where('uid', '=', uid).executeTakeFirst());
    }

    async findByUserCode(userCode: string): Promise<OAuthPayload | undefined> {
      return live(await db.kysely.selectFrom('oauth_records').select(columns).where('model', '=', this.model).where('user_code', '=', userCode).executeTakeFirst());
    }

    async consume(id: string): Promise<boolean> {
      // Only the first consumer changes the row: oidc-provider reads `consumed` before it consumes,
      // so two requests with one code (on two processes) both pass that read.
      const r = await db.write((trx) =>
        trx.updateTable('oauth_records').set({ consumed_ms: now().getTime() }).where('model', '=', this.model).where('id', '=', this.key(id)).where('consumed_ms', 'is', null).executeTakeFirst(),
      );
      return Number(r.numUpdatedRows) === 1;
    }

    async destroy(id: string): Promise<void> {
      await db.write((trx) => trx.deleteFrom('oauth_records').where('model', '=', this.model).where('id', '=', this.key(id)).execute());
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.write((trx) => trx.deleteFrom('oauth_records').where('model', '=', this.model).where('grant_id', '=', grantId).execute());
    }
  };
}

/** A live access token's payload (null when unknown, expired or revoked). */
export async function findAccessToken(q: Kysely<Database>, token: string, at: Date): Promise<OAuthPayload | undefined> {
  const row = await q.selectFrom('oauth_records').select(['payload', 'expires_ms']).where('model', '=', 'AccessToken').where('id', '=', tokenKey(token)).executeTakeFirst();
  if (!row || (row.expires_ms !== null && Number(row.expires_ms) <= at.getTime())) return undefined;
  return JSON.parse(row.payload) as OAuthPayload;
}

/** Whose a grant is: the member, the assistant and the workspace it acts in. */
export interface GrantOwner {
  email: string;
  workspace_id: string;
  client_id: string;
}

/** What became of a consent: recorded, or refused with nothing kept (its grant revoked). */
export type GrantRecorded =
  | 'recorded'
  /** The consenting browser session had ended (signed out meanwhile). */
  | 'signed-out'
  /** The client, one that registered itself, expired or was deleted (pruneOAuthRecords) meanwhile. */
  | 'client-gone';

/**
 * Records whose a new grant is, and ends the earlier grants of the same member, assistant and
 * workspace (a reconnection replaces them); the member's other grants stay. The membership row
 * is locked first, so two consents of one member at once (on any process) leave one grant, and
 * a removal of the member waits for this one and then revokes the grant (a removal that went
 * first leaves a grant whose tokens the membership check at every call refuses).
 *
 * With `session` (the consenting browser session's token hash), a sign-out that ended it
 * meanwhile leaves the grant revoked: 'signed-out'. With `storedClient` (a client the provider
 * finds in oauth_records only: one that registered itself, or a pre-registered one), the client's
 * row is locked next: a client that registered itself is kept from now on, unless it had
 * expired or the `oauth` task deleted it meanwhile — then the grant is revoked and nothing is
 * kept: 'client-gone'. A prune that comes while this one commits waits for it and keeps the client.
 */
export async function recordGrant(db: Db, grantId: string, owner: GrantOwner, at: Date, opts: { session?: string; storedClient?: boolean } = {}): Promise<GrantRecorded> {
  return db.write(async (trx) => {
    await lockRows(trx, 'members', { workspace_id: owner.workspace_id, email: owner.email });
    if (opts.session !== undefined && !(await trx.selectFrom('member_sessions').select('token_hash').where('token_hash', '=', opts.session).executeTakeFirst())) {
      await revokeGrants(trx, [grantId]);
      return 'signed-out';
    }
    // Before any other oauth row is touched: a prune deleting the client holds its row (and no
    // member's), so this waits for the prune, and the prune never waits for this one's other rows.
    const [client] = await lockRows(trx, 'oauth_records', { model: 'Client', id: owner.client_id });
    if (client ? client.expires_ms !== null && Number(client.expires_ms) <= at.getTime() : opts.storedClient) {
      await revokeGrants(trx, [grantId]);
      return 'client-gone';
    }
    const earlier = (
      await trx.selectFrom('oauth_grants').select('grant_id').where('email', '=', owner.email).where('workspace_id', '=', owner.workspace_id).where('client_id', '=', owner.client_id).execute()
    ).map((r) => r.grant_id);
    await revokeGrants(trx, earlier);
    await trx.insertInto('oauth_grants').values({ grant_id: grantId, ...owner, created_ms: at.getTime() }).execute();
    // A client that registered itself has completed a sign-in: it is kept from now on.
    if (client && client.expires_ms !== null) await trx.updateTable('oauth_records').set({ expires_ms: null }).where('model', '=', 'Client').where('id', '=', owner.client_id).execute();
    return 'recorded';
  });
}

/** Whose a live grant is (undefined when it was revoked, expired or never recorded). */
export async function grantWorkspaceOf(q: Kysely<Database>, grantId: string, at: Date): Promise<GrantOwner | undefined> {
  const row = await q
    .selectFrom('oauth_grants as g')
    .innerJoin('oauth_records as r', (j) => j.onRef('r.id', '=', 'g.grant_id').on('r.model', '=', 'Grant'))
    .select(['g.email', 'g.workspace_id', 'g.client_id', 'r.expires_ms'])
    .where('g.grant_id', '=', grantId)
    .executeTakeFirst();
  if (!row || (row.expires_ms !== null && Number(row.expires_ms) <= at.getTime())) return undefined;
  return { email: row.email, workspace_id: row.workspace_id, client_id: row.client_id };
}

/**
 * Ends every OAuth grant of a member — in one workspace, or in all of them — with their codes,
 * access and refresh tokens: the next call with any of them is a 401, the next refresh
 * `invalid_grant`. For sign-out and a member's removal; joins the caller's transaction.
 */
export async function revokeMemberGrants(q: Kysely<Database>, email: string, workspaceId?: string): Promise<number> {
  let select = q.selectFrom('oauth_grants').select('grant_id').where('email', '=', email);
  if (workspaceId !== undefined) select = select.where('workspace_id', '=', workspaceId);
  const ids = (await select.execute()).map((r) => r.grant_id);
  await revokeGrants(q, ids);
  return ids.length;
}

async function revokeGrants(q: Kysely<Database>, grantIds: string[]): Promise<void> {
  if (grantIds.length === 0) return;
  await q.deleteFrom('oauth_records').where((w) => w.or([w('grant_id', 'in', grantIds), w.and([w('model', '=', 'Grant'), w('id', 'in', grantIds)])])).execute();
  await q.deleteFrom('oauth_grants').where('grant_id', 'in', grantIds).execute();
}

/** A pre-registered client (public, PKCE): stored as oidc-provider reads registered clients. */
export interface OAuthClientRegistration {
  client_id: string;
  client_name?: string;
  redirect_uris: string[];
}

export async function registerOAuthClient(db: Db, c: OAuthClientRegistration, now: Date): Promise<void> {
  const payload = {
    client_id: c.client_id,
    ...(c.client_name ? { client_name: c.client_name } : {}),
    redirect_uris: c.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
    application_type: c.redirect_uris.every((u) => /^https:/.test(u)) ? 'web' : 'native',
    client_id_issued_at: Math.floor(now.getTime() / 1000),
  };
  const row = { payload: JSON.stringify(payload), grant_id: null, uid: null, user_code: null, expires_ms: null };
  await db.write((trx) =>
    trx
      .insertInto('oauth_records')
      .values({ model: 'Client', id: c.client_id, ...row, consumed_ms: null })
      .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
      .execute(),
  );
}
