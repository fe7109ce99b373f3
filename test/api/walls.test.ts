/**
 * The walls between workspaces, walked over every operation openapi.json publishes: a caller of
 * workspace A naming an object of workspace B (in the path, the query or the body) is answered
 * exactly as when naming an object nobody has — the same status, the same problem, the same
 * header names, the same body but for the id itself — and B's objects are left as they were.
 * Every answer A gets, on every operation, carries none of B's ids, names, stores or URLs; and
 * every operation refuses a key of A that lacks its scope.
 *
 * Each such call is made over REST and as the MCP tool call of the same operation.
 *
 * The table below names, for each operation, how to call it and which of its arguments name a
 * workspace's object; an operation added to the route table without an entry fails the first test.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importAccounts } from '../../src/accounts/store.js';
import { SCOPES } from '../../src/api/scopes.js';
import { ROUTES } from '../../src/compose/modules.js';
import { operationTools } from '../../src/mcp/tools.js';
import { newId } from '../../src/db/ids.js';
import { issueApiKey } from '../../src/members/issue-key.js';
import { credit } from '../../src/wallet/billing.js';
import { webhookRuntime } from '../../src/webhooks/runtime.js';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { seedAccounts, seedSixtyStores } from '../helpers/accounts.js';
import { capabilityManifest, type CapabilityManifest } from '../helpers/capability-manifest.js';
import { call, type CallResult, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects, freshDb } from '../helpers/db.js';

const ALL_AVAILABLE = Object.fromEntries(ROUTES.map((r) => [r.operationId, 'available' as const]));
const DAY = 24 * 3600_000;

/** What a workspace made, by name: the ids its calls name. */
type Made = Record<string, string>;

interface Call {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}

interface Entry {
  /** How A calls the operation on its own objects (`m`: what A made). */
  call: (m: Made) => Call;
  /** The names in Made whose value, given B's instead of A's, names B's object. */
  refs: string[];
}

