import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { validate, compileErrors } from '@readme/openapi-parser';
import openapiTS, { astToString } from 'openapi-typescript';
import ts from 'typescript';
import { importAccounts } from '../../src/db/accounts.js';
import { insertWebhookEndpoint } from '../../src/db/webhooks.js';
import { SCOPES } from '../../src/api/scopes.js';
import { apiKey, call, startApi, workspace, type Harness } from './harness.js';

const GENERATED = fileURLToPath(new URL('./generated/storelens-api.d.ts', import.meta.url));
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
    const byId = Object.fromEntries(ops.map((o) => [o.operationId, o]));
    expect(byId.list_accounts['x-availability']).toBe('available');
    expect(byId.record_outcome['x-availability']).toBe('available');
    expect(byId.delete_webhook['x-availability']).toBe('available');
    expect(byId.get_current_list['x-availability']).toBe('unavailable');
    expect(byId.record_outcome.responses['409']).toBeDefined();
    expect(byId.record_outcome.responses['400']).toBeDefined();
    expect(byId.delete_webhook.responses['400']).toBeDefined();
    expect(byId.get_supervision['x-required-scope']).toBe('read:wallet');
    expect(doc.components.responses.BadRequest.content['application/problem+json']).toBeDefined();
    expect(byId.list_accounts.parameters.find((p: any) => p.name === 'limit').schema).toMatchObject({ minimum: 1, maximum: 200, default: 50 });
  });

  it('matches the committed generated client types', async () => {
    const generated = astToString(await openapiTS(structuredClone(doc)));
    if (!existsSync(GENERATED)) {
      writeFileSync(GENERATED, generated);
      if (process.env.CI === 'true') throw new Error(`missing ${GENERATED} (written now; commit it)`);
    }
    const committed = readFileSync(GENERATED, 'utf8');
    if (committed !== generated) writeFileSync(`${GENERATED}.changed`, generated);
    expect(committed === generated, `generated types changed: review ${GENERATED}.changed and copy it over`).toBe(true);
  });

  it('type-checks the client usage against the generated types', () => {
    const program = ts.createProgram([USAGE], {
      strict: true,
      noEmit: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
      target: ts.ScriptTarget.ES2022,
      skipLibCheck: true,
      types: ['node'],
    });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'));
    expect(diagnostics).toEqual([]);
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
});
