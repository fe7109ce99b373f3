/** The public statistics pages as MCP resources on `serve --api`: exactly the published files. */
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiKey, workspace } from '../helpers/api.js';
import { startServeWithApi, type ServeWithApi } from '../helpers/serve-with-api.js';
import { mcpClient, type McpTestClient } from '../helpers/mcp.js';

describe('statistics resources over MCP', () => {
  let s: ServeWithApi;
  let c: McpTestClient;
  let key: string;

  beforeAll(async () => {
    s = await startServeWithApi('mcp-resources', ['2026-01', '2026-02']);
    const ws = await workspace(s.t.db);
    key = await apiKey(s.t.db, ws.id, ['read:accounts']);
    c = await mcpClient(`${s.server.url}/api/v1`, { key });
  });
  afterAll(async () => {
    await c?.close();
    await s?.close();
  });

  it('lists each published page as markdown and its latest JSON document', async () => {
    const { resources } = await c.client.listResources();
    const uris = resources.map((r) => r.uri);
    expect(uris).toContain(`${s.server.url}/data/agentic-commerce.md`);
    expect(uris).toContain(`${s.server.url}/api/data/agentic-commerce`);
    expect(resources.find((r) => r.uri.endsWith('/data/agentic-commerce.md'))?.mimeType).toBe('text/markdown');
  });

  it('advertises resources without list-changed notifications, to both SDK lines (a stateless server sends none)', async () => {
    expect(c.client.getServerCapabilities()?.resources).toEqual({ listChanged: false });
    const sdk1 = new Sdk1Client({ name: 'resources-sdk1', version: '1.0.0' });
    await sdk1.connect(new Sdk1Transport(new URL(`${s.server.url}/api/v1/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
    try {
      expect(sdk1.getServerCapabilities()?.resources).toEqual({ listChanged: false });
    } finally {
      await sdk1.close();
    }
  });

  it('reads a resource as the bytes the public URL serves', async () => {
    for (const uri of [`${s.server.url}/data/agentic-commerce.md`, `${s.server.url}/api/data/agentic-commerce`]) {
      const r = await c.client.readResource({ uri });
      const served = await (await fetch(uri)).text();
      expect((r.contents[0] as { text: string }).text).toBe(served);
    }
  });
});