/** Every operation: its call on A's own objects, and the arguments that name an object. */
const TABLE: Record<string, Entry> = {
  list_accounts: { call: () => ({ query: { filter: 'all', limit: '100' } }), refs: [] },
  get_account: { call: (m) => ({ params: { store_id: m.store } }), refs: ['store'] },
  list_account_signals: { call: (m) => ({ params: { store_id: m.store } }), refs: ['store'] },
  set_account_status: { call: (m) => ({ params: { store_id: m.store }, body: { status: 'working', note: 'call booked' } }), refs: ['store'] },
  get_model_insights: { call: () => ({}), refs: [] },
  get_current_list: { call: () => ({}), refs: [] },
  get_profile: { call: () => ({}), refs: [] },
  record_outcome: { call: (m) => ({ body: { store_id: m.store, action: 'proposal' } }), refs: [] },
  list_deals: { call: (m) => ({ query: { store_id: m.store } }), refs: ['store'] },
  get_deal: { call: (m) => ({ params: { id: m.deal } }), refs: ['deal'] },
  create_deal: { call: (m) => ({ body: { store_id: m.store, title: 'Replatform', value: 5000, currency: 'EUR' } }), refs: ['store'] },
  update_deal: { call: (m) => ({ params: { id: m.deal }, headers: { 'if-match': '*' }, body: { value: 6000 } }), refs: ['deal'] },
  move_deal_stage: { call: (m) => ({ params: { id: m.deal }, headers: { 'if-match': '*' }, body: { stage: 'proposal' } }), refs: ['deal'] },
  add_deal_note: { call: (m) => ({ params: { id: m.deal }, body: { body: 'Budget approved' } }), refs: ['deal'] },
  list_deal_notes: { call: (m) => ({ params: { id: m.deal } }), refs: ['deal'] },
  list_deal_history: { call: (m) => ({ params: { id: m.deal } }), refs: ['deal'] },
  find_contacts: { call: (m) => ({ query: { store_id: m.store } }), refs: ['store'] },
  get_contact: { call: (m) => ({ params: { id: m.contact } }), refs: ['contact'] },
  add_contact: { call: (m) => ({ body: { store_id: m.store, email: `x-${Math.random().toString(36).slice(2)}@example.com` } }), refs: [] },
  update_contact: { call: (m) => ({ params: { id: m.contact }, body: { role: 'founder' } }), refs: ['contact'] },
  discover_contacts: { call: (m) => ({ body: { store_id: m.store } }), refs: [] },
  get_managed_watch: { call: () => ({}), refs: [] },
  resize_managed_watch: { call: () => ({ body: { capacity: 5 } }), refs: [] },
  cancel_managed_watch: { call: () => ({}), refs: [] },
  list_watches: { call: () => ({}), refs: [] },
  add_watch: { call: (m) => ({ body: { type: 'client', client_name: 'Acme', store_ids: [m.store] } }), refs: [] },
  get_watch: { call: (m) => ({ params: { id: m.watch } }), refs: ['watch'] },
  remove_watch: { call: (m) => ({ params: { id: m.watch } }), refs: ['watch'] },
  list_watch_stores: { call: (m) => ({ params: { id: m.watch } }), refs: ['watch'] },
  add_watch_stores: { call: (m) => ({ params: { id: m.watch }, body: { store_ids: ['st01'] } }), refs: ['watch'] },
  remove_watch_store: { call: (m) => ({ params: { id: m.watch, store_id: m.watchStore } }), refs: ['watch'] },
  list_watch_events: { call: (m) => ({ params: { id: m.watch } }), refs: ['watch'] },
  list_watch_receipts: { call: (m) => ({ params: { id: m.watch } }), refs: ['watch'] },
  get_watch_brief: { call: (m) => ({ params: { id: m.watch } }), refs: ['watch'] },
  get_wallet: { call: () => ({}), refs: [] },
  list_wallet_usage: { call: () => ({}), refs: [] },
  get_wallet_pricing: { call: () => ({}), refs: [] },
  list_wallet_approvals: { call: () => ({}), refs: [] },
  get_wallet_rules: { call: () => ({}), refs: [] },
  get_supervision: { call: (m) => ({ query: { key_id: m.keyId } }), refs: ['keyId'] },
  request_growth_report: { call: (m) => ({ body: { store_id: m.store } }), refs: [] },
  list_growth_reports: { call: () => ({}), refs: [] },
  get_growth_report: { call: (m) => ({ params: { id: m.report } }), refs: ['report'] },
  list_outreach_cadences: { call: () => ({}), refs: [] },
  create_outreach_cadence: { call: () => ({ body: { name: 'intro', steps: [{ day: 0, name: 'intro email' }] } }), refs: [] },
  enroll_outreach: { call: (m) => ({ body: { store_id: m.store, contact_id: m.contact, cadence_id: m.cadence2 } }), refs: ['contact', 'cadence2'] },
  list_outreach_enrollments: { call: (m) => ({ query: { store_id: m.store } }), refs: ['store'] },
  get_outreach_enrollment: { call: (m) => ({ params: { id: m.enrollment } }), refs: ['enrollment'] },
  stop_outreach: { call: (m) => ({ params: { id: m.enrollment } }), refs: ['enrollment'] },
  register_webhook: { call: () => ({ body: { url: 'https://hooks.test/a', event_types: ['deal.created'] } }), refs: [] },
  list_webhooks: { call: () => ({}), refs: [] },
  get_webhook: { call: (m) => ({ params: { id: m.webhook } }), refs: ['webhook'] },
  update_webhook: { call: (m) => ({ params: { id: m.webhook }, body: { description: 'CRM sync' } }), refs: ['webhook'] },
  delete_webhook: { call: (m) => ({ params: { id: m.webhook } }), refs: ['webhook'] },
  rotate_webhook_secret: { call: (m) => ({ params: { id: m.webhook } }), refs: ['webhook'] },
  list_webhook_deliveries: { call: (m) => ({ params: { id: m.webhook } }), refs: ['webhook'] },
  retry_webhook_delivery: { call: (m) => ({ params: { id: m.webhook, delivery_id: m.delivery } }), refs: ['webhook', 'delivery'] },
  recover_webhook_events: { call: (m) => ({ params: { id: m.webhook }, body: { since: new Date(Date.parse(m.now!) - DAY).toISOString(), until: m.now } }), refs: ['webhook'] },
  test_webhook: { call: (m) => ({ params: { id: m.webhook } }), refs: ['webhook'] },
};

