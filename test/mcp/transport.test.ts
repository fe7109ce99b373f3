/**
 * The MCP endpoint's transport as the client libraries assistants ship see it —
 * `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client` 2.x — over a real socket:
 * what the server advertises it does, and how it answers the HTTP methods it does not serve.
 */
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { AddressInfo } from 'node:net';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApiApp } from '../../src/compose/api-app.js';
import { seedAccounts } from '../helpers/accounts.js';
import { apiKey, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';

const PROBLEM = 'https://storelens.dev/problems/';

/** What the client sent and the server answered, HTTP request by HTTP request. */
interface Exchange {
  method: string;
  status: number;
  contentType: string | null;
  allow: string | null;
  body: string;
}

/** The little of a client both SDK lines share. */
interface Assistant {
  getServerCapabilities(): Record<string, unknown> | undefined;
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<{ isError?: boolean; structuredContent?: unknown }>;
  close(): Promise<void>;
}

interface Recorder {
  /** A fetch that records each exchange (the body read from a clone, so the client still reads it). */
  fetch: typeof fetch;
  seen: Exchange[];
  /** The answer to the client's first GET (the stream it may open once initialized). */
  get: Promise<Exchange>;
}

function recorder(): Recorder {
  const seen: Exchange[] = [];
  let answered!: (e: Exchange) => void;
  const get = new Promise<Exchange>((resolve) => (answered = resolve));
  return {
    seen,
    get,
    fetch: async (input, init) => {
      const res = await fetch(input, init);
      const e = { method: init?.method ?? 'GET', status: res.status, contentType: res.headers.get('content-type'), allow: res.headers.get('allow'), body: res.status >= 400 ? await res.clone().text() : '' };
      seen.push(e);
      if (e.method === 'GET') answered(e);
      return res;
    },
  };
}

const SDKS: { name: string; connect(url: URL, key: string, fetch: typeof globalThis.fetch): Promise<Assistant> }[] = [
  {
    name: '@modelcontextprotocol/sdk 1.x',
    async connect(url, key, fetch) {
      const client = new Sdk1Client({ name: 'transport-sdk1', version: '1.0.0' });
      await client.connect(new Sdk1Transport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } }, fetch }));
      return client as unknown as Assistant;
    },
  },
  {
    name: '@modelcontextprotocol/client 2.x',
    async connect(url, key, fetch) {
      const client = new Client({ name: 'transport-sdk2', version: '1.0.0' });
      await client.connect(new StreamableHTTPClientTransport(url, { requestInit: { headers: { authorization: `Bearer ${key}` } }, fetch }));
      return client as unknown as Assistant;
    },
  },
];

