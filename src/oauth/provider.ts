/**
 * The assistant connector's OAuth 2.1 authorization server, on oidc-provider (no token logic of
 * our own): authorization code with PKCE S256 (the library knows no other method), refresh
 * tokens rotated on use, revocation, `iss` in authorization responses (RFC 9207), resource
 * indicators (RFC 8707) with the MCP URL as the only resource and the tokens' audience, clients
 * pre-registered (stored like any client), identified by a Client ID Metadata Document, or
 * registered dynamically (older clients) — public clients only, with the redirect URIs
 * `storelens oauth register` accepts. Everything is stored in the api database (oauth/store.ts).
 *
 * The account a grant acts as is the member (their email); the workspace is the grant's
 * (store.ts's oauth_grants): one member keeps a grant per assistant and workspace, several at once. The issuer is the server's public origin; without a configured one, each origin
 * a request arrives at gets its own provider (tokens carry that origin's MCP URL as audience).
 */
import { generateKeyPairSync } from 'node:crypto';
import type { default as Provider, Interaction } from 'oidc-provider';
import { SCOPES } from '../api/scopes.js';
import type { Db } from '../db/database.js';
import { grantWorkspaceOf, oauthAdapter } from './store.js';
import { serverSecret } from '../db/server-secrets.js';
import { randomToken } from '../core/tokens.js';
import { addressSubject, admitSignIn, membershipsOf, getMember, type Admission } from '../members/index.js';
import { RefusedTarget, checkTarget, systemResolver, type Resolver } from '../outbound/ssrf.js';
import { loopbackClient } from './loopback-client.js';
import { redirectUriProblem } from './redirect-uris.js';

/** Where the provider's endpoints live (authorize, token, revocation, registration, jwks, interactions). */
export const OAUTH_PREFIX = '/oauth';
/** The MCP endpoint's path on the server: the one protected resource. */
export const MCP_RESOURCE_PATH = '/api/v1/mcp';

export const ACCESS_TOKEN_TTL_S = 3600;
/** A refresh token unused this long expires: each refresh gives the connection this long again … */
export const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
/** … up to this long after the member's sign-in (the grant's life); then they sign in again. */
export const GRANT_TTL_S = 90 * 24 * 3600;
const MAX_PROVIDERS = 8;

export interface OAuthOptions {
  /**
   * Local development and tests (the webhooks' setting): Client ID Metadata Documents may also
   * be http URLs on loopback addresses.
   */
  allowLocal?: boolean;
  /** Name → addresses for the SSRF guard of metadata-document fetches (tests inject one). */
  resolve?: Resolver;
}

/**
 * The account an OAuth session and its grants act as: the member, by email, whatever the workspace
 * (grants made before 0020 name `{workspace_id}:{email}`; their workspace is recorded too).
 */
export const accountIdOf = (email: string, sessionAccountId?: string): string =>
  // A browser signed in before 0020 keeps its account id: a new one would log its session out.
  sessionAccountId && emailOfAccount(sessionAccountId) === email ? sessionAccountId : email;
const emailOfAccount = (accountId: string): string => accountId.slice(accountId.indexOf(':') + 1);

/** What the provider's policy functions read of a client. */
interface OidcClient {
  clientId: string;
  clientAuthMethod: string;
  redirectUris: string[];
}

/**
 * Whether the provider finds client `id` in oauth_records only (a client that registered itself,
 * or a pre-registered one): any id but an http(s) URL, which may name a Client ID Metadata
 * Document (https; http on a loopback address for local development), found by fetching it.
 */
export const storedClientId = (id: string): boolean => !/^https?:\/\//i.test(id);

export const mcpResourceOf = (origin: string): string => `${origin.replace(/\/$/, '')}${MCP_RESOURCE_PATH}`;

export interface OAuthServer {
  /** The provider whose issuer is `origin`. */
  providerFor(origin: string): Provider;
  /**
   * Counts a client registration (RFC 7591) from `address` (the client address, by its /64 for
   * IPv6), or refuses it while the address is locked: the sign-in throttle's rule, with
   * SIGNIN_THROTTLE.free.registration before the first lock (members/signin-throttle.ts).
   */
  admitRegistration(address: string): Promise<Admission>;
}

