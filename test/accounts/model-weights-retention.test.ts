import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { rowsEvidence } from '../../src/accounts/evidence.js';
import { insertOutcome } from '../../src/accounts/outcomes-store.js';
import { pageRanking } from '../../src/accounts/ranking-reads.js';
import { newId } from '../../src/db/ids.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { seedRun, type SeedSignal, type SeedStore } from '../helpers/accounts.js';

const T0 = Date.parse('2026-11-01T08:00:00Z');
const HOUR = 3_600_000;

async function won(db: Db, wsId: string, storeId: string, at: number) {
  await db.write((trx) =>
    insertOutcome(trx, {
      id: newId('out'), workspace_id: wsId, api_key_id: 'key_test', store_id: storeId, action: 'won', value: null, occurred_at: null, note: null,
      lost_reason: null, lost_reason_other: null, recorded_at: new Date(at).toISOString(),
    }),
  );
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the weights a kept ranking shows on ${d.label}`, () => {
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
      const stores: SeedStore[] = [];
      const signals: SeedSignal[] = [];
      for (let i = 0; i < 60; i++) {
        const id = `w${String(i).padStart(3, '0')}`;
        stores.push({ store_id: id, country: i % 2 ? 'US' : 'GB', category: i % 3 ? 'beauty' : 'toys', plan: 'grow', monthly_visits: 1000 + 10 * i, apps: ['klaviyo'], ads: i % 4 === 0 ? ['meta'] : [] });
        signals.push({ store_id: id, type: 'app_installed', subject: 'x', strength: 1, detail: 'Installed x' });
      }
      await seedRun(db, '2026-09', 'run-w-2026-09', stores, []);
      await seedRun(db, '2026-10', 'run-w-2026-10', stores, signals);
    });
    afterAll(async () => t?.cleanup());

    const versions = async (wsId: string) =>
      (await db.kysely.selectFrom('ranking_versions').select(['version', 'state']).where('workspace_id', '=', wsId).orderBy('version').execute()).map((v) => ({ version: Number(v.version), state: v.state }));

    it('weighs the evidence of a ranking superseded by a refit hours after its model, while a cursor may walk it', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, new Date(T0));
      const [first] = await versions(ws.id);
      // Two hours later an outcome refits the model: the first ranking is superseded now, and kept for an hour.
      await won(db, ws.id, 'w001', T0 + 2 * HOUR);
      expect(await refreshWorkspace(db, ws.id, new Date(T0 + 2 * HOUR))).toMatchObject({ refreshed: true, model_version: 2 });
      expect((await versions(ws.id)).find((v) => v.version === first.version)?.state).toBe('superseded');
      const rows = await pageRanking(db.kysely, ws.id, first.version, { inMarketOnly: false, limit: 1000 });
      expect(rows).toHaveLength(60);
      expect(rows.every((r) => Number(r.model_version) === 1)).toBe(true);
      const shown = (await rowsEvidence(db.kysely, ws.id, rows)) as { contribution?: number }[][];
      for (const [k, row] of rows.entries()) {
        expect(shown[k].every((e) => typeof e.contribution === 'number')).toBe(true);
        expect(shown[k].reduce((s, e) => s + e.contribution!, 0)).toBeCloseTo(Number(row.logit), 9);
      }
    });

    it('deletes the weights of a model once no kept ranking shows it', async () => {
      const ws = await workspace(db);
      await refreshWorkspace(db, ws.id, new Date(T0));
      await won(db, ws.id, 'w001', T0 + 2 * HOUR);
      await refreshWorkspace(db, ws.id, new Date(T0 + 2 * HOUR));
      // Over an hour after the first ranking was superseded, the next refit deletes it and its model's weights.
      await won(db, ws.id, 'w002', T0 + 3.5 * HOUR);
      expect(await refreshWorkspace(db, ws.id, new Date(T0 + 3.5 * HOUR))).toMatchObject({ refreshed: true, model_version: 3 });
      const kept = await db.kysely.selectFrom('model_weights').select('version').where('workspace_id', '=', ws.id).orderBy('version').execute();
      expect(kept.map((w) => Number(w.version))).toEqual([2, 3]);
    });
  });
}
