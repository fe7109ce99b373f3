/**
 * `storelens accounts import`, the door of scores made elsewhere: every line is checked against
 * the account row contract, and what it imports is served in the declared shape — over REST (with
 * response validation on) and through both MCP SDK lines, whose clients check each answer against
 * the tool's output schema. The file imported is the example of docs/administration.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client as Sdk1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as Sdk1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { countAccounts } from '../../src/accounts/store.js';
import { parseAccountsNdjson } from '../../src/commands/admin-accounts.js';
import { seedRun } from '../helpers/accounts.js';
import { apiKey, call, startApi, type Harness } from '../helpers/api.js';
import { adminCli } from '../helpers/cli.js';
import { dialects } from '../helpers/db.js';
import { mcpClient, toolJson } from '../helpers/mcp.js';
import { suiteTempDir } from '../helpers/tmp.js';

const section = (() => {
  const guide = readFileSync(new URL('../../docs/administration.md', import.meta.url), 'utf8');
  return guide.slice(guide.indexOf('### `storelens accounts import <file>`'));
})();
/** The code block of the import section of docs/administration.md that starts with `opening`. */
function documented(opening: string): string {
  const block = [...section.matchAll(/```(?:json)?\n([\s\S]*?)```/g)].map((m) => m[1]!).find((b) => b.startsWith(opening));
  if (!block) throw new Error(`docs/administration.md: no block starting ${opening} under the accounts import heading`);
  return block;
}

const logit = (p: number) => Math.log(p / (1 - p));
const sum = (items: { contribution: number }[]) => items.reduce((s, e) => s + e.contribution, 0);

