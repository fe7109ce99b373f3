/**
 * The MCP endpoint with API keys, through the official SDK client over a real socket: one tool
 * per operation this key may call, each call running the REST checks (scope, availability,
 * rate limit, idempotency, validation, isolation) and answering problems as tool errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Workspace } from '../../src/workspaces/tables.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/client/validators/ajv';
import { ROUTES, routeById } from '../../src/compose/modules.js';
import { callerOf, operationTool } from '../../src/mcp/tools.js';
import type { Authenticated } from '../../src/api/auth.js';
import { issueApiKey } from '../../src/members/issue-key.js';
import { SCOPES } from '../../src/api/scopes.js';
import { upsertMember } from '../../src/members/store.js';
import { mcpClient, toolJson, type McpTestClient } from '../helpers/mcp.js';

const PROBLEM = 'https://storelens.dev/problems/';

it("compiles every tool's output schema with the validator MCP clients check structured content with", () => {
  const validator = new AjvJsonSchemaValidator();
  for (const route of ROUTES) {
    const { outputSchema } = operationTool(route);
    if (outputSchema) expect(() => validator.getValidator(outputSchema), route.operationId).not.toThrow();
  }
});

it("describes each tool in what an assistant can send and read: no REST header it cannot set or see", () => {
  /** Every text of a tool: its description and every description in its input and output schemas. */
  const texts = (v: unknown, out: string[] = []): string[] => {
    if (Array.isArray(v)) for (const x of v) texts(x, out);
    else if (v && typeof v === 'object') for (const [k, x] of Object.entries(v)) k === 'description' && typeof x === 'string' ? out.push(x) : texts(x, out);
    return out;
  };
  // What each argument standing for a header is (`if_match`: "… (the if-match header of the REST call)") is said on purpose.
  const mapping = /\(the [\w-]+ (?:header )?of the REST call\)/g;
  const found: string[] = [];
  for (const route of ROUTES) {
    const tool = operationTool(route);
    for (const text of texts([tool.description, tool.inputSchema, tool.outputSchema].map((x) => (typeof x === 'string' ? { description: x } : x)))) {
      const words = text.replace(mapping, '');
      for (const rest of [/Accept:/, /\bLocation\b/, /\bETag\b/, /If-Match/, /If-None-Match/, /Idempotency-Key/]) {
        if (rest.test(words)) found.push(`${route.operationId}: ${rest.source} in "${text}"`);
      }
    }
  }
  expect(found).toEqual([]);
});

