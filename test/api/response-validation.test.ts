/**
 * Response validation: with validateResponses (on in every api test through startApi) a JSON
 * body that drifts from its route's declared response schema is a 500, logged, and a drifting
 * write is rolled back and not kept for replay. Off, the same body goes out as it is.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { capabilityReader } from '../../src/api/capabilities.js';
import { type OperationRequest, createExecutor } from '../../src/api/executor.js';
import { ApiProblem } from '../../src/api/problems.js';
import { defineRoute } from '../../src/api/route-def.js';
import { Problem } from '../../src/api/schemas.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { apiKey, fakeClock, freshIdem, workspace } from '../helpers/api.js';

const PROBLEM = 'https://storelens.dev/problems/';
const Thing = z.object({ object: z.literal('thing'), id: z.string(), count: z.int(), note: z.string().optional() });

/** Each call of a drifting route, counted: a write that is replayed does not run again. */
let runs = 0;

const common = { tag: 'Test', summary: 'A test operation', scope: 'read:accounts', planned: 'available', response: Thing } as const;
const routes = {
  right: defineRoute({ ...common, operationId: 'test_right', method: 'GET', path: '/test/right', kind: 'read', handler: async () => ({ status: 200, body: { object: 'thing' as const, id: 't1', count: 1 } }) }),
  wrongValue: defineRoute({
    ...common,
    operationId: 'test_wrong_value',
    method: 'GET',
    path: '/test/wrong-value',
    kind: 'read',
    // @ts-expect-error: a handler answering another shape than its response schema fails the typecheck too
    handler: async () => ({ status: 200, body: { object: 'thing', id: 't1', count: '1' } }),
  }),
  undeclared: defineRoute({
    ...common,
    operationId: 'test_undeclared',
    method: 'GET',
    path: '/test/undeclared',
    kind: 'read',
    handler: async () => {
      const body = { object: 'thing' as const, id: 't1', count: 1, secret: 'not documented' };
      return { status: 200, body };
    },
  }),
  otherStatus: defineRoute({ ...common, operationId: 'test_other_status', method: 'GET', path: '/test/other-status', kind: 'read', handler: async () => ({ status: 202, body: { object: 'thing' as const, id: 't1', count: 1 } }) }),
    markdown: defineRoute({ ...common, operationId: 'test_markdown', method: 'GET', path: '/test/markdown', kind: 'read', handler: async () => ({ status: 200, body: '# A thing', contentType: 'text/markdown; charset=utf-8' }) }),
  wrongWrite: defineRoute({
    ...common,
    operationId: 'test_wrong_write',
    method: 'POST',
    path: '/test/wrong-write',
    scope: 'write:outcomes',
    kind: 'write',
    status: 201,
    handler: async () => {
      runs++;
      return { status: 201, body: { object: 'thing' as const, id: 't1', count: 1 }, replayBody: { object: 'thing' as const, id: 't1', count: -0.5 } };
    },
  }),
};

function request(key: string, idem?: string): OperationRequest {
  return { params: {}, query: {}, headers: { authorization: `Bearer ${key}`, ...(idem ? { 'idempotency-key': idem } : {}) }, target: '/test' };
}

it('documents problems with the extension members they carry (openapi.json Problem)', () => {
  const problems = [
    new ApiProblem('invalid-parameters', 'limit: too big', {}, { errors: [{ path: 'limit', message: 'too big' }] }),
    new ApiProblem('insufficient-scope', 'Needs read:wallet.', {}, { required_scope: 'read:wallet' }),
    new ApiProblem('conflict', 'A contact has this email.', {}, { existing_contact_id: 'con_1' }),
  ];
  for (const p of problems) expect(Problem.parse(p.body())).toEqual(p.body());
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`response validation on ${d.label}`, () => {
    let t: TestDb;
    let key: string;
    beforeAll(async () => {
      t = await freshDb(d.name);
      key = await apiKey(t.db, (await workspace(t.db)).id, ['read:accounts', 'write:outcomes']);
    });
    afterAll(async () => t?.cleanup());

    const executor = async (validateResponses: boolean) => {
      const logged: string[] = [];
      const exec = await createExecutor({ db: t.db, now: fakeClock().now, capability: capabilityReader(), validateResponses, log: (line) => logged.push(line) });
      return { exec, logged };
    };

    it('answers a body that matches its schema, and text of another media type, as they are', async () => {
      const { exec, logged } = await executor(true);
      const r = await exec.execute(routes.right, request(key));
      expect([r.status, JSON.parse(r.body)]).toEqual([200, { object: 'thing', id: 't1', count: 1 }]);
      const md = await exec.execute(routes.markdown, request(key));
      expect([md.status, md.body, md.contentType]).toEqual([200, '# A thing', 'text/markdown; charset=utf-8']);
      expect(logged).toEqual([]);
    });

    it('answers 500 for a drifting handler and logs the operation and the member that drifted', async () => {
      const { exec, logged } = await executor(true);
      const r = await exec.execute(routes.wrongValue, request(key));
      expect(r.status).toBe(500);
      expect(JSON.parse(r.body).type).toBe(`${PROBLEM}internal-error`);
      expect(r.body).not.toContain('count');
      expect(logged).toHaveLength(1);
      expect(logged[0]).toMatch(/^test_wrong_value: the response does not match its declared schema: body\.count: /);
    });

    it('answers 500 for a member the schema does not declare (it would leave the documentation silently)', async () => {
      const { exec, logged } = await executor(true);
      const r = await exec.execute(routes.undeclared, request(key));
      expect(r.status).toBe(500);
      expect(logged[0]).toContain('body.secret: not declared by the schema');
    });

    it('answers 500 for a success status the route does not declare', async () => {
      const { exec, logged } = await executor(true);
      expect((await exec.execute(routes.otherStatus, request(key))).status).toBe(500);
      expect(logged[0]).toContain('status 202: the route declares 200');
    });

    it('rolls a drifting write back and keeps nothing for replay: the same key runs it again', async () => {
      const { exec, logged } = await executor(true);
      const idem = freshIdem();
      runs = 0;
      expect((await exec.execute(routes.wrongWrite, request(key, idem))).status).toBe(500);
      expect((await exec.execute(routes.wrongWrite, request(key, idem))).status).toBe(500);
      expect(runs).toBe(2);
      expect(logged[0]).toContain('replayBody.count');
    });

    it('sends the drifting body as it is when validation is off (the default outside tests)', async () => {
      const { exec, logged } = await executor(false);
      const r = await exec.execute(routes.wrongValue, request(key));
      expect([r.status, JSON.parse(r.body).count]).toEqual([200, '1']);
      expect(logged).toEqual([]);
    });
  });
}
