import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fileURLToPath } from 'node:url';
import { validate, compileErrors } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import { importAccounts } from '../../src/accounts/store.js';
import { insertWebhookEndpoint } from '../../src/webhooks/endpoints-store.js';
import { SCOPES } from '../../src/api/scopes.js';
import { ROUTES } from '../../src/compose/modules.js';
import { expectGolden } from '../helpers/golden.js';
import { capabilityManifest } from '../helpers/capability-manifest.js';
import { typeErrors } from '../helpers/type-check.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const USAGE = fileURLToPath(new URL('./client-usage.ts', import.meta.url));

/** Operations SPEC names, by our operation ids. */
const SPEC_OPERATIONS = [
  'list_accounts', 'record_outcome', 'delete_webhook', 'set_account_status',
  'get_account', 'list_account_signals', 'get_current_list',
  'get_managed_watch', 'list_watches', 'add_watch', 'remove_watch',
  'create_deal', 'update_deal', 'move_deal_stage', 'add_deal_note',
  'add_contact', 'update_contact', 'find_contacts', 'discover_contacts',
  'get_wallet', 'get_supervision', 'request_growth_report',
  'enroll_outreach', 'stop_outreach', 'register_webhook', 'list_webhooks',
];

/** The operations of an openapi.json document, by operation id. */
const operationsOf = (doc: any): Record<string, any> =>
  Object.fromEntries((Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[]).map((o) => [o.operationId, o]));

