/** An MCP client of the official SDK, connected over real HTTP to a test server's /api/v1/mcp. */
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';

export interface McpTestClient {
  client: Client;
  close(): Promise<void>;
}

/** A client calling with an API key (`Authorization: Bearer …`) or through an OAuth provider. */
export async function mcpClient(base: string, auth: { key?: string; provider?: OAuthClientProvider } = {}): Promise<McpTestClient> {
  const client = new Client({ name: 'storelens-test', version: '1.0.0' });
  const transport = new StreamableHTTPClientTransport(new URL(`${base}/mcp`), {
    ...(auth.key ? { requestInit: { headers: { authorization: `Bearer ${auth.key}` } } } : {}),
    ...(auth.provider ? { authProvider: auth.provider } : {}),
  });
  await client.connect(transport);
  return { client, close: () => client.close() };
}

/** A tool call's answer as JSON: the body of the REST answer (or its problem). */
export function toolJson(r: { content?: unknown; isError?: boolean }): any {
  const content = r.content as { type: string; text: string }[];
  return JSON.parse(content[0]!.text);
}
