/**
 * The mistakes an assistant's model makes in a tool's arguments, answered through the client
 * libraries assistants ship — `@modelcontextprotocol/sdk` 1.x and `@modelcontextprotocol/client`
 * 2.x — over a real socket, as tool errors whose problem names what the model sent (the argument,
 * not the REST header it stands for), so that the model can correct the call it made.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEAL_STAGES } from '../../src/core/deal-stages.js';
import { SCOPES } from '../../src/api/scopes.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { seedAccounts } from '../helpers/accounts.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { type Assistant, SDKS, type ToolResult, toolJson } from '../helpers/mcp.js';

const PROBLEM = 'https://storelens.dev/problems/';

/** The problem of a tool error, as the assistant reads it. */
function problemOf(r: ToolResult, type: string): { detail: string; errors?: { path: string; message: string }[] } {
  expect(r.isError, JSON.stringify(r.content)).toBe(true);
  expect(r.structuredContent).toBeUndefined();
  const problem = toolJson(r);
  expect(problem.type).toBe(PROBLEM + type);
  return problem;
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`tool errors in the words of the call on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let key: string;

    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: { read: 1000, write: 1000, report: 5 }, operations: { ...WORKING, create_outreach_cadence: 'available' } });
      ws = await workspace(h.db);
      key = await apiKey(h.db, ws.id, SCOPES);
      await seedAccounts(h.db, ws.id, [{ store_id: 'errs-a', score: 0.9, domain: 'a.example' }]);
    });
    afterAll(async () => {
      await h?.close();
    });

    for (const sdk of SDKS) {
      describe(sdk.name, () => {
        let assistant: Assistant;
        /** What the next message sent names twice: its text `from` is sent as `to`. */
        let twice: { from: string; to: string } | undefined;
        const namingTwice: typeof fetch = (input, init) => {
          const body = typeof init?.body === 'string' && twice ? init.body.replace(twice.from, twice.to) : init?.body;
          twice = undefined;
          return fetch(input, { ...init, body });
        };
        beforeAll(async () => {
          assistant = await sdk.connect(h.base, key, namingTwice);
        });
        afterAll(async () => {
          await assistant?.close();
        });

        it('names if_match and idempotency_key in their problems, where REST names the headers', async () => {
          const deal = (await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'errs-a', title: 'Relaunch' } })).body as { id: string };
          const weak = problemOf(await assistant.callTool({ name: 'update_deal', arguments: { id: deal.id, if_match: 'W/"1"', value: 7 } }), 'invalid-parameters');
          expect(weak.errors).toEqual([{ path: 'if_match', message: 'must be the version the change is based on, e.g. 3 or "3", or *' }]);
          expect(weak.detail).toBe('if_match: must be the version the change is based on, e.g. 3 or "3", or *');

          const outcome = { store_id: 'errs-a', action: 'discovery' };
          const empty = problemOf(await assistant.callTool({ name: 'record_outcome', arguments: { ...outcome, idempotency_key: '' } }), 'idempotency-key-required');
          expect(empty.detail).toBe('This operation needs an idempotency_key: a stable logical request ID.');
          const long = problemOf(await assistant.callTool({ name: 'record_outcome', arguments: { ...outcome, idempotency_key: 'k'.repeat(256) } }), 'idempotency-key-required');
          expect(long.detail).toBe('The idempotency_key must be at most 255 characters.');

          // REST, whose caller sets headers, is told about the headers.
          const rest = await call(h.base, 'PATCH', `/deals/${deal.id}`, { key, idem: freshIdem(), body: { value: 7 }, headers: { 'if-match': 'W/"1"' } });
          expect(rest.body).toMatchObject({ errors: [{ path: 'if-match' }] });
          expect((await call(h.base, 'POST', '/outcomes', { key, idem: 'k'.repeat(256), body: outcome })).body).toMatchObject({ detail: 'The Idempotency-Key header must be at most 255 characters.' });
        });

        it('answers a stale if_match with the version to read again, as REST does, and the change made on it goes through', async () => {
          const deal = (await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: 'errs-a', title: 'Stale' } })).body as { id: string; version: number };
          for (const name of ['update_deal', 'move_deal_stage']) {
            const change = name === 'update_deal' ? { value: 9 } : { stage: 'proposal' };
            const stale = await assistant.callTool({ name, arguments: { id: deal.id, if_match: deal.version + 5, ...change } });
            expect(stale.isError, name).toBe(true);
            expect(toolJson(stale)).toMatchObject({ type: `${PROBLEM}conflict`, status: 409, current_version: deal.version, detail: `The deal is at version ${deal.version}, not ${deal.version + 5}: read it again and apply the change to the current version.` });
            const rest = await call(h.base, name === 'update_deal' ? 'PATCH' : 'POST', name === 'update_deal' ? `/deals/${deal.id}` : `/deals/${deal.id}/stage`, { key, idem: freshIdem(), body: change, headers: { 'if-match': String(deal.version + 5) } });
            expect(rest.body).toMatchObject({ type: `${PROBLEM}conflict`, detail: toolJson(stale).detail });
            const fresh = await assistant.callTool({ name, arguments: { id: deal.id, if_match: deal.version, ...change } });
            expect(fresh.isError, name).toBeFalsy();
            deal.version = (fresh.structuredContent as { version: number }).version;
          }
        });

        it('refuses an idempotency_key that is not text as that, not as an argument the tool does not take', async () => {
          for (const [given, said] of [[null, 'null'], [true, 'a boolean'], [{ id: 'k' }, 'an object'], [['k'], 'a list']] as const) {
            const r = await assistant.callTool({ name: 'record_outcome', arguments: { store_id: 'errs-a', action: 'discovery', note: 'odd key', idempotency_key: given } });
            expect(problemOf(r, 'invalid-parameters').errors).toEqual([{ path: 'idempotency_key', message: `must be text (got ${said}); leave it out to have one derived from the call` }]);
          }
          expect(await h.db.kysely.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).where('note', '=', 'odd key').execute()).toEqual([]);
        });

        it('refuses an argument the tool does not take as unknown even when given as a list, and a list for one it takes as one value too many', async () => {
          const unknown = problemOf(await assistant.callTool({ name: 'list_accounts', arguments: { store_ids: ['errs-a'] } }), 'invalid-parameters');
          expect(unknown.errors).toEqual([{ path: '', message: 'Unrecognized key: "store_ids"' }]);
          const listed = problemOf(await assistant.callTool({ name: 'list_accounts', arguments: { status: ['open', 'working'] } }), 'invalid-parameters');
          expect(listed.errors).toEqual([{ path: 'status', message: 'given more than once; send it once' }]);
          // REST alike: a repeated parameter the operation does not take is unknown, not repeated.
          expect((await call(h.base, 'GET', '/accounts?store_ids=a&store_ids=b', { key })).body).toMatchObject({ errors: [{ path: '', message: 'Unrecognized key: "store_ids"' }] });
        });

        it('refuses arguments naming a member twice as REST refuses the repeated parameter or body member, rather than taking the last', async () => {
          // A body field: invalid-body, as REST's body naming it twice; nothing is recorded.
          twice = { from: '"note":"second"', to: '"note":"first","note":"second"' };
          const body = problemOf(await assistant.callTool({ name: 'record_outcome', arguments: { store_id: 'errs-a', action: 'discovery', note: 'second' } }), 'invalid-body');
          expect(body.errors).toEqual([{ path: 'note', message: 'given more than once in its object; send it once' }]);
          expect(await h.db.kysely.selectFrom('outcomes').select('id').where('workspace_id', '=', ws.id).where('note', '=', 'second').execute()).toEqual([]);
          const rest = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), rawBody: '{"store_id":"errs-a","action":"discovery","note":"first","note":"second"}' });
          expect(rest.body).toMatchObject({ type: `${PROBLEM}invalid-body`, errors: body.errors });

          // A member inside a body field, by its path.
          twice = { from: '"day":3', to: '"day":0,"day":3' };
          const nested = problemOf(await assistant.callTool({ name: 'create_outreach_cadence', arguments: { name: 'twice', steps: [{ day: 3, name: 'intro' }] } }), 'invalid-body');
          expect(nested.errors).toEqual([{ path: 'steps.0.day', message: 'given more than once in its object; send it once' }]);

          // A query parameter: invalid-parameters, as REST's URL giving it twice — even right after
          // the same read without the repetition, whose answer the server keeps.
          expect((await assistant.callTool({ name: 'list_accounts', arguments: { status: 'open' } })).isError).toBeFalsy();
          twice = { from: '"status":"open"', to: '"status":"working","status":"open"' };
          const query = problemOf(await assistant.callTool({ name: 'list_accounts', arguments: { status: 'open' } }), 'invalid-parameters');
          expect(query.errors).toEqual([{ path: 'status', message: 'given more than once; send it once' }]);
          expect((await call(h.base, 'GET', '/accounts?status=working&status=open', { key })).body).toMatchObject({ errors: query.errors });
        });

        it('refuses a message naming a member twice outside the arguments as a JSON-RPC error the client throws', async () => {
          twice = { from: '"name":"get_account"', to: '"name":"list_accounts","name":"get_account"' };
          await expect(assistant.callTool({ name: 'get_account', arguments: { store_id: 'errs-a' } })).rejects.toThrow('params.name is given more than once in its object; send it once');
          // The connection goes on.
          expect((await assistant.callTool({ name: 'get_account', arguments: { store_id: 'errs-a' } })).isError).toBeFalsy();
        });

        it('refuses a filter that could match nothing, naming it and saying what it takes, as REST does', async () => {
          // A score is a probability: 70 meant as 70 % listed nothing, as if no account were that good.
          for (const min_score of [70, -0.5, '1.5']) {
            const r = problemOf(await assistant.callTool({ name: 'list_accounts', arguments: { min_score } }), 'invalid-parameters');
            expect(r.errors).toEqual([{ path: 'min_score', message: 'must be between 0 and 1 (a probability; divide a 0–100 score by 100)' }]);
          }
          expect((await call(h.base, 'GET', '/accounts?min_score=70', { key })).body).toMatchObject({ type: `${PROBLEM}invalid-parameters`, errors: [{ path: 'min_score', message: 'must be between 0 and 1 (a probability; divide a 0–100 score by 100)' }] });
          expect((await assistant.callTool({ name: 'list_accounts', arguments: { min_score: 0.5 } })).isError).toBeFalsy();

          // Every contact's email is an address; a part of one is what `q` finds.
          const email = problemOf(await assistant.callTool({ name: 'find_contacts', arguments: { email: 'ana at errs-a' } }), 'invalid-parameters');
          expect(email.errors).toEqual([{ path: 'email', message: 'must be an email address' }]);
          expect((await call(h.base, 'GET', '/contacts?email=ana%20at%20errs-a', { key })).body).toMatchObject({ type: `${PROBLEM}invalid-parameters`, errors: email.errors });
          const tools = (await assistant.listTools()).tools as { name: string; inputSchema: { properties: Record<string, Record<string, unknown>> } }[];
          expect(tools.find((t) => t.name === 'list_accounts')!.inputSchema.properties.min_score).toMatchObject({ minimum: 0, maximum: 1 });
          expect(tools.find((t) => t.name === 'find_contacts')!.inputSchema.properties.email!.description).toContain('`q`');
        });

        it('says `required` of an argument left out, with the choices of one that is a choice, as REST does', async () => {
          const problem = problemOf(await assistant.callTool({ name: 'record_outcome', arguments: { note: 'no store, no action' } }), 'invalid-body');
          const stages = DEAL_STAGES.map((s) => JSON.stringify(s)).join(', ');
          expect(problem.errors).toEqual([
            { path: 'store_id', message: 'required' },
            { path: 'action', message: `required: one of ${stages}` },
          ]);
          expect(problem.detail).toBe(`store_id: required; action: required: one of ${stages}`);
          const rest = await call(h.base, 'POST', '/outcomes', { key, idem: freshIdem(), body: { note: 'no store, no action' } });
          expect(rest.body).toMatchObject({ type: `${PROBLEM}invalid-body`, errors: problem.errors });
        });

        it('says once that a currency is not in capitals', async () => {
          const r = await assistant.callTool({ name: 'create_deal', arguments: { store_id: 'errs-a', title: 'Lower case', currency: 'eur' } });
          const problem = problemOf(r, 'invalid-body');
          expect(problem.errors).toEqual([{ path: 'currency', message: 'must be an ISO 4217 currency code in capitals, e.g. EUR' }]);
          expect(problem.detail).toBe('currency: must be an ISO 4217 currency code in capitals, e.g. EUR');
          // One in capitals that is no currency is still refused, once.
          const unknown = problemOf(await assistant.callTool({ name: 'create_deal', arguments: { store_id: 'errs-a', title: 'No such', currency: 'XYZ' } }), 'invalid-body');
          expect(unknown.errors).toHaveLength(1);
        });
      });
    }
  });
}
