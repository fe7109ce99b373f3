/**
 * The assistant connector's OAuth storage: every oidc-provider model (sessions, interactions,
 * grants, codes, access and refresh tokens, registered clients) as a JSON payload in
 * `oauth_records`, keyed by model and id, with the columns the library looks records up by
 * (grant, interaction uid, user code) and its expiry. Expired rows are never answered and are
 * swept on writes. Works on SQLite and PostgreSQL alike.
 */
import { type Kysely, sql } from 'kysely';
import type { Db } from '../compose/database.js';
import type { Database } from '../compose/database.js';

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

const SWEEP_EVERY_MS = 60_000;

/** An adapter class for oidc-provider's `adapter` option, storing in `db`; `now` is the clock. */
export function oauthAdapter(db: Db, now: () => Date = () => new Date()): new (model: string) => OAuthAdapter {
  let lastSweep = 0;
  const sweep = async (q: Kysely<Database>) => {
    const at = now().getTime();
    if (at - lastSweep < SWEEP_EVERY_MS) return;
    lastSweep = at;
    await q.deleteFrom('oauth_records').where('expires_ms', '<', at).execute();
  };
  const live = (row: { payload: string; expires_ms: number | string | null; consumed_ms: number | string | null } | undefined): OAuthPayload | undefined => {
    if (!row) return undefined;
    if (row.expires_ms !== null && Number(row.expires_ms) <= now().getTime()) return undefined;
    const payload = JSON.parse(row.payload) as OAuthPayload;
    return row.consumed_ms === null ? payload : { ...payload, consumed: Math.floor(Number(row.consumed_ms) / 1000) };
  };
  const columns = ['payload', 'expires_ms', 'consumed_ms'] as const;

  return class DbOAuthAdapter implements OAuthAdapter {
    constructor(readonly model: string) {}

    async upsert(id: string, payload: OAuthPayload, expiresIn?: number): Promise<void> {
      const row = {
        payload: JSON.stringify(payload),
        grant_id: typeof payload.grantId === 'string' ? payload.grantId : null,
        uid: typeof payload.uid === 'string' ? payload.uid : null,
        user_code: typeof payload.userCode === 'string' ? payload.userCode : null,
        expires_ms: expiresIn ? now().getTime() + expiresIn * 1000 : null,
      };
      await db.write(async (trx) => {
        await trx
          .insertInto('oauth_records')
          .values({ model: this.model, id, ...row, consumed_ms: null })
          .onConflict((oc) => oc.columns(['model', 'id']).doUpdateSet(row))
          .execute();
        await sweep(trx);
      });
    }

    async find(id: string): Promise<OAuthPayload | undefined> {
      return live(await db.kysely.selectFrom('oauth_records').select(columns).where('model', '=', this.model).where('id', '=', id).executeTakeFirst());
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
        trx.updateTable('oauth_records').set({ consumed_ms: now().getTime() }).where('model', '=', this.model).where('id', '=', id).where('consumed_ms', 'is', null).executeTakeFirst(),
      );
      return Number(r.numUpdatedRows) === 1;
    }

    async destroy(id: string): Promise<void> {
      await db.write((trx) => trx.deleteFrom('oauth_records').where('model', '=', this.model).where('id', '=', id).execute());
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await db.write((trx) => trx.deleteFrom('oauth_records').where('model', '=', this.model).where('grant_id', '=', grantId).execute());
    }
  };
}

/** A live access token's payload (null when unknown, expired or revoked). */
export async function findAccessToken(q: Kysely<Database>, token: string, at: Date): Promise<OAuthPayload | undefined> {
  const row = await q.selectFrom('oauth_records').select(['payload', 'expires_ms']).where('model', '=', 'AccessToken').where('id', '=', token).executeTakeFirst();
  if (!row || (row.expires_ms !== null && Number(row.expires_ms) <= at.getTime())) return undefined;
  return JSON.parse(row.payload) as OAuthPayload;
}

/** Whether the grant a token was issued under still exists (revoking a token ends its grant). */
export async function grantExists(q: Kysely<Database>, grantId: string, at: Date): Promise<boolean> {
  const row = await q.selectFrom('oauth_records').select('expires_ms').where('model', '=', 'Grant').where('id', '=', grantId).executeTakeFirst();
  return !!row && (row.expires_ms === null || Number(row.expires_ms) > at.getTime());
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

/** The oidc-provider models that belong to one signed-in account (and carry its accountId). */
const ACCOUNT_MODELS = ['Session', 'Grant', 'AuthorizationCode', 'AccessToken', 'RefreshToken', 'DeviceCode', 'BackchannelAuthenticationRequest'];

/**
 * Revokes everything a member signed in with in one workspace (the account `{workspace}:{email}`,
 * provider.ts accountIdOf, kept apart here so the CLI need not load oidc-provider): its
 * authorization-server sessions, grants, codes, access and refresh tokens, and every record
 * issued under those grants. Run in the caller's transaction (a member's removal); every process
 * sees it at the next request, since tokens are looked up in the database. Resolves to the
 * records removed.
 */
export async function revokeMemberOAuth(q: Kysely<Database>, workspaceId: string, email: string): Promise<number> {
  const accountId = `${workspaceId}:${email}`;
  // The JSON text of the account id, with LIKE's wildcards escaped: a cheap first filter.
  const needle = JSON.stringify(accountId).replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await q
    .selectFrom('oauth_records')
    .select(['model', 'id', 'payload'])
    .where('model', 'in', ACCOUNT_MODELS)
    .where(sql<boolean>`payload like ${`%${needle}%`} escape '\\'`)
    .execute();
  const mine = rows.map((r) => ({ ...r, p: JSON.parse(r.payload) as OAuthPayload })).filter((r) => r.p.accountId === accountId);
  const grants = new Set<string>();
  for (const r of mine) {
    if (r.model === 'Grant') grants.add(r.id);
    if (typeof r.p.grantId === 'string') grants.add(r.p.grantId);
  }
  let removed = 0;
  for (const r of mine) removed += Number((await q.deleteFrom('oauth_records').where('model', '=', r.model).where('id', '=', r.id).executeTakeFirst()).numDeletedRows);
  if (grants.size > 0) {
    const ids = [...grants];
    removed += Number((await q.deleteFrom('oauth_records').where('grant_id', 'in', ids).executeTakeFirst()).numDeletedRows);
    removed += Number((await q.deleteFrom('oauth_records').where('model', '=', 'Grant').where('id', 'in', ids).executeTakeFirst()).numDeletedRows);
  }
  return removed;
}
