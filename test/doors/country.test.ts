/**
 * A country through every door that takes one: `storelens accounts import` (a real file), the
 * accounts list's `country` filter over REST (a real socket) and through the assistant's tool
 * (the MCP SDK client over HTTP), and `storelens workspaces profile --countries`. The panel reads
 * a country the same way in SQL (test/panel covers it). A code in either case is one country to
 * every door; anything else is refused by every door, naming the field.
 */
import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { getProfile } from '../../src/accounts/profile-store.js';
import { call } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { useDoors } from '../helpers/doors.js';
import { toolJson } from '../helpers/mcp.js';

/** Given ⇒ the country every door reads, or null when every door refuses it. */
const CASES: [given: string, country: string | null][] = [
  ['GB', 'GB'],
  ['gb', 'GB'],
  ['Gb', 'GB'],
  [' gb ', 'GB'],
  // The blanks the panel trims (a no-break space, an ideographic space), and only those: a tab is
  // kept by the panel, and "\tgb" is no code there.
  ['\u00a0gb\u3000', 'GB'],
  ['\tgb', null],
  ['Germany', null],
  ['G', null],
  ['G1', null],
];

for (const d of dialects) {
  describe.skipIf(d.skip)(`a country through every door (${d.label})`, () => {
    const doors = useDoors(d.name);

    it.each(CASES)('%j is read as %j by every door', async (given, country) => {
      const { h, key, wsId, assistant, run, dirs } = doors;
      const file = path.join(await dirs.make(), 'accounts.ndjson');
      await writeFile(file, `${JSON.stringify({ store_id: 'shop-1', score: 0.5, country: given })}\n${JSON.stringify({ store_id: 'shop-2', score: 0.4, country: 'US' })}\n`);
      const imported = await run('accounts', 'import', file, '--workspace', wsId);
      const rest = await call(h.base, 'GET', `/accounts?filter=all&country=${encodeURIComponent(given)}`, { key });
      const tool = await assistant.callTool({ name: 'list_accounts', arguments: { filter: 'all', country: given } });
      const profile = await run('workspaces', 'profile', '--workspace', wsId, '--as', 'owner@example.com', '--countries', given);

      if (country !== null) {
        expect(imported.code, imported.stderr).toBe(0);
        expect((await call(h.base, 'GET', '/accounts/shop-1', { key })).body).toMatchObject({ store_id: 'shop-1', country });
        expect([rest.status, rest.body.data.map((a: { store_id: string }) => a.store_id)]).toEqual([200, ['shop-1']]);
        expect([tool.isError ?? false, toolJson(tool).data.map((a: { store_id: string }) => a.store_id)]).toEqual([false, ['shop-1']]);
        expect(profile.code, profile.stderr).toBe(0);
        expect((await getProfile(h.db.kysely, wsId)).profile).toEqual({ countries: [country] });
        return;
      }
      expect(imported.code).toBe(2);
      expect(imported.stderr).toMatch(/accounts\.ndjson: line 1: field country: must be a two-letter ISO 3166-1 country code/);
      expect([rest.status, rest.body.errors]).toEqual([400, [{ path: 'country', message: expect.stringMatching(/^must be a two-letter ISO 3166-1 country code/) }]]);
      expect([tool.isError, toolJson(tool).errors]).toEqual([true, [{ path: 'country', message: expect.stringMatching(/^must be a two-letter ISO 3166-1 country code/) }]]);
      expect(profile.code).toBe(2);
      expect(profile.stderr).toMatch(/--countries: .* must be a two-letter ISO 3166-1 country code/);
    });
  });
}
