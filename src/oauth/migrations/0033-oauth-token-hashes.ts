/**
 * 0033_oauth_token_hashes: an OAuth record whose id is a credential (an access or refresh token,
 * a code) is kept under the sha256 hex of the id, its payload without the id (`jti`), as
 * oauth/store.ts now writes them; the rows written before are rewritten so, and keep working.
 * The models and the hash are written out here, as they were when this migration shipped.
 */
import { hash } from 'node:crypto';
import type { Kysely, Migration } from 'kysely';

const TOKEN_MODELS = ['AccessToken', 'RefreshToken', 'AuthorizationCode', 'ClientCredentials', 'RegistrationAccessToken', 'InitialAccessToken', 'PushedAuthorizationRequest'];

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const rows = (await db.selectFrom('oauth_records').select(['model', 'id', 'payload']).where('model', 'in', TOKEN_MODELS).execute()) as { model: string; id: string; payload: string }[];
    for (const r of rows) {
      const payload = JSON.parse(r.payload) as Record<string, unknown>;
      delete payload.jti;
      await db
        .updateTable('oauth_records')
        .set({ id: hash('sha256', r.id, 'hex'), payload: JSON.stringify(payload) })
        .where('model', '=', r.model)
        .where('id', '=', r.id)
        .execute();
    }
  },
};
