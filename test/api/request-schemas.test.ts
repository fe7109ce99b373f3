/**
 * openapi.json's request schemas say what the server refuses: a body the declared schema takes
 * is not refused as invalid (400) by the server, and one it refuses is — checked over real HTTP
 * for the deal and contact bodies and the empty body of every PATCH, with the schema validated as
 * a generated client would (ajv with formats). The email pattern both share is held against the
 * server's own reading (trim, then zod's email) for any text.
 */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EMAIL_AS_SENT } from '../../src/api/schemas.js';
import { SCOPES } from '../../src/api/scopes.js';
import { seedAccounts } from '../helpers/accounts.js';
import { dialects } from '../helpers/db.js';
import { ROUTES } from '../../src/compose/modules.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';

const addFormats = addFormatsModule as unknown as (ajv: Ajv) => Ajv;

it("takes as an email exactly the text the server reads as one (trimmed, then zod's z.email())", () => {
  const server = (s: string) => z.email().safeParse(s.trim()).success;
  const local = fc.stringMatching(/^[A-Za-z0-9_'+.\-]{0,6}$/);
  const domain = fc.stringMatching(/^[A-Za-z0-9.\-]{0,8}$/);
  const blank = fc.constantFrom('', ' ', '\t', '\n', '\u00a0', '\ufeff', '\u2003');
  const shaped = fc.tuple(blank, local, fc.constantFrom('@', '@@', ''), domain, blank).map((p) => p.join(''));
  fc.assert(fc.property(fc.oneof(shaped, fc.string()), (s) => EMAIL_AS_SENT.test(s) === server(s)), { numRuns: 5000 });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`declared request schemas and the server's refusals on ${d.label}`, () => {
    let h: Harness;
    let key: string;
    let doc: any;
    const ajv = addFormats(new Ajv({ strict: false, allErrors: true }));

    beforeAll(async () => {
      // Every operation available: each body is checked (every PATCH's empty one, every required member left out).
      h = await startApi(d.name, { operations: Object.fromEntries(ROUTES.map((r) => [r.operationId, 'available'])), rateLimits: { read: 100_000, write: 100_000, report: 100_000 } });
      const ws = await workspace(h.db);
      key = await apiKey(h.db, ws.id, ['read:accounts', 'write:deals', 'write:contacts', 'manage:webhooks', 'write:watch']);
      await seedAccounts(h.db, ws.id, [{ store_id: 'rs-a', score: 0.9 }]);
      doc = (await call(h.base, 'GET', '/openapi.json')).body;
    });
    afterAll(async () => {
      await h?.close();
    });

    const bodySchema = (path: string, method: string) => doc.paths[path][method].requestBody.content['application/json'].schema;

    /** [what the declared schema says, what the server says] of each body: valid or refused (400). */
    async function verdicts(path: string, bodies: Record<string, unknown>[]) {
      const validate = ajv.compile(bodySchema(path, 'post'));
      const out: [string, boolean, boolean][] = [];
      for (const body of bodies) {
        const r = await call(h.base, 'POST', path, { key, idem: freshIdem(), body });
        expect([201, 400], JSON.stringify(r.body)).toContain(r.status);
        out.push([JSON.stringify(body), validate(body), r.status !== 400]);
      }
      return out;
    }

    it('agrees on a deal body: the currency in capitals, the owner email with or without blanks around it', async () => {
      const deal = (fields: Record<string, unknown>) => ({ store_id: 'rs-a', title: 'Schema', ...fields });
      const bodies = [
        deal({ currency: 'EUR' }),
        deal({ currency: 'eur' }),
        deal({ currency: 'Eur' }),
        deal({ currency: 'EURO' }),
        deal({ currency: 'EU' }),
        deal({ currency: ' EUR' }),
        deal({ owner_email: 'ana@agency.example' }),
        deal({ owner_email: ' Ana@Agency.EXAMPLE ' }),
        deal({ owner_email: 'not-an-email' }),
        deal({ owner_email: 'ana@agency' }),
        deal({ owner_email: 'ana..lee@agency.example' }),
        deal({ owner_email: 'ana@agency.example.' }),
        deal({ owner_email: '' }),
      ];
      const seen = await verdicts('/deals', bodies);
      expect(seen.filter(([, schema, server]) => schema !== server)).toEqual([]);
      // Both refuse something, and both take something: the cases say something.
      expect(new Set(seen.map(([, , server]) => server))).toEqual(new Set([true, false]));
    });

    it('declares and refuses an empty change (`{}`) on every PATCH alike: the schema refuses it and the server answers 400 invalid-body', async () => {
      const patches = Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) => (ops.patch ? [[path, ops.patch] as const] : []));
      expect(patches.map(([, op]) => op.operationId)).toEqual(expect.arrayContaining(['update_deal', 'update_contact', 'update_webhook']));
      for (const [path, op] of patches) {
        const validate = ajv.compile(op.requestBody.content['application/json'].schema);
        expect(validate({}), op.operationId).toBe(false);
        // Refused as it is, before the id is looked for.
        const r = await call(h.base, 'PATCH', path.replace('{id}', 'nothing-by-this-id'), { key, idem: freshIdem(), body: {} });
        expect([r.status, r.body.type], op.operationId).toEqual([400, 'https://storelens.dev/problems/invalid-body']);
      }
    });

    /** Every operation with a JSON body, and a call of it with `body` (its path ids naming nothing, so a body that passes would answer 404). */
    function bodyOperations() {
      return Object.entries(doc.paths as Record<string, Record<string, any>>).flatMap(([path, ops]) =>
        Object.entries(ops).flatMap(([method, op]) => {
          const schema = op.requestBody?.content?.['application/json']?.schema;
          const send = async (key: string, body: unknown) => {
            const r = await call(h.base, method.toUpperCase(), path.replace(/\{[a-z_]+\}/g, 'nothing-by-this-id'), { key, idem: freshIdem(), body });
            expect([r.status, r.body.type], `${op.operationId} ${JSON.stringify(body)}`).toEqual([400, 'https://storelens.dev/problems/invalid-body']);
            return r.body.errors as unknown[];
          };
          return schema ? [{ operationId: op.operationId as string, schema, send }] : [];
        }),
      );
    }
    const choiceList = (choices: unknown[]) => choices.map((c) => JSON.stringify(c)).join(', ');

    it('says `required` of each required body member left out (a choice with its values), on every operation that takes a body, as its schema declares', async () => {
      const every = await apiKey(h.db, (await workspace(h.db)).id, SCOPES);
      const told: string[] = [];
      for (const { operationId, schema, send } of bodyOperations()) {
        if (!schema.required?.length) continue;
        const errors = await send(every, {});
        for (const name of schema.required as string[]) {
          const choices = schema.properties?.[name]?.enum as unknown[] | undefined;
          expect(errors, `${operationId} ${name}`).toContainEqual({ path: name, message: choices ? `required: one of ${choiceList(choices)}` : 'required' });
        }
        told.push(operationId);
      }
      expect(told).toEqual(expect.arrayContaining(['create_deal', 'add_contact', 'record_outcome', 'register_webhook', 'add_watch', 'enroll_outreach']));
    });

    it('names the choices, comma-separated, of each choice body member given a value it does not offer, on every operation that takes a body', async () => {
      const every = await apiKey(h.db, (await workspace(h.db)).id, SCOPES);
      const told: string[] = [];
      for (const { operationId, schema, send } of bodyOperations()) {
        for (const [name, member] of Object.entries((schema.properties ?? {}) as Record<string, any>)) {
          if (!Array.isArray(member.enum) || typeof member.enum[0] !== 'string') continue;
          const errors = await send(every, { [name]: 'no-such-choice' });
          expect(errors, `${operationId} ${name}`).toContainEqual({ path: name, message: `expected one of ${choiceList(member.enum)}` });
          told.push(`${operationId}.${name}`);
        }
      }
      expect(told).toEqual(expect.arrayContaining(['record_outcome.action', 'move_deal_stage.stage', 'set_account_status.status', 'add_watch.type']));
    });

    it('agrees on a contact body: the email with or without blanks around it, and its length', async () => {
      let n = 0;
      const contact = (email: string) => ({ store_id: 'rs-a', email: email.replace('{n}', String(++n)) });
      const bodies = [
        contact('kim{n}@client.example'),
        contact('  Kim{n}@Client.EXAMPLE\t'),
        contact('kim{n}@client'),
        contact('kim{n}.@client.example'),
        contact('@client.example'),
        contact('kim{n}@client.example, bo@client.example'),
        // K (U+212A, the Kelvin sign) lower-cases to an ASCII k: still no address as sent.
        contact('kim{n}@\u212Alient.example'),
        contact(`${'k'.repeat(300)}{n}@client.example`),
        contact(`${'k'.repeat(320)}{n}@client.example`),
      ];
      const seen = await verdicts('/contacts', bodies);
      expect(seen.filter(([, schema, server]) => schema !== server)).toEqual([]);
      expect(new Set(seen.map(([, , server]) => server))).toEqual(new Set([true, false]));
    });
  });
}
