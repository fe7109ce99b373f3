/**
 * An upgrade that changes how the same data makes a store's inputs (INPUTS_FORM in
 * accounts/refresh.ts: 2 since a size is kept to four decimals) makes the first refresh after it
 * a full one: every account's evidence is written again, so its contributions still add up to
 * the logit, rather than the evidence the version before wrote being carried beside logits the
 * new inputs make.
 */
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rowsEvidence } from '../../src/accounts/evidence.js';
import { insertOutcome } from '../../src/accounts/outcomes-store.js';
import { currentRows } from '../../src/accounts/ranking-reads.js';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { seedSixtyStores } from '../helpers/accounts.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

const NOW = new Date('2026-11-01T00:00:00Z');

for (const d of dialects) {
  describe.skipIf(d.skip)(`a refresh after the inputs' form changed, on ${d.label}`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await freshDb(d.name);
      await seedSixtyStores(t.db);
    });
    afterAll(async () => t?.cleanup());

    it('writes again the evidence a workspace scored by the version before kept', async () => {
      const ws = await createWorkspace(t.db.kysely, 'upgrade', NOW);
      await refreshWorkspace(t.db, ws.id, NOW);
      // As the version before left it: its data stamp (the generation and the profile, no form),
      // and each size's x at full precision rather than four decimals.
      const stored = await t.db.kysely.selectFrom('workspace_models').select('model').where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
      const before = createHash('sha256').update(JSON.stringify(['2026-10=run-2026-10', null])).digest('hex');
      await t.db.kysely.updateTable('workspace_models').set({ model: JSON.stringify({ ...JSON.parse(stored.model), data_stamp: before }) }).where('workspace_id', '=', ws.id).execute();
      const details = await t.db.kysely.selectFrom('ranking_details').select(['gen', 'store_id', 'evidence']).where('workspace_id', '=', ws.id).execute();
      let sizes = 0;
      for (const r of details) {
        const items = (JSON.parse(r.evidence) as unknown[]).map((it) => (Array.isArray(it) && it.length === 3 && String(it[0]).startsWith('size:') ? (sizes++, [it[0], Number(it[1]) + 0.0000321, it[2]]) : it));
        await t.db.kysely.updateTable('ranking_details').set({ evidence: JSON.stringify(items) }).where('workspace_id', '=', ws.id).where('gen', '=', r.gen).where('store_id', '=', r.store_id).execute();
      }
      expect(sizes).toBeGreaterThan(50);

      // An outcome: a refit on the same data.
      await t.db.write((trx) =>
        insertOutcome(trx, {
          id: 'out_upgrade', workspace_id: ws.id, api_key_id: 'k', store_id: 'st03', action: 'won', value: null, occurred_at: null, note: null,
          lost_reason: null, lost_reason_other: null, recorded_at: new Date(NOW.getTime() + 60_000).toISOString(),
        }),
      );
      expect((await refreshWorkspace(t.db, ws.id, new Date(NOW.getTime() + 120_000))).refreshed).toBe(true);

      const rows = await currentRows(t.db.kysely, ws.id);
      const evidence = await rowsEvidence(t.db.kysely, ws.id, rows);
      expect(rows).toHaveLength(60);
      rows.forEach((r, k) => {
        const sum = (evidence[k] as unknown as { contribution: number }[]).reduce((s, e) => s + e.contribution, 0);
        expect(Math.abs(sum - Number(r.logit))).toBeLessThan(1e-9);
      });
    });
  });
}
