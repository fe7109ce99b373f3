/**
 * The workspace app, composed once for every process that serves it (`storelens api` through
 * api-app.ts, `serve --api` and `start` on the public port): the REST API under /api/v1 with the
 * MCP endpoint beside its operations, member sign-in and Integrations → API & MCP (web/), and
 * the assistant connector's OAuth authorization server (oauth/). The rooms sit on the platform
 * (api/); only this composition knows all of them.
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { type ApiEndpoint, type ApiOptions, apiPlugin } from '../api/plugin.js';
import { documentedWebhooks, ROUTES } from './modules.js';
import { type McpOptions, registerMcp } from '../mcp/endpoint.js';
import { assistantConnector } from '../oauth/connector.js';
import { oauthPlugin } from '../oauth/plugin.js';
import type { OAuthOptions } from '../oauth/provider.js';
import { webPlugin } from '../web/plugin.js';
import type { RequestMetrics } from '../ops/metrics.js';
import { observeRequests } from './request-log.js';

export const API_PREFIX = '/api/v1';

export interface WorkspaceApiOptions extends Omit<ApiOptions, 'routes'> {
  /** The MCP endpoint at /mcp: statistics resources, allowed browser origins, OAuth metadata. */
  mcp?: McpOptions;
}

export interface WorkspaceAppOptions extends WorkspaceApiOptions {
  /** The assistant connector's OAuth authorization server (on by default; false: API keys only). */
  oauth?: OAuthOptions | false;
  /** Counts every response of the app by operation and status (the process's metrics; none: not counted). */
  metrics?: RequestMetrics;
  /** One log line per request on the server's logger (compose/request-log.ts). */
  requestLog?: boolean;
}

/** The workspace API: the platform's operations and, through the same executor, the MCP endpoint. Register it with `{ prefix: API_PREFIX }`. */
export const workspaceApi: FastifyPluginAsync<WorkspaceApiOptions> = async (app, opts) => {
  const { mcp, ...apiOptions } = opts;
  const mcpEndpoint: ApiEndpoint = (scope, executor, routes) => registerMcp(scope, executor, routes, mcp);
  await apiPlugin(app, { ...apiOptions, routes: ROUTES, webhooks: documentedWebhooks(), endpoints: [...(opts.endpoints ?? []), mcpEndpoint] });
};

/** Registers the workspace app on `app` (its own server's or the public one's), in the order it answers. */
export async function registerWorkspaceApp(app: FastifyInstance, opts: WorkspaceAppOptions): Promise<void> {
  const { oauth: oauthOptions, metrics, requestLog, ...apiOptions } = opts;
  observeRequests(app, { metrics, log: requestLog });
  const now = opts.now ?? (() => new Date());
  // The assistant connector's sign-in; metadata documents on loopback only under the local setting.
  const connector = oauthOptions === false ? undefined : await assistantConnector(opts.db, now, oauthOptions ?? { allowLocal: opts.outbound?.guard.allowLocal });
  const oauth = connector?.oauth;
  // MCP clients find the sign-in from the 401 and present access tokens for the MCP URL.
  if (connector) apiOptions.mcp = { ...apiOptions.mcp, ...connector.mcp };
  await app.register(workspaceApi, { ...apiOptions, prefix: API_PREFIX });
  // Member sign-in and Integrations → API & MCP (and the assistant connector's OAuth pages).
  await app.register(webPlugin, { db: opts.db, now: opts.now, publicUrl: opts.mcp?.publicUrl, oauth });
  if (oauth) await app.register(oauthPlugin, { oauth, publicUrl: opts.mcp?.publicUrl });
}