for (const d of dialects) {
  describe.skipIf(d.skip)(`the MCP transport on ${d.label}`, () => {
    let h: Harness;
    let key: string;

    beforeAll(async () => {
      h = await startApi(d.name);
      const ws = await workspace(h.db);
      key = await apiKey(h.db, ws.id, ['read:accounts']);
      await seedAccounts(h.db, ws.id, [{ store_id: 'transport-a', score: 0.9, domain: 'a.example' }]);
    });
    afterAll(async () => {
      // Every request of the suite has been answered. On Node 24 the close then waited, one run in
      // two, for a connection answered 401 or 413 while its 2 MiB body was still arriving, until
      // its keep-alive ran out (72 s, most of this file's time): cut the connections instead.
      h?.app.server.closeAllConnections();
      await h?.close();
    });

    for (const sdk of SDKS) {
      describe(sdk.name, () => {
        let assistant: Assistant;
        const wire = recorder();

        beforeAll(async () => {
          assistant = await sdk.connect(new URL(`${h.base}/mcp`), key, wire.fetch);
        });
        afterAll(async () => {
          await assistant?.close();
        });

        it('advertises tools without list-changed notifications, which a stateless server never sends', () => {
          const caps = assistant.getServerCapabilities();
          expect(caps?.tools).toEqual({ listChanged: false });
          expect(caps?.resources).toBeUndefined();
        });

        it('takes the 405 problem on GET as "no stream" and goes on calling tools', async () => {
          // Once initialized, the client asks for a stream of server messages; there is none.
          const get = await wire.get;
          expect(get).toMatchObject({ status: 405, contentType: expect.stringContaining('application/problem+json'), allow: 'POST' });
          expect(JSON.parse(get.body)).toMatchObject({ type: `${PROBLEM}method-not-allowed`, status: 405 });
          const r = await assistant.callTool({ name: 'get_account', arguments: { store_id: 'transport-a' } });
          expect(r.isError).toBeFalsy();
          expect(r.structuredContent).toMatchObject({ store_id: 'transport-a' });
          expect(wire.seen.filter((e) => e.status >= 400 && e.method !== 'GET')).toEqual([]);
        });
      });
    }

    it('goes on with a conversation on another server (a restart, another process) that never saw it begin, through both clients', async () => {
      const other = await buildApiApp({ db: h.db, now: h.clock.now });
      await other.listen({ port: 0, host: '127.0.0.1' });
      const first = new URL(h.base).origin;
      let origin = first;
      // The URL the client was given, answered by whichever server `origin` names now.
      let elsewhere = 0;
      const routed: typeof fetch = (input, init) => {
        if (origin !== first) elsewhere++;
        return fetch(String(input instanceof Request ? input.url : input).replace(first, origin), init);
      };
      try {
        for (const sdk of SDKS) {
          origin = first;
          const assistant = await sdk.connect(new URL(`${h.base}/mcp`), key, routed);
          expect((await assistant.callTool({ name: 'get_account', arguments: { store_id: 'transport-a' } })).isError).toBeFalsy();
          origin = `http://127.0.0.1:${(other.server.address() as AddressInfo).port}`;
          const r = await assistant.callTool({ name: 'get_account', arguments: { store_id: 'transport-a' } });
          expect(r.isError, sdk.name).toBeFalsy();
          expect(r.structuredContent).toMatchObject({ store_id: 'transport-a' });
          expect(elsewhere, sdk.name).toBeGreaterThan(0);
          await assistant.close();
        }
      } finally {
        await other.close();
      }
    });

    it('answers a 2.x client resuming with a session id it was never given as any other: the header is ignored, and none is issued', async () => {
      const wire = recorder();
      const sessions: (string | null)[] = [];
      const client = new Client({ name: 'transport-resume', version: '1.0.0' });
      const seen: typeof fetch = async (input, init) => {
        const res = await wire.fetch(input, init);
        sessions.push(res.headers.get('mcp-session-id'));
        return res;
      };
      const transport = new StreamableHTTPClientTransport(new URL(`${h.base}/mcp`), { sessionId: 'kept-from-elsewhere', requestInit: { headers: { authorization: `Bearer ${key}` } }, fetch: seen });
      // Given a session id, the client takes the connection as already made: no initialize is sent.
      await client.connect(transport);
      try {
        const r = await client.callTool({ name: 'get_account', arguments: { store_id: 'transport-a' } });
        expect(r.isError).toBeFalsy();
        expect(r.structuredContent).toMatchObject({ store_id: 'transport-a' });
        expect(wire.seen.map((e) => [e.method, e.status])).toEqual([['POST', 200]]);
        expect(sessions).toEqual([null]);
      } finally {
        await client.close();
      }
    });

    it('answers GET, DELETE and every other method but POST with a 405 problem+json and Allow: POST', async () => {
      for (const method of ['GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS']) {
        const r = await fetch(`${h.base}/mcp`, { method, headers: { authorization: `Bearer ${key}`, accept: 'application/json, text/event-stream' } });
        expect(r.status, method).toBe(405);
        expect(r.headers.get('allow')).toBe('POST');
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
        expect(await r.json()).toMatchObject({ type: `${PROBLEM}method-not-allowed`, title: 'Method Not Allowed', status: 405, detail: `${method} is not allowed here; allowed: POST.`, request_id: expect.any(String) });
      }
      const head = await fetch(`${h.base}/mcp`, { method: 'HEAD' });
      expect([head.status, head.headers.get('allow')]).toEqual([405, 'POST']);
    });

    it('knows the caller before reading a message: none is 401 whatever its size, and only a caller gets the 413 of one over 1 MiB', async () => {
      const message = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'list_accounts', arguments: { padding: 'x'.repeat(2 * 1024 * 1024) } } });
      const post = (headers: Record<string, string>) => fetch(`${h.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: message });
      const anonymous = await post({});
      expect(anonymous.status).toBe(401);
      expect(((await anonymous.json()) as { type: string }).type).toBe(`${PROBLEM}unauthorized`);
      const wrong = await post({ authorization: 'Bearer slk_nope_nope' });
      expect(wrong.status).toBe(401);
      await wrong.body?.cancel();
      const known = await post({ authorization: `Bearer ${key}` });
      expect(known.status).toBe(413);
      expect(((await known.json()) as { type: string }).type).toBe(`${PROBLEM}payload-too-large`);
    });
  });
}
