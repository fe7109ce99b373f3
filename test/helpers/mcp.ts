/** An MCP client of the official SDK, connected over real HTTP to a test server's /api/v1/mcp. */
import { Client, StreamableHTTPClientTransport, type OAuthClientProvider } from '@modelcontextprotocol/client';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator as Sdk1AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';

/**
 * The validator each SDK line checks structured content with by default on Node (its own
 * AjvJsonSchemaValidator, its own Ajv set-up), shared by every client a test process connects,
 * so that each distinct schema is compiled once rather than on every connection's tools/list:
 * compiling the ~70 output schemas was most of a client's CPU (about 0.6 CPU-s a listing), and
 * a suite connects clients by the dozen. Validation is the same engine, options and schemas;
 * a schema that fails to compile is not kept and fails again on its next use, as before.
 */
function compiledOnce<P extends { getValidator(schema: never): unknown }>(inner: P): P {
  const compiled = new Map<string, unknown>();
  return {
    getValidator(schema: never) {
      const key = JSON.stringify(schema);
      let v = compiled.get(key);
      if (v === undefined) {
        v = inner.getValidator(schema);
        compiled.set(key, v);
      }
      return v;
    },
  } as P;
}
const sdk2Validator = compiledOnce(new AjvJsonSchemaValidator());
const sdk1Validator = compiledOnce(new Sdk1AjvJsonSchemaValidator());

export interface McpTestClient {
  client: Client;
  close(): Promise<void>;
}

/** A client calling with an API key (`Authorization: Bearer …`) or through an OAuth provider. */
export async function mcpClient(base: string, auth: { key?: string; provider?: OAuthClientProvider } = {}, fetch?: typeof globalThis.fetch, protocol?: '2026-07-28'): Promise<McpTestClient> {
  // By default the 2.x client speaks the 2025 revisions (initialize, then the calls); pinned, it
  // speaks the current one (server/discover, then calls carrying their own metadata).
  const client = new Client({ name: 'storelens-test', version: '1.0.0' }, { jsonSchemaValidator: sdk2Validator, ...(protocol ? { versionNegotiation: { mode: { pin: protocol } } } : {}) });
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
      const client = new Sdk1Client({ name: 'storelens-test-sdk1', version: '1.0.0' }, { jsonSchemaValidator: sdk1Validator });
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
