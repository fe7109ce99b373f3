/**
 * The assistant connector's sign-in pages, for oidc-provider's interactions
 * (`/oauth/interaction/{uid}`): a member not signed in goes to the sign-in form first (and comes
 * back); a signed-in member sees the consent screen — which assistant asks, for which workspace,
 * and the grants the member's role gives there now — and allows or denies. The session's CSRF
 * token guards the form, as on every other page.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SCOPES, SCOPE_DESCRIPTIONS, type Scope } from '../api/scopes.js';
import type { Db } from '../db/database.js';
import { membershipsOf, type Membership, memberGrants } from '../members/index.js';
import { walletVisibility } from '../workspaces/store.js';
import { OAUTH_PREFIX, accountIdOf, mcpResourceOf, type OAuthServer, recordGrant, storedClientId } from '../oauth/index.js';
import { consentPage, messagePage } from './pages.js';
import { currentSession, sameToken } from './session.js';

type Form = Record<string, string | string[] | undefined>;
type Html = (reply: FastifyReply, status: number, page: (nonce: string) => string, o?: { formAction?: string }) => FastifyReply;

/**
 * The scheme of a native app's redirect URI (`com.example.app:`, RFC 8252 §7.1) as a CSP source,
 * or undefined for the web's own schemes (WEB_SCHEMES) and anything unparsable.
 */
export function appScheme(redirectUri: string): string | undefined {
  let scheme: string;
  try {
    scheme = new URL(redirectUri).protocol;
  } catch {
    return undefined;
  }
  return !WEB_SCHEMES.has(scheme) && /^[a-z][a-z0-9+.-]*:$/.test(scheme) ? scheme : undefined;
}

/** Schemes that are no native app's: the web's own (every page allows http and https) and those a browser runs or reads itself. */
const WEB_SCHEMES = new Set(['http:', 'https:', 'javascript:', 'data:', 'blob:', 'file:', 'filesystem:', 'about:', 'vbscript:']);

const OIDC_SCOPES = new Set(['openid', 'offline_access']);

/** The page for an assistant the authorization server no longer knows (its registration expired). */
const CLIENT_GONE = [
  'Assistant unknown',
  'This assistant is not known here any more: an assistant that registered itself is forgotten when no sign-in with it was allowed within 24 hours of its registration. Nothing was allowed. Start the connection again from the assistant.',
] as const;

