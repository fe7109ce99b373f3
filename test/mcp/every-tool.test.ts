/**
 * Every MCP tool, driven through the client libraries assistants ship — `@modelcontextprotocol/sdk`
 * 1.x and `@modelcontextprotocol/client` 2.x, each checking structured content against the tool's
 * output schema as it does by default — over a real socket: each tool once on its success path,
 * then on every error path it can meet (400 bad arguments, 403 a scope lost after the list, 404
 * another workspace's resource or an operation made unavailable, 409 a reused idempotency_key,
 * 422, 429, 503). Each error reaches the assistant as a tool error carrying its problem+json,
 * never as a thrown protocol error.
 *
 * The success walk and the outages run on every database (the answers are built from its rows);
 * the per-tool error matrix, which the executor and the MCP layer decide whatever the database,
 * runs once, on SQLite.
 */
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { SCOPES } from '../../src/api/scopes.js';
import { buildApiApp } from '../../src/compose/api-app.js';
import { ROUTES } from '../../src/compose/modules.js';
import { insertContact } from '../../src/contacts/store.js';
import { newId } from '../../src/db/ids.js';
import { isMutating } from '../../src/api/route-def.js';
import { issueApiKey } from '../../src/members/issue-key.js';
import { upsertMember } from '../../src/members/store.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import { capabilityManifest, type CapabilityManifest } from '../helpers/capability-manifest.js';
import { startApi, workspace, type Harness } from '../helpers/api.js';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { seedAccounts, seedSixtyStores } from '../helpers/accounts.js';
import { adminCli } from '../helpers/cli.js';
import { dialects, freshDb } from '../helpers/db.js';
import { type Assistant, SDKS, type ToolResult } from '../helpers/mcp.js';

const PROBLEM = 'https://storelens.dev/problems/';
const ALL_AVAILABLE = Object.fromEntries(ROUTES.map((r) => [r.operationId, 'available' as const]));

const textOf = (r: ToolResult) => (r.content as { type: string; text: string }[])[0]!.text;

