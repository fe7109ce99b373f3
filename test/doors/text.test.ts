/**
 * A store's text and a contact's text through every door that takes them, kept alike: the panel
 * (a CSV, an NDJSON and a Parquet month file, published, ingested and scored, read back with
 * GET /accounts), `storelens accounts import` (a real file, read back with GET /accounts), the
 * contact source beside the panel (in each format, published and ingested, read back with
 * POST /contacts/discover) and the contact operations over REST (a real socket) and through the
 * assistant's tools (the MCP SDK client over HTTP), read back with GET /contacts. The panel's rule
 * is the one every door keeps: blanks (Unicode space separators) trimmed at the ends, a tab or a
 * line break kept, CRLF inside read as LF, Unicode NFC; nothing left is no value (the contact
 * operations refuse such a name or role, naming the field: leave it out instead).
 *
 * Then a property: the rule's JavaScript form (every door but the panel) and its SQL form (the
 * panel's, run by DuckDB) agree on any text.
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { stringify } from 'csv-stringify/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile } from '../../src/accounts/profile-store.js';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { SCOPES } from '../../src/api/scopes.js';
import { PANEL_COLUMNS } from '../../src/core/panel-contract.js';
import { keptText, keptTextSql } from '../../src/core/text.js';
import { ingestRuns } from '../../src/ingest/ingest.js';
import { type Duck, lit, openDuck } from '../../src/panel/duck.js';
import { apiKey, call, freshIdem, workspace } from '../helpers/api.js';
import { FIXED_NOW, publishPanel } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';
import { useDoors } from '../helpers/doors.js';
import { SDKS, toolJson } from '../helpers/mcp.js';
import { base } from '../helpers/signals-panel.js';

/** Given ⇒ kept by every door (null: no value). */
const CASES: [what: string, given: string, kept: string | null][] = [
  ['a CRLF inside', 'Home\r\nGarden', 'Home\nGarden'],
  ['a tab at an edge', '\tToys\t', '\tToys\t'],
  ['a no-break space at an edge', '\u00a0Toys\u00a0', 'Toys'],
  ['an ideographic space at an edge', '\u3000玩具\u3000', '玩具'],
  ['a line break at an edge', 'Toys\n', 'Toys\n'],
  ['a decomposed é (e + U+0301)', 'Cafe\u0301 ', 'Caf\u00e9'],
  ['spaces around', '  Toys  ', 'Toys'],
  ['only spaces', '   ', null],
  ['an empty string', '', null],
];
const KEPT = CASES.map(([, , kept]) => kept);
const FORMATS = ['csv', 'ndjson', 'parquet'] as const;
const TEXT_FIELDS = ['domain', 'category', 'plan'] as const;

type Account = { store_id: string } & Record<(typeof TEXT_FIELDS)[number], string | null>;