describe('an import line', () => {
  const refusal = (line: string) => {
    try {
      parseAccountsNdjson('f.ndjson', `{"store_id":"ok","score":0.5}\n${line}\n`);
    } catch (e) {
      return (e as Error).message;
    }
    return 'accepted';
  };

  it('becomes the declared evidence, whatever documented shape its reasons take', () => {
    const [a] = parseAccountsNdjson(
      'f.ndjson',
      '{"store_id":"s","score":0.5,"evidence":[{"signal":"ad_channel_started","detail":"TikTok","month":"2026-09"},{"feature":"plus_plan"},{"kind":"feature","key":"country:US","detail":"Based in US"}]}',
    );
    expect(a!.evidence).toEqual([
      { kind: 'signal', key: 'signal:ad_channel_started', detail: 'Ad channel started: TikTok', month: '2026-09' },
      { kind: 'feature', key: 'plus_plan', detail: 'plus_plan' },
      { kind: 'feature', key: 'country:US', detail: 'Based in US' },
    ]);
  });

  it.each([
    ['a score outside [0, 1]', '{"store_id":"s","score":87}', /line 2: field score: must be between 0 and 1 .*divide a 0–100 score by 100/],
    // Was "Invalid input: expected number, received undefined", zod's words for a field left out.
    ['no score', '{"store_id":"s"}', /line 2: field score: required$/],
    ['an evidence item without its key', '{"store_id":"s","score":0.5,"evidence":[{"kind":"signal","detail":"d"}]}', /line 2: field evidence\.0\.key: required$/],
    ['a contribution', '{"store_id":"s","score":0.5,"evidence":[{"kind":"signal","key":"k","detail":"d","contribution":0.4}]}', /line 2: field evidence\.0: contribution: an imported score has no model weights/],
    ['an intercept term', '{"store_id":"s","score":0.5,"evidence":[{"kind":"intercept","key":"k","detail":"d"}]}', /line 2: field evidence\.0\.kind: must be "feature" or "signal"/],
    ['an unknown signal type', '{"store_id":"s","score":0.5,"evidence":[{"signal":"went_viral"}]}', /line 2: field evidence\.0\.signal: /],
    ['an item of no documented shape', '{"store_id":"s","score":0.5,"evidence":[{"reason":"liked us"}]}', /line 2: field evidence\.0: reason: not a member of an evidence item/],
    // Was "field (line): Unrecognized key: \"scroe\"", zod's words.
    ['a field the row contract does not have', '{"store_id":"s","score":0.5,"scroe":1}', /line 2: field scroe: not a field of an account line \(an account line has store_id, score, domain, country, category, plan, in_market, evidence\)$/],
    ['a month that is not YYYY-MM', '{"store_id":"s","score":0.5,"evidence":[{"signal":"traffic_up","month":"09/2026"}]}', /line 2: field evidence\.0\.month: must be a month YYYY-MM/],
  ])('is refused with its line and field for %s', (_what, line, message) => {
    expect(refusal(line)).toMatch(message);
  });

  it('takes a store id as long as the API and the panel do (500), and no longer', () => {
    // It stopped at 200: an account of the panel with a longer id could not be imported.
    expect(refusal(JSON.stringify({ store_id: 's'.repeat(500), score: 0.5 }))).toBe('accepted');
    expect(refusal(JSON.stringify({ store_id: 's'.repeat(501), score: 0.5 }))).toMatch(/line 2: field store_id: must be at most 500 characters/);
  });

  it('keeps country, category, plan and domain as the panel types them, so both doors read alike', () => {
    // Kept as written, "gb" and " home " were served as such and no `country=GB` or
    // `category=home` filter ever found the account.
    const [a] = parseAccountsNdjson('f.ndjson', JSON.stringify({ store_id: 's', score: 0.5, country: ' gb ', category: ' Cafe\u0301 ', plan: 'plus ', domain: ' shop.example ' }));
    expect(a).toMatchObject({ country: 'GB', category: 'Caf\u00e9', plan: 'plus', domain: 'shop.example' });
    const [b] = parseAccountsNdjson('f.ndjson', JSON.stringify({ store_id: 's', score: 0.5, country: '', category: '  ', plan: null }));
    expect(b).toMatchObject({ country: null, category: null, plan: null });
  });

  it('measures category, plan and domain once kept: the blanks trimmed off count for nothing', () => {
    // Measured as written, a category of 200 characters padded with spaces was refused ("must be
    // at most 200 characters") though it is kept as 200 characters.
    const padded = { store_id: 's', score: 0.5, category: `  ${'c'.repeat(200)}  `, plan: `\u00a0${'p'.repeat(100)} `, domain: ` ${'d'.repeat(253)}` };
    expect(refusal(JSON.stringify(padded))).toBe('accepted');
    expect(refusal(JSON.stringify({ store_id: 's', score: 0.5, category: ` ${'c'.repeat(201)} ` }))).toMatch(/line 2: field category: must be at most 200 characters$/);
  });

  it.each([
    ['a country name', '{"store_id":"s","score":0.5,"country":"United Kingdom"}', /line 2: field country: must be a two-letter ISO 3166-1 country code, e.g\. US or GB .*got "United Kingdom"/],
    ['a store id of only spaces', '{"store_id":"   ","score":0.5}', /line 2: field store_id: must not be empty or only spaces/],
  ])('is refused with its line and field for %s, as the panel refuses it', (_what, line, message) => {
    expect(refusal(line)).toMatch(message);
  });

  it('takes a whole-number store id as its digits, as the panel and the contact source take it', () => {
    // Refused ("expected string, received number"): a CRM export of numeric store ids could not be
    // imported, though the panel and the contact file read the same line as the id "12345".
    const [a] = parseAccountsNdjson('f.ndjson', '{"store_id":12345,"score":0.5}');
    expect(a!.store_id).toBe('12345');
  });

  it.each([
    // Taken as written, "1.23457E+11" became an account no panel store ever matched.
    ['an id a spreadsheet wrote in scientific notation', '{"store_id":"1.23457E+11","score":0.5}', /line 2: field store_id: "1\.23457E\+11" is a number in scientific notation, .*export the store ids as text/],
    ['a number with a fraction', '{"store_id":12.5,"score":0.5}', /line 2: field store_id: a number with a fraction \(12\.5\) is no store id/],
    ['a number past 2^53, already rounded', '{"store_id":12345678901234567890,"score":0.5}', /line 2: field store_id: a number too large to read exactly/],
  ])('refuses %s as a store id, as the panel and the contact source do', (_what, line, message) => {
    expect(refusal(line)).toMatch(message);
  });

  it('is refused when its store_id is already on an earlier line, naming both lines', () => {
    expect(refusal('{"store_id":"ok","score":0.7}')).toBe('f.ndjson: line 2: field store_id: duplicate store_id "ok" (first at line 1); an account appears once per file');
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`the documented import, served on ${d.label}`, () => {
    let h: Harness;
    let key: string;
    let wsId: string;
    const dir = suiteTempDir('storelens-import-');
    const run = adminCli(() => h.t);

    beforeAll(async () => {
      h = await startApi(d.name);
      const ws = await run('workspaces', 'create', 'acme', '--json');
      expect(ws.code).toBe(0);
      await run('members', 'add', '--workspace', 'acme', '--email', 'owner@example.com', '--role', 'owner');
      wsId = (ws.json as { id: string }).id;
      const file = join(dir, 'accounts.ndjson');
      writeFileSync(file, documented('{"store_id"'));
      const r = await run('accounts', 'import', file, '--workspace', 'acme', '--json');
      expect(r.stderr).toBe('');
      expect(r.json).toEqual({ workspace_id: wsId, imported: 4, inserted: 4, updated: 0 });
      key = await apiKey(h.db, wsId, ['read:accounts']);
    });
    afterAll(async () => {
      await h?.close();
    });

    it('answers the imported rows over REST in the declared shape, their contributions adding up to the logit', async () => {
      const page = await call(h.base, 'GET', '/accounts?filter=all', { key });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      const top = page.body.data[0];
      expect(top).toMatchObject({ store_id: 'shop-1001', score: 0.91, logit_sd: null, score_interval: null, model_version: 0 });
      expect(top.logit).toBeCloseTo(logit(0.91), 12);
      expect(top.evidence).toEqual([
        { kind: 'intercept', key: 'imported', detail: expect.stringContaining('imported'), contribution: top.logit },
        { kind: 'signal', key: 'signal:agentic_feature_adopted', detail: 'Agentic feature adopted: llms_txt', contribution: 0 },
      ]);
      for (const row of page.body.data) expect(sum(row.evidence)).toBeCloseTo(row.logit, 12);
      // As the guide shows the row.
      const shown = JSON.parse(documented('{"object":"account"'));
      expect({ ...top, updated_at: shown.updated_at }).toEqual(shown);
      const one = await call(h.base, 'GET', '/accounts/shop-1001', { key });
      expect(one.status).toBe(200);
      expect(one.body.evidence).toEqual(top.evidence);
    });

    it('lists and reads them through MCP SDK 1.x, whose client checks them against the output schema', async () => {
      const client = new Sdk1Client({ name: 'sdk1-import', version: '1.0.0' });
      await client.connect(new Sdk1Transport(new URL(`${h.base}/mcp`), { requestInit: { headers: { authorization: `Bearer ${key}` } } }));
      try {
        await client.listTools();
        const list = await client.callTool({ name: 'list_accounts', arguments: { filter: 'all' } });
        expect(list.isError).toBeFalsy();
        expect((list.structuredContent as { data: { store_id: string }[] }).data.map((r) => r.store_id)).toEqual(['shop-1001', 'shop-1002', 'shop-1003', 'shop-1004']);
        const one = await client.callTool({ name: 'get_account', arguments: { store_id: 'shop-1001' } });
        expect(one.isError).toBeFalsy();
        expect(one.structuredContent).toEqual(toolJson(one as { content?: unknown }));
      } finally {
        await client.close();
      }
    });

    it('lists and reads them through MCP SDK 2.x', async () => {
      const { client, close } = await mcpClient(h.base, { key });
      try {
        await client.listTools();
        const list = await client.callTool({ name: 'list_accounts', arguments: { filter: 'all', limit: 2 } });
        expect(list.isError).toBeFalsy();
        const one = await client.callTool({ name: 'get_account', arguments: { store_id: 'shop-1004' } });
        expect(one.isError).toBeFalsy();
        expect(toolJson(one)).toMatchObject({ store_id: 'shop-1004', in_market: false, evidence: [{ kind: 'intercept', key: 'imported' }] });
      } finally {
        await close();
      }
    });

    it('refuses a file with one bad line and imports nothing of it', async () => {
      const file = join(dir, 'scores-0-100.ndjson');
      writeFileSync(file, '{"store_id":"new-1","score":0.5}\n{"store_id":"new-2","score":87}\n');
      const r = await run('accounts', 'import', file, '--workspace', 'acme');
      expect(r.code).toBe(2);
      expect(r.stderr).toContain('scores-0-100.ndjson: line 2: field score: must be between 0 and 1');
      expect(await countAccounts(h.db.kysely, wsId)).toBe(4);
    });

    it('refuses a line that is not UTF-8 or holds U+0000, naming line and field, and imports nothing of it', async () => {
      // Read with replacement, Latin-1's é became U+FFFD in a store id, imported without a word;
      // U+0000 was imported on SQLite and failed PostgreSQL's insert with no line named.
      const latin1 = join(dir, 'latin1.ndjson');
      writeFileSync(latin1, Buffer.concat([Buffer.from('{"store_id":"new-1","score":0.5}\n'), Buffer.from('{"store_id":"caf\u00e9-2","score":0.5}\n', 'latin1')]));
      const nul = join(dir, 'nul.ndjson');
      writeFileSync(nul, '{"store_id":"new-1","score":0.5}\n{"store_id":"new-2","score":0.5,"category":"a\\u0000b"}\n');
      const bom = join(dir, 'bom.ndjson');
      writeFileSync(bom, '\ufeff{"store_id":"new-1","score":0.5}\n');
      for (const [file, message] of [
        [latin1, 'latin1.ndjson: line 2: not UTF-8 encoded'],
        [nul, 'nul.ndjson: line 2: field category: must not contain U+0000'],
        [bom, 'bom.ndjson: line 1: the file starts with a byte order mark (BOM)'],
      ] as const) {
        const r = await run('accounts', 'import', file, '--workspace', 'acme');
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(message);
      }
      expect(await countAccounts(h.db.kysely, wsId)).toBe(4);
    });

    it("says a CSV export (a CRM's, or Excel's with its BOM, CRLF and semicolons) is CSV, not NDJSON, and imports nothing of it", async () => {
      const crm = join(dir, 'crm.csv');
      writeFileSync(crm, 'store_id,score,domain\nshop-9001,0.5,a.example\n');
      const excel = join(dir, 'excel.csv');
      writeFileSync(excel, '\ufeffStore ID;Score;Domain\r\nshop-9001;0,5;a.example\r\n');
      const other = join(dir, 'other.csv');
      writeFileSync(other, '\nCompany,Domain,Score\nA,a.example,0.5\n');
      for (const [file, header, n] of [
        [crm, 'store_id,score,domain', 1],
        [excel, 'Store ID;Score;Domain', 1],
        [other, 'Company,Domain,Score', 2],
      ] as const) {
        const r = await run('accounts', 'import', file, '--workspace', 'acme');
        expect(r.code, r.stderr).toBe(2);
        expect(r.stderr).toContain(`line ${n}: a CSV header (${JSON.stringify(header)}), where the file is NDJSON: one JSON object per line`);
      }
      // A line of NDJSON that is not JSON is told where it goes wrong; one account is one account.
      const broken = join(dir, 'broken.ndjson');
      writeFileSync(broken, '{"store_id":"shop-9001","score":0.5}\n{"store_id":"shop-9002", score:0.5}\n');
      const r = await run('accounts', 'import', broken, '--workspace', 'acme');
      expect(r.stderr).toContain('broken.ndjson: line 2: not valid JSON (at character 26)');
      expect(await countAccounts(h.db.kysely, wsId)).toBe(4);
      const one = join(dir, 'one.ndjson');
      writeFileSync(one, '{"store_id":"shop-1001","score":0.91}\n');
      expect((await run('accounts', 'import', one, '--workspace', 'acme')).stdout).toBe('Imported 1 account into acme (0 new, 1 updated)\n');
    });

    it('refuses a file that lists one store_id on two lines, naming both, and imports nothing of it', async () => {
      const file = join(dir, 'merged.ndjson');
      writeFileSync(file, '{"store_id":"new-1","score":0.5}\n\n{"store_id":"new-2","score":0.4}\n{"store_id":"new-1","score":0.6}\n{"store_id":"new-1","score":0.7}\n');
      for (const json of [['--json'], []]) {
        const r = await run('accounts', 'import', file, '--workspace', 'acme', ...json);
        expect(r.code).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr).toContain('merged.ndjson: line 4: field store_id: duplicate store_id "new-1" (first at line 1)');
      }
      expect(await countAccounts(h.db.kysely, wsId)).toBe(4);
    });

    it('counts accounts, not lines, alike in --json and text: imported is inserted plus updated', async () => {
      const file = join(dir, 'again.ndjson');
      writeFileSync(file, '{"store_id":"shop-1001","score":0.92}\n{"store_id":"shop-2001","score":0.5}\n\n{"store_id":"shop-2002","score":0.4}\n');
      const r = await run('accounts', 'import', file, '--workspace', 'acme', '--json');
      expect(r.json).toEqual({ workspace_id: wsId, imported: 3, inserted: 2, updated: 1 });
      const text = await run('accounts', 'import', file, '--workspace', 'acme');
      expect(text.stdout).toBe('Imported 3 accounts into acme (0 new, 3 updated)\n');
      expect(await countAccounts(h.db.kysely, wsId)).toBe(6);
    });

    it('finds an account imported with a lower-case country and padded category by the list filters, as an ingested one', async () => {
      const file = join(dir, 'cased.ndjson');
      writeFileSync(file, '{"store_id":"cased-1","score":0.5,"country":"gb","category":" home ","plan":"grow "}\n');
      const r = await run('accounts', 'import', file, '--workspace', 'acme');
      expect(r.code, r.stderr).toBe(0);
      const page = await call(h.base, 'GET', '/accounts?filter=all&country=GB&category=home&plan=grow', { key });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      expect(page.body.data.map((a: { store_id: string }) => a.store_id)).toContain('cased-1');
      const one = await call(h.base, 'GET', '/accounts/cased-1', { key });
      expect(one.body).toMatchObject({ country: 'GB', category: 'home', plan: 'grow' });
    });

    it('warns, once store data is ingested, that the next re-ranking replaces the imported rows', async () => {
      // It printed "Imported 1 accounts" alone, and the rows were gone seconds later.
      await seedRun(h.db, '2026-03', 'run-import-warning', [{ store_id: 'ingested-1', country: 'US' }], []);
      const file = join(dir, 'after-ingest.ndjson');
      writeFileSync(file, '{"store_id":"late-1","score":0.5}\n');
      const r = await run('accounts', 'import', file, '--workspace', 'acme', '--json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ imported: 1 });
      expect(r.stderr).toContain('warning: this database holds ingested store data (2026-03 to 2026-03): the workspace\'s accounts are ranked from it, and the next re-ranking replaces the imported rows');
    });
  });
}