describe('openapi.json and a generated client', () => {
  let h: Harness;
  let doc: any;
  beforeAll(async () => {
    h = await startApi('SQLite');
    doc = (await call(h.base, 'GET', '/openapi.json')).body;
  });
  afterAll(async () => h?.close());

  it('is a valid OpenAPI 3.1 document', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(doc));
    expect(result.valid, result.valid ? '' : compileErrors(result)).toBe(true);
  });

  it('lists every operation SPEC names with its scope, availability and problem responses', () => {
    const ops = Object.values(doc.paths).flatMap((p: any) => Object.values(p)) as any[];
    const ids = ops.map((o) => o.operationId);
    for (const id of SPEC_OPERATIONS) expect(ids).toContain(id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const op of ops) {
      expect(SCOPES).toContain(op['x-required-scope']);
      expect(op.security).toEqual([{ bearerAuth: [op['x-required-scope']] }]);
      expect(['available', 'pilot', 'activation-gated', 'unavailable']).toContain(op['x-availability']);
      for (const s of ['401', '403', '404', '429']) expect(op.responses[s].$ref).toMatch(/^#\/components\/responses\//);
    }
    const byId = operationsOf(doc);
    expect(byId.list_accounts['x-availability']).toBe('available');
    expect(byId.record_outcome['x-availability']).toBe('available');
    expect(byId.delete_webhook['x-availability']).toBe('available');
    expect(byId.record_outcome.responses['409']).toEqual({ $ref: '#/components/responses/Conflict' });
    expect(byId.record_outcome.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(byId.delete_webhook.responses['400']).toEqual({ $ref: '#/components/responses/BadRequest' });
    expect(byId.get_supervision['x-required-scope']).toBe('read:wallet');
    expect(doc.components.responses.BadRequest.content).toEqual({ 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } });
    expect(byId.list_accounts.parameters.find((p: any) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
  });

  it('declares the 400 of an unknown query parameter on every operation, and the 413 and 415 of a body sent to every mutating one', async () => {
    // Every operation available, so each answers what its own checks decide (not the 404 of a gate).
    const other = await startApi('SQLite', { operations: Object.fromEntries(ROUTES.map((r) => [r.operationId, 'available'])), rateLimits: { read: 10_000, write: 10_000, report: 10_000 } });
    try {
      const key = await apiKey(other.db, (await workspace(other.db)).id, SCOPES);
      const undeclared: string[] = [];
      for (const [template, methods] of Object.entries(doc.paths) as [string, Record<string, any>][]) {
        for (const [method, op] of Object.entries(methods)) {
          const path = template.replace(/\{\w+\}/g, 'x');
          const mutating = method !== 'get';
          const answered = [(await call(other.base, method.toUpperCase(), `${path}?unknown=1`, { key, ...(mutating && { idem: freshIdem() }) })).status];
          if (mutating) {
            answered.push((await call(other.base, method.toUpperCase(), path, { key, idem: freshIdem(), rawBody: '{}', headers: { 'content-type': 'text/plain' } })).status);
            answered.push((await call(other.base, method.toUpperCase(), path, { key, idem: freshIdem(), rawBody: `"${'a'.repeat(70_000)}"` })).status);
          }
          expect(answered).toEqual(mutating ? [400, 415, 413] : [400]);
          for (const s of answered) if (!op.responses[String(s)]) undeclared.push(`${op.operationId} ${s}`);
        }
      }
      expect(undeclared).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it('labels each operation with the availability the capability manifest gives it', async () => {
    const caps = capabilityManifest({
      list_accounts: 'available',
      enroll_outreach: 'pilot',
      request_growth_report: { availability: 'activation-gated', activation: 'growth_reports' },
      get_current_list: 'unavailable',
    });
    const other = await startApi('SQLite', { capabilitiesPath: caps.path });
    try {
      const ops = operationsOf((await call(other.base, 'GET', '/openapi.json')).body);
      expect(ops.list_accounts['x-availability']).toBe('available');
      expect(ops.enroll_outreach['x-availability']).toBe('pilot');
      expect(ops.enroll_outreach.description).toContain('Availability: pilot.');
      expect(ops.request_growth_report).toMatchObject({ 'x-availability': 'activation-gated', 'x-activation': 'growth_reports' });
      expect(ops.get_current_list['x-availability']).toBe('unavailable');
      expect(ops.record_outcome['x-availability'], 'an operation the test manifest does not name').toBe('unavailable');
    } finally {
      await other.close();
      caps.remove();
    }
  });

  it('matches the committed generated client types', async () => {
    expectGolden('api/storelens-api.d.ts', astToString(await openapiTS(structuredClone(doc))));
  });

  it('type-checks the client usage against the generated types', () => {
    expect(typeErrors(USAGE)).toEqual([]);
  });

  it('calls the deal operations through openapi-fetch', async () => {
    const ws = await workspace(h.db);
    await importAccounts(h.db, ws.id, [{ store_id: 'top', score: 9 }], new Date());
    const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals']);
    const { exerciseDeals } = await import('./client-usage.js');
    expect(await exerciseDeals(h.base, key, 'top')).toEqual({
      created: 201,
      readTitle: 'Relaunch',
      updatedValue: 6000,
      stage: 'lost',
      staleStatus: 409,
      noteBody: 'Budget frozen until Q3',
      notes: 1,
      history: ['created:stage:null→discovery', 'field_changed:value:5000→6000', 'stage_changed:stage:discovery→lost'],
      listed: [true],
    });
  });

  it('calls the three operations through openapi-fetch', async () => {
    const ws = await workspace(h.db);
    await importAccounts(h.db, ws.id, [{ store_id: 'top', score: 9 }, { store_id: 'mid', score: 5 }, { store_id: 'low', score: 1 }], new Date());
    const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:outcomes', 'manage:webhooks']);
    const ep = await insertWebhookEndpoint(h.db.kysely, ws.id, { url: 'https://example.com/h' }, new Date());
    const { exerciseClient } = await import('./client-usage.js');
    expect(await exerciseClient(h.base, key, ep.id)).toEqual({
      firstStore: 'top',
      secondPageSize: 1,
      recordedAction: 'lost',
      outcomeStatus: 200,
      deleted: true,
      missingStatus: 404,
      missingProblemType: 'https://storelens.dev/problems/not-found',
    });
  });

  it('calls each contact operation through openapi-fetch', async () => {
    const ws = await workspace(h.db);
    await importAccounts(h.db, ws.id, [{ store_id: 'shop', score: 3 }], new Date());
    const key = await apiKey(h.db, ws.id, ['read:accounts', 'write:contacts']);
    const { exerciseContacts } = await import('./client-usage.js');
    expect(await exerciseContacts(h.base, key, 'shop')).toEqual({
      addStatus: 201,
      email: 'Kim@client.example',
      role: 'Buyer',
      name: null,
      found: true,
      suggestions: 0,
      duplicateStatus: 409,
      duplicateNamesIt: true,
    });
  });
});