/** Writes `rows` as `<name>.<format>` in `dir`, every value text (a Parquet file's columns VARCHAR). */
async function writeRows(duck: Duck, dir: string, name: string, format: (typeof FORMATS)[number], columns: string[], rows: Record<string, string>[]): Promise<void> {
  const ndjson = path.join(dir, `${name}.ndjson`);
  if (format === 'csv') {
    await writeFile(path.join(dir, `${name}.csv`), stringify(rows, { header: true, columns, quoted: true }));
    return;
  }
  await writeFile(ndjson, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
  if (format === 'ndjson') return;
  const parquet = path.join(dir, `${name}.parquet`);
  await duck.run(
    `COPY (SELECT * FROM read_json(${lit(ndjson)}, format = 'newline_delimited', columns = {${columns.map((c) => `${lit(c)}: 'VARCHAR'`).join(', ')}})) TO ${lit(parquet)} (FORMAT parquet)`,
  );
  await rm(ndjson);
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`text through every door (${d.label})`, () => {
    const doors = useDoors(d.name);
    let duck: Duck;
    /** door ⇒ each case's [domain, category, plan] as GET /accounts answers them */
    const accounts: Record<string, (string | null)[][]> = {};
    /** format ⇒ each case's [name, role, source] as the contact source's suggestion answers them */
    const suggested: Record<string, (string | null)[][]> = {};
    /** the cases whose role, given to discover's `roles` as the file wrote it, found no suggestion */
    const unmatchedRoles: string[] = [];

    beforeAll(async () => {
      duck = await openDuck({ threads: 1 });
    });
    afterAll(() => duck?.close());

    const listed = async (key: string): Promise<Map<string, Account>> => {
      const r = await call(doors.h.base, 'GET', '/accounts?filter=all&limit=200', { key });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      return new Map((r.body.data as Account[]).map((a) => [a.store_id, a]));
    };

    it('keeps a store text alike through accounts import and the panel in every format', async () => {
      const { h, run, dirs, wsId, key } = doors;
      const file = path.join(await dirs.make(), 'accounts.ndjson');
      await writeFile(file, CASES.map(([, given], i) => `${JSON.stringify({ store_id: `imp-${i}`, score: 0.5, domain: given, category: given, plan: given })}\n`).join(''));
      const imported = await run('accounts', 'import', file, '--workspace', wsId);
      expect(imported.code, imported.stderr).toBe(0);
      const importedRows = await listed(key);
      accounts.import = CASES.map((_, i) => TEXT_FIELDS.map((f) => importedRows.get(`imp-${i}`)![f]));

      for (const format of FORMATS) {
        const dir = await dirs.make();
        const [panel, out, runs] = ['panel', 'out', 'runs'].map((p) => path.join(dir, p));
        await mkdir(panel);
        const stores = CASES.map(([, given], i) => base(`${format}-${i}`, { domain: given, category: given, plan: given }) as Record<string, string>);
        await writeRows(duck, panel, '2026-01', format, PANEL_COLUMNS.map((c) => c.name), stores);
        const contacts = CASES.map(([, given], i) => ({ store_id: `${format}-${i}`, email: `c${i}@${format}.example`, name: given, role: given, source: given }));
        await writeRows(duck, panel, 'contacts', format, ['store_id', 'email', 'name', 'role', 'source'], contacts);
        await publishPanel(panel, out, { runs });
        await ingestRuns(h.db, runs, { now: () => FIXED_NOW });
        // A workspace of its own, ranked from this format's stores (the next format's ingest replaces them).
        const ws = await workspace(h.db);
        const wsKey = await apiKey(h.db, ws.id, SCOPES);
        await refreshWorkspace(h.db, ws.id, h.clock.now());
        const rows = await listed(wsKey);
        accounts[format] = CASES.map((_, i) => TEXT_FIELDS.map((f) => (rows.has(`${format}-${i}`) ? rows.get(`${format}-${i}`)![f] : `(no account ${format}-${i})`)));
        suggested[format] = [];
        for (const i of CASES.keys()) {
          const r = await call(h.base, 'POST', '/contacts/discover', { key: wsKey, idem: freshIdem(), body: { store_id: `${format}-${i}` } });
          expect(r.status, JSON.stringify(r.body)).toBe(200);
          const [s] = r.body.data as { name: string | null; role: string | null; source: string | null }[];
          suggested[format].push([s!.name, s!.role, s!.source]);
          // The discover filter `roles`, given the role as the file wrote it, finds the suggestion.
          if (CASES[i]![2] !== null) {
            const byRole = await call(h.base, 'POST', '/contacts/discover', { key: wsKey, idem: freshIdem(), body: { store_id: `${format}-${i}`, roles: [CASES[i]![1]] } });
            if (byRole.body.data?.length !== 1) unmatchedRoles.push(`${format}: ${CASES[i]![0]}`);
          }
        }
      }
      expect(unmatchedRoles).toEqual([]);
      const expected = KEPT.map((k) => [k, k, k]);
      expect(accounts).toEqual({ import: expected, csv: expected, ndjson: expected, parquet: expected });
    });

    it('keeps a contact text alike through the contact source in every format, REST and the tools, or refuses it naming the field', async () => {
      const { h, key, assistant } = doors;
      const expected = KEPT.map((k) => [k, k, k]);
      expect(suggested).toEqual({ csv: expected, ndjson: expected, parquet: expected });

      const answered: Record<'rest' | 'mcp' | 'patch' | 'listed', (string | null)[][]> = { rest: [], mcp: [], patch: [], listed: [] };
      const refused = (kept: string | null) => [kept, kept];
      for (const [i, [, given, kept]] of CASES.entries()) {
        const body = { store_id: 'imp-0', email: `rest${i}@x.example`, name: given, role: given };
        const rest = await call(h.base, 'POST', '/contacts', { key, idem: freshIdem(), body });
        const tool = await assistant.callTool({ name: 'add_contact', arguments: { ...body, email: `mcp${i}@x.example` } });
        const blank = await call(h.base, 'POST', '/contacts', { key, idem: freshIdem(), body: { store_id: 'imp-0', email: `patch${i}@x.example` } });
        expect(blank.status, JSON.stringify(blank.body)).toBe(201);
        const patch = await call(h.base, 'PATCH', `/contacts/${blank.body.id}`, { key, idem: freshIdem(), body: { name: given, role: given } });
        if (kept === null) {
          // The field is optional: no value is said by leaving it out, and only blanks is refused.
          expect([rest.status, rest.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, ['name', 'role']]);
          expect([tool.isError, toolJson(tool).errors?.map((e: { path: string }) => e.path)]).toEqual([true, ['name', 'role']]);
          expect([patch.status, patch.body.errors?.map((e: { path: string }) => e.path)]).toEqual([400, ['name', 'role']]);
          for (const door of Object.values(answered)) door.push(refused(kept));
          continue;
        }
        expect(rest.status, JSON.stringify(rest.body)).toBe(201);
        expect(tool.isError ?? false, JSON.stringify(toolJson(tool))).toBe(false);
        expect(patch.status, JSON.stringify(patch.body)).toBe(200);
        answered.rest.push([rest.body.name, rest.body.role]);
        answered.mcp.push([toolJson(tool).name, toolJson(tool).role]);
        answered.patch.push([patch.body.name, patch.body.role]);
        const got = await call(h.base, 'GET', `/contacts?email=${encodeURIComponent(`mcp${i}@x.example`)}`, { key });
        answered.listed.push([got.body.data[0]?.name, got.body.data[0]?.role]);
      }
      const two = KEPT.map((k) => [k, k]);
      expect(answered).toEqual({ rest: two, mcp: two, patch: two, listed: two });
    });
  });
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`a store text asked for as the panel file wrote it (${d.label})`, () => {
    const doors = useDoors(d.name);
    // What a person copies from the panel file (a decomposed é, blanks around it) finds the
    // store the panel kept (NFC, trimmed): at the list's filters, in the tool and in the profile.
    const CATEGORY = '\u00a0Cafe\u0301 ';
    const PLAN = ' Plu\u0301s\u3000';

    it('finds it with the list filters (REST and the tool) and sees it through a workspace profile', async () => {
      const { h, run, dirs } = doors;
      const duck = await openDuck({ threads: 1 });
      const dir = await dirs.make();
      const [panel, out, runs] = ['panel', 'out', 'runs'].map((p) => path.join(dir, p));
      await mkdir(panel);
      const stores = [base('cafe-1', { category: CATEGORY, plan: PLAN }), base('toys-1', { category: 'Toys', plan: 'Basic' })] as Record<string, string>[];
      await writeRows(duck, panel, '2026-01', 'csv', PANEL_COLUMNS.map((c) => c.name), stores);
      duck.close();
      await publishPanel(panel, out, { runs });
      await ingestRuns(h.db, runs, { now: () => FIXED_NOW });
      const ws = await workspace(h.db);
      const key = await apiKey(h.db, ws.id, SCOPES);
      const assistant = await SDKS[0]!.connect(h.base, key);
      try {
        const profile = await run('workspaces', 'profile', '--workspace', ws.id, '--as', 'owner@example.com', '--categories', CATEGORY, '--plans', PLAN);
        expect(profile.code, profile.stderr).toBe(0);
        expect(profile.stderr).toBe('');
        expect((await getProfile(h.db.kysely, ws.id)).profile).toEqual({ categories: ['Caf\u00e9'], plans: ['Pl\u00fas'] });
        const one = await run('workspaces', 'profile', '--workspace', ws.id, '--as', 'owner@example.com', '--category', CATEGORY);
        expect(one.code, one.stderr).toBe(0);
        expect((await getProfile(h.db.kysely, ws.id)).profile).toEqual({ categories: ['Caf\u00e9'] });
        await refreshWorkspace(h.db, ws.id, h.clock.now());
        const ids = (r: { body: { data: { store_id: string }[] } }) => r.body.data.map((a) => a.store_id);
        expect(ids(await call(h.base, 'GET', '/accounts?filter=all', { key }))).toEqual(['cafe-1']);
        const byCategory = await call(h.base, 'GET', `/accounts?filter=all&category=${encodeURIComponent(CATEGORY)}`, { key });
        const byPlan = await call(h.base, 'GET', `/accounts?filter=all&plan=${encodeURIComponent(PLAN)}`, { key });
        expect([byCategory.status, ids(byCategory), byPlan.status, ids(byPlan)]).toEqual([200, ['cafe-1'], 200, ['cafe-1']]);
        const tool = await assistant.callTool({ name: 'list_accounts', arguments: { filter: 'all', category: CATEGORY, plan: PLAN } });
        expect(toolJson(tool).data.map((a: { store_id: string }) => a.store_id)).toEqual(['cafe-1']);
        // Only blanks is no category: refused, naming the filter, as the other doors refuse it.
        const blank = await call(h.base, 'GET', `/accounts?filter=all&category=${encodeURIComponent('\u00a0 ')}`, { key });
        expect([blank.status, blank.body.errors]).toEqual([400, [{ path: 'category', message: 'must not be empty or only spaces' }]]);
      } finally {
        await assistant.close();
      }
    });
  });
}

