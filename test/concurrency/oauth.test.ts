/**
 * OAuth records consumed by two processes at once: an authorization code or a refresh token is
 * consumed by one request only, so two token requests with one code never both get tokens.
 */
import { describe, expect, it } from 'vitest';
import { oauthAdapter } from '../../src/oauth/store.js';
import { dialects, useTwoHandles } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`OAuth records consumed on two handles of one ${d.label} database`, () => {
    const handles = useTwoHandles(d.name);

    it('lets one of two concurrent consumers of a code or refresh token consume it', async () => {
      const { t, other } = handles();
      for (const model of ['AuthorizationCode', 'RefreshToken']) {
        const here = new (oauthAdapter(t.db))(model);
        const there = new (oauthAdapter(other))(model);
        await here.upsert('grant-1', { grantId: 'g1', kind: model }, 600);
        const results = await Promise.all([here.consume('grant-1'), there.consume('grant-1'), here.consume('grant-1'), there.consume('grant-1')]);
        expect(results.filter((r) => r === true)).toHaveLength(1);
        expect((await here.find('grant-1'))?.consumed).toEqual(expect.any(Number));
      }
    });
  });
}