export async function oauthServer(db: Db, now: () => Date, opts: OAuthOptions = {}): Promise<OAuthServer> {
  // Loaded when a server mounts the sign-in, not by every module that names its types.
  const { default: OidcProvider, errors } = await import('oidc-provider');
  const jwk = JSON.parse(
    await serverSecret(db.kysely, 'oauth_signing_jwk', () => JSON.stringify({ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' })),
  ) as Record<string, unknown>;
  const cookieKey = await serverSecret(db.kysely, 'oauth_cookie_key', randomToken);
  const Adapter = oauthAdapter(db, now);
  const guard = { resolve: opts.resolve ?? systemResolver, allowLocal: opts.allowLocal ?? false };
  const providers = new Map<string, Provider>();

  const build = (origin: string): Provider => {
    const resource = mcpResourceOf(origin);
    const provider = new OidcProvider(origin, {
      adapter: class extends Adapter {
        constructor(model: string) {
          super(model);
        }
        override async find(id: string) {
          const found = await super.find(id);
          // A loopback metadata document (local development only; the library fetches https ones).
          if (!found && this.model === 'Client' && guard.allowLocal) return loopbackClient(id, guard);
          return found;
        }
        override async consume(id: string) {
          // A code or refresh token consumed meanwhile by another request: this one gets no tokens.
          if (!(await super.consume(id))) throw new errors.InvalidGrant!('grant request is invalid');
          return true;
        }
      },
      jwks: { keys: [jwk] },
      cookies: { keys: [cookieKey] },
      // The MCP resource's scopes (getResourceServerInfo) are listed too: clients register with
      // them and ask for them. What a token may do is still the member's role at each call.
      scopes: ['openid', 'offline_access', ...SCOPES],
      claims: { openid: ['sub'] },
      responseTypes: ['code'],
      pkce: { required: () => true },
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      // Every client, however it came (registration, metadata document, pre-registered): these
      // standard properties are checked here too, with the whole metadata at hand.
      extraClientMetadata: {
        properties: ['redirect_uris', 'token_endpoint_auth_method'],
        validator(ctx: { oidc?: { route?: string } } | undefined, key: string, value: unknown) {
          if (key === 'redirect_uris') {
            for (const uri of Array.isArray(value) ? value : []) {
              const problem = typeof uri === 'string' ? redirectUriProblem(uri) : 'a redirect URI must be a string';
              if (problem) throw new errors.InvalidRedirectUri!(`redirect_uris: ${problem}`);
            }
          }
          // Assistants are public clients: registration issues no secrets.
          const registering = ctx?.oidc?.route === 'registration';
          if (key === 'token_endpoint_auth_method' && ((registering && value !== 'none') || (typeof value === 'string' && value.startsWith('client_secret')))) {
            throw new errors.InvalidClientMetadata!('token_endpoint_auth_method: only public clients (none) may register; assistants use PKCE, not secrets');
          }
        },
      },
      // Every authorization asks the member (the consent screen names the workspace): the grant a
      // client already holds in this browser is never reused for a new connection.
      loadExistingGrant(ctx: { oidc: { result?: { consent?: { grantId?: string } }; provider: Provider } }) {
        const grantId = ctx.oidc.result?.consent?.grantId;
        return grantId ? ctx.oidc.provider.Grant.find(grantId) : undefined;
      },
      features: {
        devInteractions: { enabled: false },
        // No RP-initiated logout: assistants end a connection by revoking their tokens, members by
        // Sign out. Its default pages (unstyled, with no CSP, and a notice on stdout when first
        // shown) would answer anyone who opens /oauth/session/end.
        rpInitiatedLogout: { enabled: false },
        // No registration access token: nothing here reads or updates a registration after it
        // (each token would be one more row kept for ever).
        registration: { enabled: true, issueRegistrationAccessToken: false },
        // The library's own rule, said here (its default prints a notice on stdout when first
        // used): a client revokes only its own tokens; another's is left alone, answered 200 to a
        // public client as RFC 7009 says, refused to a confidential one.
        revocation: {
          enabled: true,
          async allowedPolicy(_ctx: unknown, client: OidcClient, token: { clientId?: string }) {
            if (token.clientId === client.clientId) return true;
            if (client.clientAuthMethod === 'none') return false;
            throw new errors.InvalidRequest!('client is not authorized to revoke the presented token');
          },
        },
        clientIdMetadataDocument: {
          enabled: true,
          ack: 'draft-02',
          async allowFetch(_ctx: unknown, clientId: string) {
            try {
              await checkTarget(clientId, guard);
              return true;
            } catch (e) {
              if (e instanceof RefusedTarget) return false;
              throw e;
            }
          },
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          async getResourceServerInfo(_ctx: unknown, wanted: string) {
            if (wanted !== resource) throw new errors.InvalidTarget!(`the only resource here is ${resource}`);
            return { scope: SCOPES.join(' '), audience: resource, accessTokenFormat: 'opaque', accessTokenTTL: ACCESS_TOKEN_TTL_S };
          },
        },
      },
      // Every lifetime the library would otherwise take from a default, with a notice on stdout.
      // A refresh token lives REFRESH_TOKEN_TTL_S, never past its grant, which ends GRANT_TTL_S
      // after the sign-in (the grant is not saved again on refresh, so its expiry stays put).
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL_S,
        AuthorizationCode: 60,
        IdToken: 3600,
        RefreshToken: (ctx: { oidc?: { entities?: { Grant?: { exp?: number } } } } | undefined) => {
          const grantEnds = ctx?.oidc?.entities?.Grant?.exp;
          // The library's clock, as the grant's exp is.
          return grantEnds === undefined ? REFRESH_TOKEN_TTL_S : Math.max(1, Math.min(REFRESH_TOKEN_TTL_S, grantEnds - Math.floor(Date.now() / 1000)));
        },
        Grant: GRANT_TTL_S,
        Interaction: 3600,
        Session: 12 * 3600,
      },
      // The library's own rule, said here (its default prints a notice on stdout): a browser app
      // (a public client) calls the token, revocation and registration endpoints from the origin
      // of one of its redirect URIs; a confidential client never from a browser.
      clientBasedCORS(ctx: { oidc: { route?: string } }, origin: string, client: OidcClient) {
        if (origin === 'null') return false;
        if (ctx.oidc.route === 'userinfo' || client.clientAuthMethod === 'none') return client.redirectUris.some((uri) => URL.parse(uri)?.origin === origin);
        return false;
      },
      rotateRefreshToken: true,
      async issueRefreshToken(_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) {
        return client.grantTypeAllowed('refresh_token');
      },
      interactions: { url: (_ctx: unknown, interaction: Interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
      async findAccount(_ctx: unknown, sub: string, token?: { grantId?: string }) {
        const account = { accountId: sub, claims: async () => ({ sub }) };
        if (token?.grantId) {
          // A code or refresh token: its grant's member must still be in its workspace.
          const grant = await grantWorkspaceOf(db.kysely, token.grantId, now());
          return grant && (await getMember(db.kysely, grant.workspace_id, grant.email)) ? account : undefined;
        }
        return (await membershipsOf(db.kysely, emailOfAccount(sub))).length > 0 ? account : undefined;
      },
      async renderError(ctx: { type: string; body: string; set(name: string, value: string): void }, out: { error: string; error_description?: string }) {
        ctx.type = 'html';
        // Text only: nothing may load, run or frame it.
        ctx.set('content-security-policy', "default-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'");
        ctx.body = errorPage(out.error, out.error_description);
      },
    });
    return provider;
  };

  return {
    admitRegistration: (address) => admitSignIn(db, [{ kind: 'registration', name: addressSubject(address).name }], now().getTime()),
    providerFor(origin) {
      const key = origin.replace(/\/$/, '');
      let p = providers.get(key);
      if (!p) {
        p = build(key);
        if (providers.size >= MAX_PROVIDERS) providers.delete(providers.keys().next().value!);
        providers.set(key, p);
      }
      return p;
    },
  };
}

function errorPage(error: string, description?: string): string {
  const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in error · storelens</title></head><body><main><h1>The assistant's sign-in failed</h1><p><code>${esc(error)}</code>${description ? `: ${esc(description)}` : ''}</p><p>Start the connection again from the assistant.</p></main></body></html>`;
}