describe('the caller a derived Idempotency-Key belongs to', () => {
  /** A key, or (with `client`) a member signed in through that assistant. */
  const auth = (id: string, createdBy: string, client?: string) =>
    ({ key: { id, workspace_id: 'ws_1', created_by: createdBy, name: client ? `OAuth sign-in of ${client}` : 'test' }, derivedGrants: client !== undefined, client }) as unknown as Authenticated;
  const args = { store_id: 's1', action: 'won' };
  const key = (a: Authenticated) => operationTool(routeById('record_outcome')!).request(args, callerOf(a)).headers['idempotency-key'];

  it('differs between two API keys, even of one creator', () => {
    expect(key(auth('key_a', 'ann@example.com'))).not.toBe(key(auth('key_b', 'ann@example.com')));
  });

  it('differs between two signed-in members, and between two assistants of one member', () => {
    const ann = auth('member:ann@example.com', 'ann@example.com', 'assistant-1');
    const bo = auth('member:bo@example.com', 'bo@example.com', 'assistant-1');
    const annOther = auth('member:ann@example.com', 'ann@example.com', 'assistant-2');
    expect(new Set([key(ann), key(bo), key(annOther)]).size).toBe(3);
  });

  it('is the same for the same caller and arguments, whatever their order', () => {
    const a = auth('key_a', 'ann@example.com');
    const tool = operationTool(routeById('record_outcome')!);
    expect(tool.request({ action: 'won', store_id: 's1' }, callerOf(a)).headers['idempotency-key']).toBe(key(a));
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`MCP tools with API keys on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let other: Workspace;
    let read: string;
    let write: string;
    let otherRead: string;
    const clients: McpTestClient[] = [];
    const connect = async (key: string) => {
      const c = await mcpClient(h.base, { key });
      clients.push(c);
      return c.client;
    };

    beforeAll(async () => {
      h = await startApi(d.name, { operations: { ...WORKING, get_wallet: 'unavailable', register_webhook: 'pilot' }, rateLimits: { read: 1000, write: 20, report: 5 } });
      ws = await workspace(h.db);
      other = await workspace(h.db);
      read = await apiKey(h.db, ws.id, ['read:accounts', 'read:watch']);
      write = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes', 'write:deals']);
      otherRead = await apiKey(h.db, other.id, ['read:accounts']);
      await seedAccounts(h.db, ws.id, [
        { store_id: 'mcp-a', score: 0.9, domain: 'a.example' },
        { store_id: 'mcp-b', score: 0.8, domain: 'b.example' },
      ]);
      await seedAccounts(h.db, other.id, [{ store_id: 'other-only', score: 0.7 }]);
    });

    afterAll(async () => {
      for (const c of clients) await c.close();
      await h?.close();
    });

    it('answers 401 without a key, with a Bearer challenge', async () => {
      const r = await fetch(`${h.base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toMatch(/^Bearer /);
      expect(((await r.json()) as { type: string }).type).toBe(`${PROBLEM}unauthorized`);
    });

    it('refuses a browser Origin that is not this server (DNS rebinding)', async () => {
      const r = await fetch(`${h.base}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', origin: 'https://evil.example', authorization: `Bearer ${read}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
      });
      expect(r.status).toBe(403);
    });

    it('lists one tool per operation the key may call, named by operationId with its route schema', async () => {
      const client = await connect(read);
      const { tools } = await client.listTools();
      const names = tools.map((t) => t.name).sort();
      // read:accounts and read:watch operations that are available; no write, no wallet (unavailable), no webhooks.
      expect(names).toContain('list_accounts');
      expect(names).toContain('get_account');
      expect(names).not.toContain('record_outcome');
      expect(names).not.toContain('get_wallet');
      expect(names).not.toContain('register_webhook');
      const list = tools.find((t) => t.name === 'list_accounts')!;
      expect(list.description).toMatch(/GET \/api\/v1\/accounts/);
      expect(Object.keys(list.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['limit', 'cursor']));
      const get = tools.find((t) => t.name === 'get_account')!;
      expect(get.inputSchema.required).toEqual(['store_id']);
      expect(get.annotations?.readOnlyHint).toBe(true);
    });

    it("gives each tool the operation's response schema as its output schema, as openapi.json documents it", async () => {
      const client = await connect(read);
      const { tools } = await client.listTools();
      const openapi = (await call(h.base, 'GET', '/openapi.json')).body;
      const documented = (path: string, status = '200') => openapi.paths[path].get.responses[status].content['application/json'].schema;
      expect(tools.find((t) => t.name === 'list_accounts')!.outputSchema).toEqual(documented('/accounts'));
      expect(tools.find((t) => t.name === 'get_account')!.outputSchema).toEqual(documented('/accounts/{store_id}'));
      // A brief can also be markdown (format=markdown): text, with no structured content to describe.
      expect(operationTool(routeById('get_watch_brief')!).outputSchema).toBeUndefined();
    });

    it('lists write tools with an idempotency_key argument for a key holding their scopes', async () => {
      const client = await connect(write);
      const { tools } = await client.listTools();
      const outcome = tools.find((t) => t.name === 'record_outcome')!;
      expect(Object.keys(outcome.inputSchema.properties ?? {})).toEqual(expect.arrayContaining(['store_id', 'action', 'idempotency_key']));
      expect(tools.map((t) => t.name)).not.toContain('list_watches');
    });

    it('returns the REST body of a tool call and marks the rows delivered to an agent', async () => {
      const client = await connect(read);
      const r = await client.callTool({ name: 'list_accounts', arguments: { limit: 1 } });
      expect(r.isError).toBeFalsy();
      const body = toolJson(r);
      expect(body.data).toHaveLength(1);
      expect(body.data[0].store_id).toBe('mcp-a');
      expect(body.data[0].delivered_to_agent).toBe(true);
      expect(r.structuredContent).toEqual(body);
      const rest = await call(h.base, 'GET', '/accounts/mcp-a', { key: read });
      expect(rest.body.delivered_to_agent).toBe(true);
    });

    it('answers another workspace\'s account as a 404 problem (isolation)', async () => {
      const client = await connect(read);
      const r = await client.callTool({ name: 'get_account', arguments: { store_id: 'other-only' } });
      expect(r.isError).toBe(true);
      expect(toolJson(r)).toMatchObject({ type: `${PROBLEM}not-found`, status: 404 });
      const theirs = await connect(otherRead);
      const ok = await theirs.callTool({ name: 'get_account', arguments: { store_id: 'other-only' } });
      expect(ok.isError).toBeFalsy();
    });

    it('answers invalid arguments with the same 400 problem as REST', async () => {
      const client = await connect(read);
      const r = await client.callTool({ name: 'list_accounts', arguments: { limit: 'many' } });
      const rest = await call(h.base, 'GET', '/accounts?limit=many', { key: read });
      expect(r.isError).toBe(true);
      // The same problem, each naming the HTTP request that carried it.
      const { request_id: toolRequest, ...problem } = toolJson(r);
      const { request_id: restRequest, ...restProblem } = rest.body;
      expect(problem).toEqual(restProblem);
      expect(toolRequest).toEqual(expect.any(String));
      expect(toolRequest).not.toBe(restRequest);
      expect(rest.status).toBe(400);
    });

    it('replays a write with the same idempotency_key and refuses it with changed input (409)', async () => {
      const client = await connect(write);
      const args = { store_id: 'mcp-a', action: 'qualifying', idempotency_key: 'mcp-outcome-1' };
      const first = await client.callTool({ name: 'record_outcome', arguments: args });
      expect(first.isError).toBeFalsy();
      const again = await client.callTool({ name: 'record_outcome', arguments: args });
      expect(toolJson(again)).toEqual(toolJson(first));
      expect(again._meta?.['storelens/idempotent-replayed']).toBe(true);
      const changed = await client.callTool({ name: 'record_outcome', arguments: { ...args, action: 'proposal' } });
      expect(changed.isError).toBe(true);
      expect(toolJson(changed).type).toBe(`${PROBLEM}idempotency-key-reused`);
      // The same Idempotency-Key over REST is the same request identity.
      const rest = await call(h.base, 'POST', '/outcomes', { key: write, idem: 'mcp-outcome-1', body: { store_id: 'mcp-a', action: 'qualifying' } });
      expect(rest.headers.get('idempotent-replayed')).toBe('true');
      expect(rest.body).toEqual(toolJson(first));
    });

    it('derives the Idempotency-Key from the arguments when none is given, and says in words that a repeat did nothing', async () => {
      const client = await connect(write);
      const args = { store_id: 'mcp-b', action: 'discovery', note: 'derived' };
      const first = await client.callTool({ name: 'record_outcome', arguments: args });
      const again = await client.callTool({ name: 'record_outcome', arguments: args });
      expect(first.isError).toBeFalsy();
      expect(first.content).toHaveLength(1);
      expect(again._meta?.['storelens/idempotent-replayed']).toBe(true);
      // The text an assistant reads: the first answer, then that nothing was done now and how to do it again.
      expect(toolJson(again)).toEqual(toolJson(first));
      expect((again.content as { text: string }[])[1]!.text).toMatch(/^Nothing was done now: .*new idempotency_key/);
    });

    it('takes a numeric idempotency_key as REST would send it, and refuses one of another type (400)', async () => {
      const client = await connect(write);
      const args = { store_id: 'mcp-b', action: 'won', note: 'numeric key' };
      expect((await client.callTool({ name: 'record_outcome', arguments: { ...args, idempotency_key: 777 } })).isError).toBeFalsy();
      const rest = await call(h.base, 'POST', '/outcomes', { key: write, idem: '777', body: args });
      expect(rest.headers.get('idempotent-replayed')).toBe('true');
      const odd = await client.callTool({ name: 'record_outcome', arguments: { ...args, idempotency_key: { k: 1 } } });
      expect(odd.isError).toBe(true);
      expect(toolJson(odd)).toMatchObject({ status: 400 });
      expect(JSON.stringify(toolJson(odd))).toContain('idempotency_key');
    });

    it('refuses an argument named __proto__ as it refuses any other argument the tool does not declare (400)', async () => {
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes']);
      const client = await connect(key);
      /** The arguments with one more, as the JSON of a message carries it (an own member, whatever its name). */
      const plus = (args: Record<string, unknown>, name: string) => ({ ...args, ...(JSON.parse(`{${JSON.stringify(name)}: {"polluted": true}}`) as object) });
      const calls: [string, Record<string, unknown>][] = [
        ['record_outcome', { store_id: 'mcp-a', action: 'discovery', note: 'proto' }],
        ['list_accounts', { limit: 1 }],
        ['get_account', { store_id: 'mcp-a' }],
      ];
      for (const [name, args] of calls) {
        for (const extra of ['bogus', '__proto__']) {
          const r = await client.callTool({ name, arguments: plus(args, extra) });
          expect(r.isError, `${name} with ${extra}`).toBe(true);
          expect(toolJson(r), `${name} with ${extra}`).toMatchObject({ status: 400 });
          expect(JSON.stringify(toolJson(r).errors), `${name} with ${extra}`).toContain(extra);
        }
      }
      // REST refuses the same body member.
      const rest = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: '{"store_id": "mcp-a", "action": "discovery", "__proto__": {"polluted": true}}' });
      expect(rest.status).toBe(400);
      expect((await call(h.base, 'GET', '/accounts?limit=1&__proto__=x', { key })).status).toBe(400);
      expect(await h.db.kysely.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).where('note', '=', 'proto').execute()).toEqual([]);
    });

    it('takes if_match 1, "1" and \'"1"\' as one precondition: a retry that switches form replays, with or without an idempotency_key', async () => {
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
      const client = await connect(key);
      const deal = (await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'mcp-a', title: 'Forms' } })).body;
      const update = (args: Record<string, unknown>) => client.callTool({ name: 'update_deal', arguments: { id: deal.id, ...args } });
      const first = await update({ title: 'Given key', if_match: 1, idempotency_key: 'if-match-forms' });
      expect(first.isError, JSON.stringify(first.content)).toBeFalsy();
      for (const form of ['1', '"1"']) {
        const again = await update({ title: 'Given key', if_match: form, idempotency_key: 'if-match-forms' });
        expect(again._meta?.['storelens/idempotent-replayed'], `${form} ${JSON.stringify(again.content)}`).toBe(true);
        expect(toolJson(again)).toEqual(toolJson(first));
      }
      // A key derived from the arguments: the same call whichever form the version is written in.
      const derived = await update({ title: 'Derived key', if_match: 2 });
      expect(derived.isError, JSON.stringify(derived.content)).toBeFalsy();
      const retried = await update({ title: 'Derived key', if_match: '"2"' });
      expect(retried._meta?.['storelens/idempotent-replayed'], JSON.stringify(retried.content)).toBe(true);
      expect(toolJson(retried)).toEqual(toolJson(derived));
    });

    it('marks as destructive every tool that replaces or ends a state, not only deletions', async () => {
      const client = await connect(await apiKey(h.db, ws.id, [...SCOPES]));
      const hints = Object.fromEntries((await client.listTools()).tools.map((t) => [t.name, t.annotations?.destructiveHint]));
      for (const name of ['delete_webhook', 'update_deal', 'move_deal_stage', 'set_account_status']) expect(hints[name], name).toBe(true);
      // Not listed here (pilot or activation operations), marked all the same.
      for (const op of ['rotate_webhook_secret', 'cancel_managed_watch', 'stop_outreach']) expect(routeById(op)!.destructive, op).toBe(true);
      for (const name of ['create_deal', 'record_outcome', 'add_contact', 'list_accounts']) expect(hints[name], name).toBe(false);
    });

    it('replays a derived key only for the same caller: two members recording the same outcome get two rows', async () => {
      await upsertMember(h.db.kysely, ws.id, 'ann@example.com', 'member', new Date());
      await upsertMember(h.db.kysely, ws.id, 'bo@example.com', 'member', new Date());
      const keyOf = async (email: string) => (await issueApiKey(h.db, { workspaceId: ws.id, name: email, scopes: ['write:outcomes'], createdBy: email, now: new Date() })).key;
      const ann = await connect(await keyOf('ann@example.com'));
      const bo = await connect(await keyOf('bo@example.com'));
      const args = { store_id: 'mcp-b', action: 'proposal', note: 'same words, two people' };
      const count = async () => (await h.db.kysely.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).where('note', '=', args.note).execute()).length;

      const first = await ann.callTool({ name: 'record_outcome', arguments: args });
      const second = await bo.callTool({ name: 'record_outcome', arguments: args });
      expect(first.isError).toBeFalsy();
      expect(second.isError).toBeFalsy();
      expect(second._meta?.['storelens/idempotent-replayed']).toBeUndefined();
      expect(toolJson(second).id).not.toBe(toolJson(first).id);
      expect(await count()).toBe(2);

      // The same caller repeating itself is still a retry.
      const again = await bo.callTool({ name: 'record_outcome', arguments: args });
      expect(again._meta?.['storelens/idempotent-replayed']).toBe(true);
      expect(toolJson(again)).toEqual(toolJson(second));
      expect(await count()).toBe(2);
    });

    it('shares the rate limit of the key with REST: 429 as a tool error with retry_after', async () => {
      h.clock.advance(60_000);
      const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes']);
      const client = await connect(key);
      for (let i = 0; i < 20; i++) {
        const r = await call(h.base, 'POST', '/outcomes', { key, idem: `rl-${i}`, body: { store_id: 'mcp-a', action: 'discovery' } });
        expect(r.status).toBe(200);
      }
      const r = await client.callTool({ name: 'record_outcome', arguments: { store_id: 'mcp-a', action: 'won', idempotency_key: 'rl-mcp' } });
      expect(r.isError).toBe(true);
      expect(toolJson(r)).toMatchObject({ type: `${PROBLEM}rate-limited`, status: 429 });
      expect(r._meta?.['storelens/retry-after']).toBeGreaterThan(0);
    });

    it('stops listing and calling at once when the key is revoked', async () => {
      const key = await apiKey(h.db, ws.id, ['read:accounts']);
      const client = await connect(key);
      expect((await client.callTool({ name: 'list_accounts', arguments: {} })).isError).toBeFalsy();
      await h.db.kysely.updateTable('api_keys').set({ revoked_at: new Date().toISOString() }).where('workspace_id', '=', ws.id).where('name', '=', 'test').execute();
      await expect(client.callTool({ name: 'list_accounts', arguments: {} })).rejects.toThrow(/401|nauthori/);
    });
  });
}