/** A tool error as the assistant reads it: isError, the problem+json as text, no structured content for the output schema to refuse. */
function expectProblem(r: ToolResult, status: number, type?: string): Record<string, unknown> {
  expect(r.isError, textOf(r)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const problem = JSON.parse(textOf(r)) as Record<string, unknown>;
  expect(problem).toMatchObject({ type: expect.stringContaining(PROBLEM), status, title: expect.any(String), detail: expect.any(String) });
  if (type) expect(problem.type).toBe(PROBLEM + type);
  expect(r._meta?.['storelens/status']).toBe(status);
  return problem;
}

/** What the walk made, for later steps' arguments. */
type Made = Record<string, string | number>;
interface Step {
  op: string;
  args: (m: Made) => Record<string, unknown>;
  keep?: (body: any, m: Made) => void;
}

const DAY = 24 * 3600_000;
/** Every operation on its success path, in an order where each finds what it needs. */
const WALK: Step[] = [
  { op: 'list_accounts', args: () => ({ filter: 'all', limit: 100 }), keep: (b) => expect(new Set(b.data.map((r: { model_version: number }) => Math.sign(r.model_version)))).toEqual(new Set([0, 1])) },
  { op: 'get_account', args: () => ({ store_id: 'store-a' }) },
  { op: 'list_account_signals', args: () => ({ store_id: 'store-a' }) },
  { op: 'set_account_status', args: () => ({ store_id: 'store-a', status: 'working', note: 'first call booked' }) },
  { op: 'get_model_insights', args: () => ({}) },
  { op: 'get_profile', args: () => ({}) },
  { op: 'record_outcome', args: () => ({ store_id: 'store-b', action: 'proposal', note: 'sent pricing' }) },
  { op: 'create_deal', args: () => ({ store_id: 'store-a', title: 'Replatform', value: 5000, currency: 'EUR' }), keep: (b, m) => ((m.deal = b.id), (m.dealVersion = b.version)) },
  { op: 'get_deal', args: (m) => ({ id: m.deal }) },
  { op: 'update_deal', args: (m) => ({ id: m.deal, if_match: String(m.dealVersion), value: 6000 }), keep: (b, m) => (m.dealVersion = b.version) },
  { op: 'move_deal_stage', args: (m) => ({ id: m.deal, if_match: String(m.dealVersion), stage: 'proposal' }) },
  { op: 'add_deal_note', args: (m) => ({ id: m.deal, body: 'Budget approved' }) },
  { op: 'list_deal_notes', args: (m) => ({ id: m.deal }) },
  { op: 'list_deal_history', args: (m) => ({ id: m.deal }) },
  { op: 'list_deals', args: () => ({ store_id: 'store-a' }) },
  { op: 'add_contact', args: () => ({ store_id: 'store-a', email: 'ana@store-a.example', name: 'Ana' }), keep: (b, m) => (m.contact = b.id) },
  { op: 'get_contact', args: (m) => ({ id: m.contact }) },
  { op: 'update_contact', args: (m) => ({ id: m.contact, role: 'founder' }) },
  { op: 'find_contacts', args: () => ({ store_id: 'store-a' }) },
  { op: 'discover_contacts', args: () => ({ store_id: 'store-b' }) },
  { op: 'get_managed_watch', args: () => ({}) },
  { op: 'resize_managed_watch', args: () => ({ capacity: 5 }) },
  { op: 'add_watch', args: () => ({ type: 'client', client_name: 'Northwind', store_ids: ['store-a'] }), keep: (b, m) => (m.watch = b.id) },
  { op: 'list_watches', args: () => ({}) },
  { op: 'get_watch', args: (m) => ({ id: m.watch }) },
  { op: 'add_watch_stores', args: (m) => ({ id: m.watch, store_ids: ['store-b'] }) },
  { op: 'list_watch_stores', args: (m) => ({ id: m.watch }) },
  { op: 'remove_watch_store', args: (m) => ({ id: m.watch, store_id: 'store-b' }) },
  { op: 'list_watch_events', args: (m) => ({ id: m.watch }) },
  { op: 'list_watch_receipts', args: (m) => ({ id: m.watch }) },
  { op: 'get_watch_brief', args: (m) => ({ id: m.watch }) },
  { op: 'remove_watch', args: (m) => ({ id: m.watch }) },
  { op: 'cancel_managed_watch', args: () => ({}) },
  { op: 'request_growth_report', args: () => ({ store_id: 'store-a' }), keep: (b, m) => (m.report = b.id) },
  { op: 'list_growth_reports', args: () => ({}) },
  { op: 'get_growth_report', args: (m) => ({ id: m.report }) },
  { op: 'create_outreach_cadence', args: () => ({ name: 'intro', steps: [{ day: 0, name: 'intro email' }, { day: 3, name: 'follow-up' }] }), keep: (b, m) => (m.cadence = b.id) },
  { op: 'list_outreach_cadences', args: () => ({}) },
  { op: 'enroll_outreach', args: (m) => ({ store_id: 'store-a', contact_id: m.contact, cadence_id: m.cadence }), keep: (b, m) => (m.enrollment = b.id) },
  { op: 'list_outreach_enrollments', args: () => ({}) },
  { op: 'get_outreach_enrollment', args: (m) => ({ id: m.enrollment }) },
  { op: 'stop_outreach', args: (m) => ({ id: m.enrollment }) },
  { op: 'get_wallet', args: () => ({}) },
  { op: 'list_wallet_usage', args: () => ({}) },
  { op: 'get_wallet_pricing', args: () => ({}) },
  { op: 'list_wallet_approvals', args: () => ({}) },
  { op: 'get_wallet_rules', args: () => ({}) },
  { op: 'get_supervision', args: () => ({}) },
  { op: 'register_webhook', args: () => ({ url: 'https://hooks.test/storelens', event_types: ['deal.created'] }), keep: (b, m) => (m.webhook = b.id) },
  { op: 'list_webhooks', args: () => ({}) },
  { op: 'get_webhook', args: (m) => ({ id: m.webhook }) },
  { op: 'update_webhook', args: (m) => ({ id: m.webhook, description: 'CRM sync' }) },
  { op: 'test_webhook', args: (m) => ({ id: m.webhook }), keep: (b, m) => (m.delivery = b.delivery_id ?? b.id) },
  { op: 'list_webhook_deliveries', args: (m) => ({ id: m.webhook }), keep: (b, m) => (m.delivery = b.data[0]?.id ?? m.delivery) },
  { op: 'retry_webhook_delivery', args: (m) => ({ id: m.webhook, delivery_id: m.delivery }) },
  { op: 'recover_webhook_events', args: (m) => ({ id: m.webhook, since: new Date(Date.parse(String(m.now)) - DAY).toISOString(), until: String(m.now) }) },
  { op: 'rotate_webhook_secret', args: (m) => ({ id: m.webhook }) },
  { op: 'delete_webhook', args: (m) => ({ id: m.webhook }) },
];

/** Operations the route table publishes without a handler yet: their one answer is 404 operation-unavailable. */
const PLANNED = new Set(ROUTES.filter((r) => !r.handler && !r.plan).map((r) => r.operationId));

it('walks every operation the route table implements', () => {
  const walked = new Set(WALK.map((s) => s.op));
  expect(ROUTES.map((r) => r.operationId).filter((id) => !walked.has(id) && !PLANNED.has(id))).toEqual([]);
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`every MCP tool on ${d.label}`, () => {
    let h: Harness;
    let caps: CapabilityManifest;
    const run = adminCli(() => h.t);

    /** A workspace funded for reports, watches and outreach, with scored and imported accounts; a key of every scope, created by `creator`. */
    async function seeded(creator = 'owner@example.com', prefix = 'store') {
      const ws = await workspace(h.db);
      if (creator !== 'owner@example.com') await upsertMember(h.db.kysely, ws.id, creator, 'admin', new Date());
      expect((await run('wallet', 'credit', ws.name, '500', '--reason', 'tests', '--as', 'owner@example.com')).code).toBe(0);
      // Accounts of every door: ingested stores the model ranks, rows as a refresh writes them, an import.
      await refreshWorkspace(h.db, ws.id, h.clock.now());
      await seedAccounts(h.db, ws.id, [
        { store_id: `${prefix}-a`, score: 0.9, domain: 'a.example' },
        { store_id: `${prefix}-b`, score: 0.8, domain: 'b.example' },
        { store_id: `${prefix}-dnc`, score: 0.7, status: 'do_not_contact' },
      ]);
      await importAccounts(h.db, ws.id, [{ store_id: 'imported-1', score: 0.6, evidence: [{ signal: 'agentic_feature_adopted', detail: 'llms_txt' }] }], new Date());
      const key = (await issueApiKey(h.db, { workspaceId: ws.id, name: 'assistant', scopes: SCOPES, createdBy: creator, now: new Date() })).key;
      return { ws, key };
    }

    beforeAll(async () => {
      caps = capabilityManifest(ALL_AVAILABLE);
      const t = await freshDb(d.name);
      const webhooks = await webhookRuntime(t.db.kysely, { allowLocal: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
      await t.cleanup();
      h = await startApi(d.name, { capabilitiesPath: caps.path, rateLimits: { read: 100_000, write: 100_000, report: 100_000 }, outbound: webhooks });
      await seedSixtyStores(h.db);
    });
    afterAll(async () => {
      await h?.close();
      caps?.remove();
    });

    for (const sdk of SDKS) {
      describe(sdk.name, () => {
        let assistant: Assistant;
        let stranger: Assistant;
        let wsId: string;
        const made: Made = {};
        /** The answer each operation gave on its success path. */
        const answered = new Map<string, ToolResult>();

        beforeAll(async () => {
          const mine = await seeded();
          wsId = mine.ws.id;
          const contact = newId('con');
          const at = new Date().toISOString();
          await h.db.write((trx) => insertContact(trx, { id: contact, workspace_id: wsId, store_id: 'store-dnc', name: null, email: 'dnc@example.com', role: null, source: 'manual', source_detail: null, created_by: 'member:owner@example.com', created_at: at, updated_at: at }));
          made.dncContact = contact;
          made.now = h.clock.now().toISOString();
          assistant = await sdk.connect(h.base, mine.key);
          // Another workspace, whose accounts are other stores.
          stranger = await sdk.connect(h.base, (await seeded('owner@example.com', 'theirs')).key);
          await assistant.listTools();
          await stranger.listTools();
        });
        afterAll(async () => {
          await assistant?.close();
          await stranger?.close();
        });

        it('lists every operation for a key of every scope, each with its output schema', async () => {
          const { tools } = await assistant.listTools();
          expect(tools.map((t) => t.name).sort()).toEqual(ROUTES.map((r) => r.operationId).sort());
        });

        it.each(WALK.map((s) => [s.op, s] as const))('%s answers its success through the client, structured content as the output schema declares', async (_op, step) => {
          const r = await assistant.callTool({ name: step.op, arguments: step.args(made) });
          expect(r.isError, textOf(r)).toBeFalsy();
          const status = r._meta?.['storelens/status'] as number;
          expect(status).toBeGreaterThanOrEqual(200);
          expect(status).toBeLessThan(300);
          const route = ROUTES.find((x) => x.operationId === step.op)!;
          if (!route.alternateContent) expect(r.structuredContent).toEqual(JSON.parse(textOf(r)));
          step.keep?.(JSON.parse(textOf(r)), made);
          answered.set(step.op, r);
        });

        it('answers each create as REST does, 201: a deal, a contact, a watch, a webhook endpoint', async () => {
          for (const op of ['create_deal', 'add_contact', 'add_watch', 'register_webhook']) {
            const r = answered.get(op);
            expect(r, op).toBeDefined();
            expect(r!._meta?.['storelens/status'], op).toBe(201);
          }
        });

        it('shows an imported account in the declared shape', async () => {
          const r = await assistant.callTool({ name: 'get_account', arguments: { store_id: 'imported-1' } });
          expect(r.isError).toBeFalsy();
          expect((r.structuredContent as { evidence: unknown[] }).evidence).toEqual([
            expect.objectContaining({ kind: 'intercept', key: 'imported' }),
            { kind: 'signal', key: 'signal:agentic_feature_adopted', detail: 'Agentic feature adopted: llms_txt', contribution: 0 },
          ]);
        });

        it.each([...PLANNED].map((op) => [op] as const))('%s, published but not built yet, answers a 404 problem', async (op) => {
          expectProblem(await assistant.callTool({ name: op, arguments: {} }), 404, 'operation-unavailable');
        });

        // The error matrix per tool: the executor and the MCP layer decide these answers whatever the
        // database, so it is defined once, on SQLite (not skipped on PostgreSQL: not defined there).
        if (d.name === 'SQLite') {
          it.each(ROUTES.map((r) => [r.operationId] as const))('%s answers an argument it does not declare as a 400 problem', async (op) => {
            const step = WALK.find((s) => s.op === op);
            const r = await assistant.callTool({ name: op, arguments: { ...(step?.args(made) ?? {}), not_an_argument: 'x' } });
            expectProblem(r, 400);
          });

          const withIds = WALK.filter((s) => ROUTES.find((r) => r.operationId === s.op)!.path.includes('{'));
          it.each(withIds.map((s) => [s.op, s] as const))("%s answers another workspace's resource as a 404 problem", async (_op, step) => {
            expectProblem(await stranger.callTool({ name: step.op, arguments: step.args(made) }), 404);
          });

          // An empty id names nothing: the tool's schema takes none (minLength 1), so it is refused as
          // any value the schema refuses, naming the argument, by every tool alike. (REST has no empty
          // path parameter: `/deals/` is another URL, where no operation is: 404.)
          const params = (op: string) => [...ROUTES.find((r) => r.operationId === op)!.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!);
          it.each(withIds.flatMap((s) => params(s.op).map((name) => [s.op, name, s] as const)))('%s answers an empty %s as a 400 problem naming it', async (_op, name, step) => {
            const problem = expectProblem(await assistant.callTool({ name: step.op, arguments: { ...step.args(made), [name]: '' } }), 400, 'invalid-parameters');
            expect(problem.errors).toEqual([expect.objectContaining({ path: name })]);
          });

          const writes = WALK.filter((s) => isMutating(ROUTES.find((r) => r.operationId === s.op)!));
          it.each(writes.map((s) => [s.op, s] as const))('%s answers an idempotency_key reused with other input as a 409 problem', async (_op, step) => {
            const idem = `reused-${step.op}-${Math.random()}`;
            expect((await assistant.callTool({ name: 'record_outcome', arguments: { store_id: 'store-b', action: 'discovery', idempotency_key: idem } })).isError).toBeFalsy();
            expectProblem(await assistant.callTool({ name: step.op, arguments: { ...step.args(made), idempotency_key: idem } }), 409, 'idempotency-key-reused');
          });
        }

        it('answers an account that must not be contacted as a 422 problem', async () => {
          const r = await assistant.callTool({ name: 'enroll_outreach', arguments: { store_id: 'store-dnc', contact_id: made.dncContact, cadence_id: made.cadence } });
          expectProblem(r, 422, 'unprocessable');
        });

        it('answers a tool listed before its key lost the scope as a 403 problem', async () => {
          const { key } = await seeded('admin@example.com');
          const client = await sdk.connect(h.base, key);
          try {
            expect((await client.listTools()).tools.map((t) => t.name)).toContain('register_webhook');
            const ws = await h.db.kysely.selectFrom('api_keys').select('workspace_id').where('created_by', '=', 'admin@example.com').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
            await upsertMember(h.db.kysely, ws.workspace_id, 'admin@example.com', 'member', new Date());
            expectProblem(await client.callTool({ name: 'register_webhook', arguments: { url: 'https://hooks.test/x' } }), 403, 'insufficient-scope');
            expect((await client.listTools()).tools.map((t) => t.name)).not.toContain('register_webhook');
          } finally {
            await client.close();
          }
        });

        it('answers a tool listed before the operation became unavailable as a 404 problem', async () => {
          const { key } = await seeded();
          const client = await sdk.connect(h.base, key);
          try {
            await client.listTools();
            caps.write({ ...ALL_AVAILABLE, list_deals: 'unavailable' });
            expectProblem(await client.callTool({ name: 'list_deals', arguments: {} }), 404, 'operation-unavailable');
          } finally {
            caps.write(ALL_AVAILABLE);
            await client.close();
          }
        });
      });
    }

    describe('limits and outages', () => {
      it('answers a tool of each call kind past its rate limit as a 429 problem with retry-after, through both clients', async () => {
        const { key } = await seeded();
        const strict = await buildApiApp({ db: h.db, now: h.clock.now, capabilitiesPath: caps.path, rateLimits: { read: 1, write: 1, report: 1 }, validateResponses: true });
        await strict.listen({ port: 0, host: '127.0.0.1' });
        const base = `http://127.0.0.1:${(strict.server.address() as AddressInfo).port}/api/v1`;
        try {
          for (const sdk of SDKS) {
            const client = await sdk.connect(base, key);
            await client.listTools();
            // The limit is counted per call kind, before the arguments are read: the first call of a kind is let through (and may answer 400), the next is not.
            for (const route of [...new Map(ROUTES.map((x) => [x.kind, x])).values()]) {
              let r = await client.callTool({ name: route.operationId, arguments: {} });
              if (!r.isError || (JSON.parse(textOf(r)) as { status: number }).status !== 429) r = await client.callTool({ name: route.operationId, arguments: {} });
              expectProblem(r, 429, 'rate-limited');
              expect(r._meta?.['storelens/retry-after']).toBeGreaterThan(0);
            }
            await client.close();
          }
        } finally {
          await strict.close();
        }
      });

      it('answers a tool call whose arguments make a body over 64 KiB as the 413 problem REST answers, through both clients', async () => {
        const { key } = await seeded();
        const outcome = { store_id: 'store-a', action: 'discovery', note: 'x'.repeat(70_000) };
        const rest = await fetch(`${h.base}/outcomes`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': 'too-large' }, body: JSON.stringify(outcome) });
        expect(((await rest.json()) as { type: string }).type).toBe(`${PROBLEM}payload-too-large`);
        for (const sdk of SDKS) {
          const client = await sdk.connect(h.base, key);
          try {
            expectProblem(await client.callTool({ name: 'record_outcome', arguments: outcome }), 413, 'payload-too-large');
          } finally {
            await client.close();
          }
        }
      });

      it('answers a tool call whose database went away as a 503 problem, and fails tools/list rather than listing no tools, through both clients', async () => {
        const t = await freshDb(d.name);
        const ws = await workspace(t.db);
        const { key } = await issueApiKey(t.db, { workspaceId: ws.id, name: 'k', scopes: SCOPES, createdBy: 'owner@example.com', now: new Date() });
        const app = await buildApiApp({ db: t.db, capabilitiesPath: caps.path });
        await app.listen({ port: 0, host: '127.0.0.1' });
        const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
        const clients = await Promise.all(SDKS.map((sdk) => sdk.connect(base, key)));
        try {
          for (const c of clients) await c.listTools();
          await t.db.close();
          for (const c of clients) {
            const r = await c.callTool({ name: 'list_accounts', arguments: {} });
            expectProblem(r, 503, 'service-unavailable');
          }
          // An assistant connecting now cannot be told its tools: the listing fails (and is made
          // again) rather than answering none, which the client would keep for the connection.
          for (const sdk of SDKS) {
            const late = await sdk.connect(base, key);
            clients.push(late);
            await expect(late.listTools()).rejects.toThrow(/temporarily unavailable/);
          }
        } finally {
          for (const c of clients) await c.close().catch(() => {});
          await app.close();
          t.db.close = async () => {};
          await t.cleanup();
        }
      });
    });
  });
}