/** An id of the same shape as `id` that names nothing. */
const absentLike = (id: string): string => {
  const m = /^([a-z]+)_[0-9a-f]+$/.exec(id);
  if (m) return newId(m[1]!, (id.length - m[1]!.length - 1) / 2);
  return `${'z'.repeat(Math.max(1, id.length - 4))}${Math.random().toString(36).slice(2, 6)}`.slice(0, id.length);
};

/** Headers whose values differ from call to call whatever is named (the clock, the rate-limit count, the length of a body naming another id). */
const VARYING = new Set(['date', 'ratelimit', 'content-length', 'keep-alive', 'connection', 'x-request-id']);

/** An answer with `ids` written as <ID>: what must be equal whichever id the caller named. */
function shape(r: CallResult, ids: string[]) {
  let body = typeof r.body === 'string' ? r.body : JSON.stringify(r.body);
  const requestId = r.headers.get('x-request-id');
  if (requestId) body = body.split(requestId).join('<REQUEST>');
  for (const id of ids) body = body.split(id).join('<ID>').split(encodeURIComponent(id)).join('<ID>');
  const headers: Record<string, string> = {};
  r.headers.forEach((v, k) => {
    let value = VARYING.has(k) ? '…' : v;
    for (const id of ids) value = value.split(id).join('<ID>');
    headers[k] = value;
  });
  return { status: r.status, headers, body };
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the walls between workspaces on ${d.label}`, () => {
    let h: Harness;
    let caps: CapabilityManifest;
    let paths: Record<string, Record<string, { operationId: string }>>;
    const A: Made = {};
    const B: Made = {};
    let keyA: string;
    let keyB: string;

    /** A REST call of an operation as openapi.json publishes it. */
    async function op(operationId: string, key: string, c: Call): Promise<CallResult> {
      const route = ROUTES.find((r) => r.operationId === operationId)!;
      const path = route.path.replace(/\{(\w+)\}/g, (_, n: string) => encodeURIComponent(c.params![n]!));
      const query = c.query ? `?${new URLSearchParams(c.query)}` : '';
      const mutating = route.method !== 'GET';
      return call(h.base, route.method, path + query, { key, body: c.body, headers: c.headers, ...(mutating && { idem: freshIdem() }) });
    }

    /** The same call as an MCP tool call (raw JSON-RPC over HTTP): the tool's status and answer. */
    async function tool(operationId: string, key: string, c: Call): Promise<{ status: unknown; text: string }> {
      const t = operationTools(ROUTES).find((x) => x.name === operationId)!;
      const nested = (t.inputSchema as { properties: Record<string, { description?: string }> }).properties.body?.description === 'The JSON body of the REST call';
      const body = c.body === undefined ? {} : nested ? { body: c.body } : (c.body as Record<string, unknown>);
      const headers = Object.fromEntries(Object.entries(c.headers ?? {}).filter(([n]) => n !== 'accept').map(([n, v]) => [n.replace(/-/g, '_'), v]));
      const args = { ...c.params, ...c.query, ...body, ...headers };
      const res = await fetch(`${h.base}/mcp`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: operationId, arguments: args } }),
      });
      // One JSON-RPC answer, as JSON or as the one event of a stream.
      const raw = await res.text();
      const json = raw.startsWith('{') ? raw : /^data: (.*)$/m.exec(raw)![1]!;
      const r = JSON.parse(json) as { result: { content: { text: string }[]; _meta?: Record<string, unknown> } };
      const text = r.result.content.map((x) => x.text).join('\n').replace(/"request_id":"[^"]*"/, '"request_id":"<REQUEST>"');
      return { status: r.result._meta?.['storelens/status'], text };
    }

    async function ok(operationId: string, key: string, c: Call): Promise<any> {
      const r = await op(operationId, key, c);
      expect(r.status, `${operationId}: ${JSON.stringify(r.body)}`).toBeLessThan(300);
      return r.body;
    }

    /** A workspace with one of everything: accounts, a deal, a contact, a watch, a report, an enrollment, a webhook endpoint and its delivery. */
    async function seeded(m: Made, prefix: string): Promise<string> {
      const ws = await workspace(h.db);
      m.workspace = ws.id;
      m.workspaceName = ws.name;
      await h.db.write((tx) => credit(tx, ws.id, 50_000, 'tests', 'owner@example.com', `credit-${ws.id}`, new Date()));
      await refreshWorkspace(h.db, ws.id, h.clock.now());
      m.store = `${prefix}-store-a`;
      await seedAccounts(h.db, ws.id, [
        { store_id: m.store, score: 0.9, domain: `${prefix}.example` },
        { store_id: `${prefix}-store-b`, score: 0.8, domain: `b-${prefix}.example` },
      ]);
      await importAccounts(h.db, ws.id, [{ store_id: `${prefix}-imported`, score: 0.6 }], new Date());
      const issued = await issueApiKey(h.db, { workspaceId: ws.id, name: `${prefix}-key`, scopes: SCOPES, createdBy: 'owner@example.com', now: new Date() });
      m.keyId = issued.id;
      const key = issued.key;
      m.now = h.clock.now().toISOString();
      m.deal = (await ok('create_deal', key, { body: { store_id: m.store, title: `${prefix} deal`, value: 100, currency: 'EUR' } })).id;
      await ok('add_deal_note', key, { params: { id: m.deal }, body: { body: `${prefix} note` } });
      m.contact = (await ok('add_contact', key, { body: { store_id: m.store, email: `ana@${prefix}.example`, name: `${prefix} Ana` } })).id;
      m.watch = (await ok('add_watch', key, { body: { type: 'client', client_name: `${prefix} client`, store_ids: [m.store, 'st02'] } })).id;
      m.watchStore = 'st02';
      m.report = (await ok('request_growth_report', key, { body: { store_id: m.store } })).id;
      m.cadence = (await ok('create_outreach_cadence', key, { body: { name: `${prefix} cadence`, steps: [{ day: 0, name: 'intro' }] } })).id;
      m.cadence2 = (await ok('create_outreach_cadence', key, { body: { name: `${prefix} second`, steps: [{ day: 1, name: 'later' }] } })).id;
      m.enrollment = (await ok('enroll_outreach', key, { body: { store_id: m.store, contact_id: m.contact, cadence_id: m.cadence } })).id;
      m.webhook = (await ok('register_webhook', key, { body: { url: `https://${prefix}.hooks.test/h`, description: `${prefix} hook` } })).id;
      await ok('test_webhook', key, { params: { id: m.webhook } });
      m.delivery = (await ok('list_webhook_deliveries', key, { params: { id: m.webhook } })).data[0].id;
      return key;
    }

    /** What B can see of its own objects: must be the same after A's calls. */
    async function bState(): Promise<unknown> {
      const reads: [string, Call][] = [
        ['get_deal', { params: { id: B.deal! } }],
        ['list_deal_notes', { params: { id: B.deal! } }],
        ['get_contact', { params: { id: B.contact! } }],
        ['get_watch', { params: { id: B.watch! } }],
        ['list_watch_stores', { params: { id: B.watch! } }],
        ['get_growth_report', { params: { id: B.report! } }],
        ['get_outreach_enrollment', { params: { id: B.enrollment! } }],
        ['get_webhook', { params: { id: B.webhook! } }],
        ['list_webhook_deliveries', { params: { id: B.webhook! } }],
        ['get_account', { params: { store_id: B.store! } }],
        ['list_deals', {}],
        ['find_contacts', {}],
        ['list_watches', {}],
        ['get_wallet', {}],
        ['list_webhooks', {}],
      ];
      return Promise.all(reads.map(async ([id, c]) => [id, (await op(id, keyB, c)).body]));
    }

    beforeAll(async () => {
      caps = capabilityManifest(ALL_AVAILABLE);
      const t = await freshDb(d.name);
      const outbound = await webhookRuntime(t.db.kysely, { allowLocal: false, resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
      await t.cleanup();
      h = await startApi(d.name, { capabilitiesPath: caps.path, rateLimits: { read: 100_000, write: 100_000, report: 100_000 }, outbound });
      await seedSixtyStores(h.db);
      keyA = await seeded(A, 'ours');
      keyB = await seeded(B, 'thrs');
      paths = ((await call(h.base, 'GET', '/openapi.json')).body as { paths: typeof paths }).paths;
    });
    afterAll(async () => {
      await h?.close();
      caps?.remove();
    });

    it('has an entry for every operation openapi.json publishes', () => {
      const published = Object.values(paths).flatMap((p) => Object.values(p).map((o) => o.operationId));
      expect(published.filter((id) => !TABLE[id]).sort()).toEqual([]);
      expect(published.length).toBe(ROUTES.length);
    });

    it("answers A naming B's object exactly as naming an object nobody has, and leaves B's objects alone", async () => {
      const before = await bState();
      const diffs: unknown[] = [];
      for (const route of ROUTES) {
        const entry = TABLE[route.operationId]!;
        // JSON, and each other media type the operation answers in (a brief as markdown).
        const accepts = [undefined, ...Object.keys(route.alternateContent ?? {})];
        for (const ref of entry.refs) {
          for (const accept of accepts) {
            const theirs = B[ref]!;
            const absent = absentLike(theirs);
            const naming = (id: string) => {
              const c = entry.call({ ...A, [ref]: id });
              return accept ? { ...c, headers: { ...c.headers, accept } } : c;
            };
            const rTheirs = await op(route.operationId, keyA, naming(theirs));
            const rAbsent = await op(route.operationId, keyA, naming(absent));
            const [s1, s2] = [shape(rTheirs, [theirs, absent]), shape(rAbsent, [theirs, absent])];
            if (JSON.stringify(s1) !== JSON.stringify(s2)) diffs.push({ op: route.operationId, ref, accept, theirs: s1, absent: s2 });
            // B's object named in the path or the body is not found (a filter of a list may answer an empty page, as for an absent one).
            const filter = !route.path.includes(`{`) && route.method === 'GET';
            if (!filter && rTheirs.status !== 404) diffs.push({ op: route.operationId, ref, accept, expected: 404, theirs: s1 });
            if (accept) continue;
            // The same through the MCP endpoint: the tool's answer to B's id is the one to an absent id.
            const [t1, t2] = [await tool(route.operationId, keyA, naming(theirs)), await tool(route.operationId, keyA, naming(absent))];
            const ided = (t: { status: unknown; text: string }) => ({ status: t.status, text: t.text.split(theirs).join('<ID>').split(absent).join('<ID>') });
            if (JSON.stringify(ided(t1)) !== JSON.stringify(ided(t2))) diffs.push({ op: `mcp:${route.operationId}`, ref, theirs: ided(t1), absent: ided(t2) });
            if (!filter && t1.status !== 404) diffs.push({ op: `mcp:${route.operationId}`, ref, expected: 404, theirs: ided(t1) });
          }
        }
      }
      expect(diffs).toEqual([]);
      expect(await bState()).toEqual(before);
    });

    it('refuses every operation, 403 insufficient-scope, to a key holding every scope but its own, before anything is read or done', async () => {
      const refused: unknown[] = [];
      for (const route of ROUTES) {
        const key = (await issueApiKey(h.db, { workspaceId: A.workspace!, name: 'all but one', scopes: SCOPES.filter((s) => s !== route.scope), createdBy: 'owner@example.com', now: new Date() })).key;
        const r = await op(route.operationId, key, TABLE[route.operationId]!.call(A));
        if (r.status !== 403 || r.body.type !== 'https://storelens.dev/problems/insufficient-scope') refused.push({ op: route.operationId, status: r.status, body: r.body });
      }
      expect(refused).toEqual([]);
    });

    it("answers A, on every operation, with nothing of B's", async () => {
      const canaries = [B.workspace!, B.workspaceName!, 'thrs-', 'thrs.', B.deal!, B.contact!, B.watch!, B.report!, B.cadence!, B.cadence2!, B.enrollment!, B.webhook!, B.delivery!, B.keyId!, keyB];
      const leaks: unknown[] = [];
      // Each on A's own objects, so each answers its success: the removals last.
      const last = ['stop_outreach', 'remove_watch', 'delete_webhook'];
      for (const route of [...ROUTES.filter((r) => !last.includes(r.operationId)), ...last.map((id) => ROUTES.find((r) => r.operationId === id)!)]) {
        const r = await op(route.operationId, keyA, TABLE[route.operationId]!.call(A));
        const text = `${JSON.stringify([...r.headers])}\n${typeof r.body === 'string' ? r.body : JSON.stringify(r.body)}`;
        const found = canaries.filter((c) => text.includes(c));
        if (found.length) leaks.push({ op: route.operationId, status: r.status, found });
        if (r.status >= 300 && route.handler) leaks.push({ op: route.operationId, status: r.status, failed: r.body });
      }
      expect(leaks).toEqual([]);
    });
  });
}