describe('the text rule in JavaScript and in SQL', () => {
  let duck: Duck;
  beforeAll(async () => {
    duck = await openDuck({ threads: 1 });
  });
  afterAll(() => duck?.close());

  // Blanks and white space of every kind, line breaks, combining marks and what composes with
  // them, Hangul jamo, astral characters, and any code point at all.
  const unit = fc.oneof(
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        ' ', '\t', '\n', '\r', '\r\n', '\u000b', '\u000c', '\u0085', '\u00a0', '\u1680', '\u180e', '\u2000', '\u2001', '\u2007', '\u200a', '\u200b',
        '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff', 'e', 'E', '\u0301', '\u0308', '\u00e9', '\u212b', '\u1100', '\u1161', '\u11a8', '\u{1F600}', 'a',
      ),
    },
    { weight: 1, arbitrary: fc.string({ unit: 'binary', minLength: 1, maxLength: 1 }).filter((s) => s !== '\0') },
  );

  it('gives the same value for any text', async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ unit, maxLength: 12 }), async (s) => {
        // Compared as UTF-8 bytes: the DuckDB client drops a byte order mark that begins a text it reads back.
        const [row] = (await duck.conn.runAndReadAll(`SELECT hex(${keptTextSql('$1::VARCHAR')}) AS kept`, [s])).getRowObjectsJson() as { kept: string | null }[];
        const kept = keptText(s);
        expect(kept === null ? null : Buffer.from(kept).toString('hex').toUpperCase()).toBe(row!.kept);
      }),
      { numRuns: 2000 },
    );
  });
});
