/**
 * The authorization server on the api server: oidc-provider's own app under /oauth (authorize,
 * token, revocation, registration, jwks), its metadata at the root (RFC 8414
 * /.well-known/oauth-authorization-server, and OpenID discovery), and the MCP endpoint's
 * protected-resource metadata (RFC 9728). The login and consent pages are the web plugin's
 * (web/interactions.ts). Bodies reach oidc-provider unread: it parses them itself.
 */
import type { IncomingMessage } from 'node:http';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SCOPES } from '../api/scopes.js';
import { MCP_RESOURCE_PATH, OAUTH_PREFIX, mcpResourceOf, type OAuthServer } from './provider.js';

export interface OAuthPluginOptions {
  oauth: OAuthServer;
  /** The origin clients reach this server at; default: from each request's Host. */
  publicUrl?: string;
}

/**
 * The request `raw` as if its body had not been read: its stream answers `body` once more. So
 * oidc-provider reads the body as it reads any request's, rather than from `req.body`, which it
 * takes for another parser's work and warns about (a line outside the JSON log).
 */
function unread(raw: IncomingMessage, body: string): IncomingMessage {
  return Object.create(raw, {
    readable: { value: true },
    iterator: {
      value: async function* () {
        if (body !== '') yield Buffer.from(body);
      },
    },
  }) as IncomingMessage;
}

/** oidc-provider's own limit of a request body. */
const BODY_LIMIT = 56 * 1024;

export const PROTECTED_RESOURCE_METADATA = '/.well-known/oauth-protected-resource';
/** Dynamic client registration (RFC 7591) under OAUTH_PREFIX, as oidc-provider's router matches it (any case, trailing slashes). */
const REGISTRATION_PATH = /^\/reg\/*$/i;

/** Where the MCP endpoint's RFC 9728 metadata is (the path of the resource appended, §3.1). */
export const resourceMetadataUrlOf = (origin: string): string => `${origin.replace(/\/$/, '')}${PROTECTED_RESOURCE_METADATA}${MCP_RESOURCE_PATH}`;

export const oauthPlugin: FastifyPluginAsync<OAuthPluginOptions> = async (app, opts) => {
  const originOf = (req: FastifyRequest) => (opts.publicUrl ? opts.publicUrl.replace(/\/$/, '') : `${req.protocol}://${req.host}`);

  // Bodies are read here, whole (a stream left unread for the library to read later could
  // stall), and handed to oidc-provider as a request whose stream still holds them (`unread`).
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string', bodyLimit: BODY_LIMIT }, (_req, body, done) => done(null, body));

  /** Hands the request to the provider of its origin, as if mounted at /oauth. */
  const delegate = (req: FastifyRequest, reply: FastifyReply, path: string) => {
    const raw = unread(req.raw, typeof req.body === 'string' ? req.body : '') as typeof req.raw & { originalUrl?: string };
    const query = req.url.includes('?') ? req.url.slice(req.url.indexOf('?')) : '';
    raw.originalUrl = `${OAUTH_PREFIX}${path}${query}`;
    raw.url = `${path}${query}`;
    const issuer = originOf(req);
    const origin = URL.parse(issuer);
    if (!origin) {
      void reply.code(400).type('application/json').send({ error: 'invalid_request', error_description: 'the Host header is not a host' });
      return;
    }
    const provider = opts.oauth.providerFor(issuer);
    // The provider sees the request at the origin chosen here (the public one, or the request's
    // own as Fastify reads it: X-Forwarded-* only from a trusted proxy) and from the client
    // address Fastify found, never as the client's own headers say: its endpoints' URLs, and
    // its cookies Secure over https.
    provider.proxy = true;
    raw.headers['x-forwarded-proto'] = origin.protocol.slice(0, -1);
    raw.headers['x-forwarded-host'] = origin.host;
    raw.headers['x-forwarded-for'] = req.ip;
    reply.hijack();
    provider.callback()(raw, reply.raw);
  };

  const protectedResource = async (req: FastifyRequest, reply: FastifyReply) => {
    const origin = originOf(req);
    return reply.header('cache-control', 'public, max-age=3600').header('access-control-allow-origin', '*').send({
      resource: mcpResourceOf(origin),
      authorization_servers: [origin],
      scopes_supported: SCOPES,
      bearer_methods_supported: ['header'],
      resource_name: 'storelens workspace (MCP)',
      resource_documentation: `${origin}/api/v1/docs`,
    });
  };
  app.get(PROTECTED_RESOURCE_METADATA, protectedResource);
  app.get(`${PROTECTED_RESOURCE_METADATA}${MCP_RESOURCE_PATH}`, protectedResource);

  for (const path of ['/.well-known/oauth-authorization-server', '/.well-known/openid-configuration']) {
    app.route({ method: ['GET', 'OPTIONS'], url: path, handler: async (req, reply) => delegate(req, reply, '/.well-known/openid-configuration') });
  }
  app.route({
    method: ['GET', 'POST', 'OPTIONS', 'DELETE', 'PUT'],
    url: `${OAUTH_PREFIX}/*`,
    handler: async (req, reply) => {
      const path = req.url.split('?')[0]!.slice(OAUTH_PREFIX.length);
      if (req.method === 'POST' && REGISTRATION_PATH.test(path)) {
        // Registrations are counted per client address before the library stores anything.
        const admission = await opts.oauth.admitRegistration(req.ip);
        if (!admission.admitted) {
          return reply
            .code(429)
            .header('retry-after', String(admission.retryAfterSeconds))
            .header('cache-control', 'no-store')
            .send({ error: 'temporarily_unavailable', error_description: `too many client registrations from this address; try again in ${admission.retryAfterSeconds} seconds` });
        }
      }
      delegate(req, reply, path);
    },
  });
};
