/**
 * The MCP endpoint's check of an OAuth access token, at every request: known and unexpired,
 * its grant not revoked, issued for exactly this server's MCP URL (the audience, RFC 8707), and
 * the member still in the workspace. The caller's grants are derived now from the member's
 * current role and the workspace's wallet visibility (members/grants.ts), within what the member
 * consented to: a demoted member has fewer at once, a removed one none (401).
 */
import type { Authenticated } from '../api/auth.js';
import { bearerKey } from '../api/keys.js';
import { ApiProblem } from '../api/problems.js';
import type { Db } from '../db/database.js';
import { walletVisibility, findWorkspace } from '../workspaces/store.js';
import { findAccessToken, grantWorkspaceOf } from './store.js';
import { getMember, memberGrants } from '../members/index.js';

const refused = (detail: string) => new ApiProblem('unauthorized', detail, { 'www-authenticate': 'Bearer realm="storelens", error="invalid_token"' });

/**
 * The member an OAuth access token signs in; undefined when the header carries no such token
 * (none, or a storelens API key: the executor's key authentication answers those).
 */
export async function authenticateAccessToken(db: Db, authorization: string | string[] | undefined, resource: string, at: Date): Promise<Authenticated | undefined> {
  if (typeof authorization !== 'string' || bearerKey(authorization)) return undefined;
  const m = /^Bearer +(\S+) *$/i.exec(authorization);
  if (!m) return undefined;
  const token = await findAccessToken(db.kysely, m[1]!, at);
  const grant = token && typeof token.grantId === 'string' && !(typeof token.exp === 'number' && token.exp * 1000 <= at.getTime()) ? await grantWorkspaceOf(db.kysely, token.grantId, at) : undefined;
  if (!token || !grant) throw refused('The access token is unknown, expired or revoked; sign in again.');
  const audience = Array.isArray(token.aud) ? token.aud : [token.aud];
  if (audience.length !== 1 || audience[0] !== resource) throw refused(`The access token was not issued for ${resource}.`);
  // The grant says which member and workspace (one member may hold grants for several).
  const who = { email: grant.email, workspaceId: grant.workspace_id };
  const [member, workspace] = await Promise.all([getMember(db.kysely, who.workspaceId, who.email), findWorkspace(db.kysely, who.workspaceId)]);
  if (!member || !workspace) throw refused('The member this access token signs in is no longer in the workspace.');
  const consented = new Set(String(token.scope ?? '').split(' '));
  const grants = memberGrants(member.role, await walletVisibility(db.kysely, workspace.id)).filter((s) => consented.has(s));
  const issued = typeof token.iat === 'number' ? new Date(token.iat * 1000).toISOString() : at.toISOString();
  return {
    key: {
      // The delivery records and actors of a signed-in member are theirs across sign-ins; so are the
      // rate limits, per workspace (the executor counts a member's calls in each apart).
      id: `member:${who.email}`,
      workspace_id: workspace.id,
      name: `OAuth sign-in of ${String(token.clientId ?? 'an assistant')}`,
      prefix: '',
      hash: '',
      scopes: grants,
      created_by: who.email,
      created_at: issued,
      revoked_at: null,
      last_used_at: null,
    },
    workspace,
    creatorRole: member.role,
    touchDue: false,
    derivedGrants: true,
    client: grant.client_id,
  };
}
