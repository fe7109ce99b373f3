/**
 * The assistant connector's OAuth 2.1 authorization server, on oidc-provider (no token logic of
 * our own): authorization code with PKCE S256 (the library knows no other method), refresh
 * tokens rotated on use, revocation, `iss` in authorization responses (RFC 9207), resource
 * indicators (RFC 8707) with the MCP URL as the only resource and the tokens' audience, clients
 * pre-registered (stored like any client), identified by a Client ID Metadata Document, or
 * registered dynamically (older clients). Everything is stored in the api database
 * (oauth/store.ts). The issuer is the server's public origin; without a configured one, each origin
 * a request arrives at gets its own provider (tokens carry that origin's MCP URL as audience).
 */
import { generateKeyPairSync } from 'node:crypto';
import type { default as Provider, Interaction } from 'oidc-provider';
import { SCOPES } from '../api/scopes.js';
import type { Db } from '../compose/database.js';
import { oauthAdapter } from './store.js';
import { getOrCreateSetting } from '../db/settings.js';
import { randomToken } from '../core/tokens.js';
import { getMember } from '../workspaces/store.js';
import { RefusedTarget, checkTarget, systemResolver, type Resolver } from '../webhooks/ssrf.js';
import { loopbackClient } from './loopback-client.js';

/** Where the provider's endpoints live (authorize, token, revocation, registration, jwks, interactions). */
export const OAUTH_PREFIX = '/oauth';
/** The MCP endpoint's path on the server: the one protected resource. */
export const MCP_RESOURCE_PATH = '/api/v1/mcp';

export const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_S = 30 * 24 * 3600;
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

/** The account an OAuth grant acts as: a member of one workspace (`{workspace_id}:{email}`). */
export const accountIdOf = (workspaceId: string, email: string): string => `${workspaceId}:${email}`;
export function parseAccountId(accountId: string): { workspaceId: string; email: string } | undefined {
  const i = accountId.indexOf(':');
  return i > 0 ? { workspaceId: accountId.slice(0, i), email: accountId.slice(i + 1) } : undefined;
}

export const mcpResourceOf = (origin: string): string => `${origin.replace(/\/$/, '')}${MCP_RESOURCE_PATH}`;

export interface OAuthServer {
  /** The provider whose issuer is `origin`. */
  providerFor(origin: string): Provider;
}

export async function oauthServer(db: Db, now: () => Date, opts: OAuthOptions = {}): Promise<OAuthServer> {
  // Loaded when a server mounts the sign-in, not by every module that names its types.
  const { default: OidcProvider, errors } = await import('oidc-provider');
  const jwk = JSON.parse(
    await getOrCreateSetting(db, 'oauth_signing_jwk', () => JSON.stringify({ ...generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ format: 'jwk' }), use: 'sig', alg: 'RS256' })),
  ) as Record<string, unknown>;
  const cookieKey = await getOrCreateSetting(db, 'oauth_cookie_key', randomToken);
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
      // The storelens scopes are the MCP resource's (getResourceServerInfo), not OpenID ones.
      scopes: ['openid', 'offline_access'],
      claims: { openid: ['sub'] },
      responseTypes: ['code'],
      pkce: { required: () => true },
      clientDefaults: { grant_types: ['authorization_code', 'refresh_token'], response_types: ['code'], token_endpoint_auth_method: 'none' },
      features: {
        devInteractions: { enabled: false },
        registration: { enabled: true },
        revocation: { enabled: true },
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
      ttl: { AccessToken: ACCESS_TOKEN_TTL_S, AuthorizationCode: 60, RefreshToken: REFRESH_TOKEN_TTL_S, Grant: REFRESH_TOKEN_TTL_S, Interaction: 3600, Session: 12 * 3600 },
      rotateRefreshToken: true,
      async issueRefreshToken(_ctx: unknown, client: { grantTypeAllowed(t: string): boolean }) {
        return client.grantTypeAllowed('refresh_token');
      },
      interactions: { url: (_ctx: unknown, interaction: Interaction) => `${OAUTH_PREFIX}/interaction/${interaction.uid}` },
      async findAccount(_ctx: unknown, sub: string) {
        const who = parseAccountId(sub);
        // A member who left the workspace is no account: refreshing their grant fails.
        if (!who || !(await getMember(db.kysely, who.workspaceId, who.email))) return undefined;
        return { accountId: sub, claims: async () => ({ sub }) };
      },
      async renderError(ctx: { type: string; body: string }, out: { error: string; error_description?: string }) {
        ctx.type = 'html';
        ctx.body = errorPage(out.error, out.error_description);
      },
    });
    return provider;
  };

  return {
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
