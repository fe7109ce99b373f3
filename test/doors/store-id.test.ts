/**
 * A store id through every door: `storelens accounts import` (a real file), and the API over REST
 * (a real socket) and through the assistant's tools (the MCP SDK client over HTTP), both naming
 * an account (`get_account`) and writing on one (`create_deal`). An id one door keeps is found
 * as it is by the others; an id no door keeps is refused by each, in the same words, naming the
 * field.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, freshIdem } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { useDoors } from '../helpers/doors.js';
import { toolJson } from '../helpers/mcp.js';

// A tab is no blank to the panel (core/text.ts): an id of one is an id there, and at every door.
const KEPT = [' shop-1 ', '\t', 'Cafe\u0301', 'Caf\u00e9', '00123', 's'.repeat(500), '\u00e9'.repeat(500), '\u{1F6CD}'.repeat(250), 'a/b?c#d%e'];
const REFUSED: [what: string, given: string, said: RegExp][] = [
  ['only spaces', '   ', /^must not be empty or only spaces$/],
  ['only blanks the panel trims', '\u00a0\u3000', /^must not be empty or only spaces$/],
  ['a spreadsheet\'s scientific notation', '1.23457E+11', /is a number in scientific notation, as a spreadsheet saves a long id/],
  ['501 characters', 's'.repeat(501), /^must be at most 500 characters$/],
];

for (const d of dialects) {
  describe.skipIf(d.skip)(`a store id through every door (${d.label})`, () => {
    const doors = useDoors(d.name);

    const importFile = async (...ids: string[]) => {
      const file = path.join(await doors.dirs.make(), 'accounts.ndjson');
      await writeFile(file, ids.map((store_id) => `${JSON.stringify({ store_id, score: 0.5 })}\n`).join(''));
      return { file, r: await doors.run('accounts', 'import', file, '--workspace', doors.wsId) };
    };

    it('keeps every character of an id at every door: what import kept, REST and the tools find as it is', async () => {
      const { h, key, assistant } = doors;
      const { r } = await importFile(...KEPT);
      expect(r.code, r.stderr).toBe(0);
      for (const id of KEPT) {
        const rest = await call(h.base, 'GET', `/accounts/${encodeURIComponent(id)}`, { key });
        expect([rest.status, rest.body.store_id], JSON.stringify(id)).toEqual([200, id]);
        const tool = await assistant.callTool({ name: 'get_account', arguments: { store_id: id } });
        expect([tool.isError ?? false, toolJson(tool).store_id]).toEqual([false, id]);
        const deal = await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: id, title: 'Relaunch' } });
        expect([deal.status, deal.body.store_id]).toEqual([201, id]);
      }
    });

    it.each(REFUSED)('refuses %s at every door in the same words', async (_what, given, said) => {
      const { h, key, assistant } = doors;
      const { file, r } = await importFile(given);
      expect(r.code).toBe(2);
      expect(r.stderr.startsWith(`storelens: ${file}: line 1: field store_id: `), r.stderr).toBe(true);
      expect(r.stderr.slice(`storelens: ${file}: line 1: field store_id: `.length).trimEnd()).toMatch(said);

      const deal = await call(h.base, 'POST', '/deals', { key, idem: freshIdem(), body: { store_id: given, title: 'Relaunch' } });
      expect([deal.status, deal.body.type]).toEqual([400, 'https://storelens.dev/problems/invalid-body']);
      expect(deal.body.errors).toEqual([{ path: 'store_id', message: expect.stringMatching(said) }]);
      const account = await call(h.base, 'GET', `/accounts/${encodeURIComponent(given)}`, { key });
      expect([account.status, account.body.errors]).toEqual([400, [{ path: 'store_id', message: expect.stringMatching(said) }]]);
      for (const [name, args] of [['create_deal', { store_id: given, title: 'Relaunch' }], ['get_account', { store_id: given }]] as const) {
        const tool = await assistant.callTool({ name, arguments: args });
        expect([tool.isError, toolJson(tool).errors], name).toEqual([true, [{ path: 'store_id', message: expect.stringMatching(said) }]]);
      }
    });
  });
}