export function registerInteractions(app: FastifyInstance, d: { db: Db; now: () => Date; oauth: OAuthServer; originOf: (req: FastifyRequest) => string; html: Html }): void {
  const one = (v: string | string[] | undefined) => (Array.isArray(v) ? v[0] : v);
  const path = (uid: string) => `${OAUTH_PREFIX}/interaction/${encodeURIComponent(uid)}`;

  /** The pending interaction, or an error page when it expired (or belongs to another browser). */
  const pending = async (req: FastifyRequest, reply: FastifyReply) => {
    const provider = d.oauth.providerFor(d.originOf(req));
    try {
      const details = await provider.interactionDetails(req.raw, reply.raw);
      return { provider, details };
    } catch {
      await d.html(reply, 400, (nonce) => messagePage('Sign-in expired', 'This sign-in request expired or was opened in another browser. Start the connection again from the assistant.', nonce));
      return undefined;
    }
  };

  const grantsByWorkspace = async (all: Membership[]) =>
    Promise.all(all.map(async (m) => ({ membership: m, grants: memberGrants(m.role, await walletVisibility(d.db.kysely, m.workspace_id)) })));

  app.get(`${OAUTH_PREFIX}/interaction/:uid`, async (req, reply) => {
    const p = await pending(req, reply);
    if (!p) return reply;
    const s = await currentSession(d.db, req, d.now());
    const all = s ? await membershipsOf(d.db.kysely, s.email) : [];
    if (!s || all.length === 0) return reply.redirect(`/signin?next=${encodeURIComponent(path(p.details.uid))}`, 303);
    const client = await p.provider.Client.find(String(p.details.params.client_id));
    if (!client) return d.html(reply, 400, (nonce) => messagePage(...CLIENT_GONE, nonce));
    const workspaces = await grantsByWorkspace(all);
    const redirectTo = String(p.details.params.redirect_uri ?? '');
    // Allow and Deny both lead, through the authorization server, to the assistant's redirect URI.
    return d.html(
      reply,
      200,
      (nonce) =>
        consentPage({
          nonce,
          csrf: s.csrf,
          email: s.email,
          action: path(p.details.uid),
          client: { id: String(p.details.params.client_id), name: client?.clientName },
          redirectTo,
          workspaces,
          describe: (scope) => SCOPE_DESCRIPTIONS[scope as Scope] ?? scope,
        }),
      { formAction: appScheme(redirectTo) },
    );
  });

  app.post(`${OAUTH_PREFIX}/interaction/:uid`, async (req, reply) => {
    const p = await pending(req, reply);
    if (!p) return reply;
    const s = await currentSession(d.db, req, d.now());
    const form = (req.body ?? {}) as Form;
    if (!s) return reply.redirect(`/signin?next=${encodeURIComponent(path(p.details.uid))}`, 303);
    if (!sameToken(s.csrf, one(form.csrf))) return d.html(reply, 403, (nonce) => messagePage('Form expired', 'The form expired; nothing was allowed. Go back and try again.', nonce));
    if (one(form.decision) !== 'allow') {
      const to = await p.provider.interactionResult(req.raw, reply.raw, { error: 'access_denied', error_description: 'The member declined the sign-in.' }, { mergeWithLastSubmission: false });
      return reply.redirect(to, 303);
    }
    const membership = (await membershipsOf(d.db.kysely, s.email)).find((m) => m.workspace_id === one(form.workspace));
    if (!membership) return d.html(reply, 403, (nonce) => messagePage('Not a member', 'You are not a member of that workspace.', nonce));
    const accountId = accountIdOf(s.email, p.details.session?.accountId);
    const clientId = String(p.details.params.client_id);
    const grant = new p.provider.Grant({ accountId, clientId });
    const requested = String(p.details.params.scope ?? '').split(' ').filter(Boolean);
    // What the member consents to: every storelens scope asked for (none named: all of them);
    // at each call the role in force then decides which of these hold (oauth/tokens.ts).
    const asked = requested.filter((x) => (SCOPES as readonly string[]).includes(x));
    // The authorization server lists both kinds, so it checks both were granted.
    const oidc = [...requested.filter((x) => OIDC_SCOPES.has(x)), ...asked];
    if (oidc.length) grant.addOIDCScope(oidc.join(' '));
    const resources = p.details.params.resource ? [p.details.params.resource].flat() : [mcpResourceOf(d.originOf(req))];
    for (const resource of resources) grant.addResourceScope(String(resource), (asked.length ? asked : SCOPES).join(' '));
    const grantId = await grant.save();
    // The grant is this workspace's: the member's grants elsewhere stay (several at once).
    // A client that registered itself and is deleted meanwhile (its 24 hours up): nothing recorded.
    const recorded = await recordGrant(d.db, grantId, { email: s.email, workspace_id: membership.workspace_id, client_id: clientId }, d.now(), { session: s.tokenHash, storedClient: storedClientId(clientId) });
    if (recorded === 'signed-out') return d.html(reply, 403, (nonce) => messagePage('Signed out', 'You signed out meanwhile; nothing was allowed. Sign in and try again.', nonce));
    if (recorded === 'client-gone') return d.html(reply, 400, (nonce) => messagePage(...CLIENT_GONE, nonce));
    const to = await p.provider.interactionResult(req.raw, reply.raw, { login: { accountId }, consent: { grantId } }, { mergeWithLastSubmission: false });
    return reply.redirect(to, 303);
  });
}
