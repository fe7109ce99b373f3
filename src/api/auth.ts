/**
 * Bearer authentication: missing, malformed, unknown or revoked keys ⇒ 401 with
 * WWW-Authenticate; so is a key whose creator is no longer a member of its workspace.
 */
import type { Db } from '../db/database.js';
import type { KeyLookup } from './key-cache.js';
import { findKeyByHash, touchApiKey, type KeyWithWorkspace } from './keys-store.js';
import { bearerKey, hashApiKey } from './keys.js';
import { ApiProblem } from './problems.js';

/** last_used_at is written at most this often per key, so reads stay reads. */
const TOUCH_EVERY_MS = 60_000;

const challenge = (error?: string) => ({
  'www-authenticate': error ? `Bearer realm="storelens", error="${error}"` : 'Bearer realm="storelens"',
});

/**
 * The error code of a challenge to an Authorization header that carries no storelens key (RFC 6750
 * §3.1): none for another scheme (Basic …: the client tried a method this server does not take),
 * `invalid_request` for a header given twice or a Bearer without a token, `invalid_token` for a
 * Bearer token that is not a storelens key.
 */
function refusedHeader(authorization: string | string[]): string | undefined {
  if (typeof authorization !== 'string') return 'invalid_request';
  const bearer = /^Bearer(?:$| +(\S*))/i.exec(authorization.trim());
  if (!bearer) return undefined;
  return bearer[1] ? 'invalid_token' : 'invalid_request';
}

export interface Authenticated extends KeyWithWorkspace {
  /** last_used_at is due: record it (the rate limiter does, in the same write as its count). */
  touchDue: boolean;
  /**
   * Set for a member signed in through the assistant connector (OAuth): `key.scopes` are the
   * grants derived from the member's role at this call, and the whole scope rule.
   */
  derivedGrants?: boolean;
  /** With derivedGrants: the assistant (OAuth client id) the member signed in through. */
  client?: string;
}

/** Finds the key (with `find`: default, in the database); writes nothing (see touchDue). */
export async function authenticate(db: Db, authorization: string | string[] | undefined, now: Date, find: KeyLookup = findKeyByHash): Promise<Authenticated> {
  if (authorization === undefined) {
    throw new ApiProblem('unauthorized', 'Send the API key as `Authorization: Bearer <API_KEY>`.', challenge());
  }
  const key = bearerKey(authorization);
  if (!key) throw new ApiProblem('unauthorized', 'The Authorization header is not `Bearer <API_KEY>` with a storelens key.', challenge(refusedHeader(authorization)));
  const found = await find(db.kysely, hashApiKey(key));
  if (!found || found.key.revoked_at !== null) {
    throw new ApiProblem('unauthorized', 'The API key is unknown or revoked.', challenge('invalid_token'));
  }
  if (found.creatorRole === null) {
    throw new ApiProblem('unauthorized', 'The API key stopped working: the member who created it has left the workspace.', challenge('invalid_token'));
  }
  const last = found.key.last_used_at ? Date.parse(found.key.last_used_at) : 0;
  const touchDue = now.getTime() - last >= TOUCH_EVERY_MS || now.getTime() < last;
  // The stamp is on its way (the caller records it): a remembered key (key-cache.ts) is not due again for a minute.
  if (touchDue) found.key.last_used_at = now.toISOString();
  return { ...found, touchDue };
}

/** Records the key's use when due (calls that reach no rate limiter: unknown routes). */
export async function touchIfDue(db: Db, auth: Authenticated, now: Date): Promise<void> {
  if (auth.touchDue) await db.autocommit((q) => touchApiKey(q, auth.key.id, now));
}
