/**
 * The assistant connector in one piece, for every server that mounts the API (`storelens api`,
 * `serve --api`, `npm start`): the authorization server, and what the MCP endpoint needs from it
 * (the 401's metadata link and the access-token check).
 */
import type { Db } from '../db/database.js';
import type { McpOptions } from '../mcp/endpoint.js';
import { resourceMetadataUrlOf } from './plugin.js';
import { type OAuthOptions, type OAuthServer, mcpResourceOf, oauthServer } from './provider.js';
import { authenticateAccessToken } from './tokens.js';

export interface AssistantConnector {
  oauth: OAuthServer;
  /** Merge into the API's McpOptions. */
  mcp: Required<Pick<McpOptions, 'resourceMetadataUrl' | 'accessToken'>>;
}

export async function assistantConnector(db: Db, now: () => Date, opts: OAuthOptions = {}): Promise<AssistantConnector> {
  return {
    oauth: await oauthServer(db, now, opts),
    mcp: {
      resourceMetadataUrl: resourceMetadataUrlOf,
      accessToken: (authorization, origin) => authenticateAccessToken(db, authorization, mcpResourceOf(origin), now()),
    },
  };
}
