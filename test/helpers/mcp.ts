/** An MCP client of the official SDK, connected over real HTTP to a test server's /api/v1/mcp. */
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

export interface McpTestClient {
  client: Client;
  close(): Promise<void>;
}

/** A client calling with an API key (`Authorization: Bearer …`) or through an OAuth provider. */
export async function mcpClient(base: string, auth: { key?: string; provider?: OAuthClientProvider } = {}, fetch?: typeof globalThis.fetch, protocol?: '2026-07-28'): Promise<McpTestClient> {
  // By default the 2.x client speaks the 2025 revisions (initialize, then the calls); pinned, it
  // speaks the current one (server/discover, then calls carrying their own metadata).
  const client = new Client({ name: 'storelens-test', version: '1.0.0' }, protocol ? { versionNegotiation: { mode: { pin: protocol } } } : undefined);
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    ...(auth.key ? { requestInit: { headers: { authorization: `Bearer ${auth.key}` } } } : {}),
    ...(auth.provider ? { authProvider: auth.provider } : {}),
    ...(fetch ? { fetch } : {}),
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** A tool call's answer as JSON: the body of the REST answer (or its problem). */
export function toolJson(r: { content?: unknown; isError?: boolean }): any {
  const content = r.content as { type: string; text: string }[];
  return JSON.parse(content[0]!.text);
}

/** A tool call's answer, as both SDK lines give it. */
export type ToolResult = { content?: unknown; structuredContent?: unknown; isError?: boolean; _meta?: Record<string, unknown> };

/** The little of a client both SDK lines share. */
export interface Assistant {
  listTools(): Promise<{ tools: { name: string; outputSchema?: unknown }[] }>;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<ToolResult>;
  close(): Promise<void>;
}

/**
 * The client libraries assistants ship — `@modelcontextprotocol/sdk` 1.x and
 * `@modelcontextprotocol/client` 2.x, the latter on the 2025 revisions (its default) and on the
 * current one — each connecting to `{base}/mcp` with an API key (through
 * `fetch` when given: one that sees or changes what goes over the wire).
 */
export const SDKS: { name: string; connect(base: string, key: string, fetch?: typeof globalThis.fetch): Promise<Assistant> }[] = [
  {
    name: '@modelcontextprotocol/sdk 1.x',
    async connect(base, key, fetch) {
      const client = new Sdk1Client({ name: 'storelens-test-sdk1', version: '1.0.0' });
      await client.connect(new Sdk1Transport(new URL(`${base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } }, ...(fetch ? { fetch } : {}) }));
      return client as unknown as Assistant;
    },
  },
  {
    name: '@modelcontextprotocol/client 2.x',
    async connect(base, key, fetch) {
      return (await mcpClient(base, { key }, fetch)).client as unknown as Assistant;
    },
  },
  {
    name: '@modelcontextprotocol/client 2.x on 2026-07-28',
    async connect(base, key, fetch) {
      return (await mcpClient(base, { key }, fetch, '2026-07-28')).client as unknown as Assistant;
    },
  },
];
