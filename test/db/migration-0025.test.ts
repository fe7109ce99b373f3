/**
 * Migration 0025_imported_evidence over rows an earlier `accounts import` wrote: their evidence
 * as the file had it and a logit of 0. After it, each imported row shows the account row
 * contract — the `imported` term carrying the score's logit, then the reasons with contribution 0
 * — and a scored row's evidence is left as it was.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { EvidenceItem } from '../../src/accounts/routes.js';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0025');

const rank = (pos: number, store_id: string, score: number, model_version: number) => ({ workspace_id: 'ws_1', version: 2, pos, store_id, score, logit: model_version ? 1.5 : 0, in_market: 1, explore: 0, model_version });
const detail = (store_id: string, evidence: unknown) => ({ workspace_id: 'ws_1', gen: 1, store_id, domain: null, country: null, category: null, plan: null, evidence: JSON.stringify(evidence), signals: '[]' });
const scoredEvidence = [{ kind: 'intercept', key: 'intercept', detail: 'Starting point', x: 1 }];

describe('migration 0025 over rows imported before it', () => {
  it('gives imported rows their score\'s logit and the declared evidence, keeping every reason, and leaves scored rows alone', async () => {
    await before();
    await db.insertInto('workspaces').values({ id: 'ws_1', name: 'w', created_at: '2026-01-01T00:00:00.000Z' }).execute();
    await db.insertInto('ranking_versions').values({ workspace_id: 'ws_1', version: 2, gen: 1, state: 'current', rows: 3, created_at: '2026-01-01T00:00:00.000Z', created_ms: 0 }).execute();
    await db.insertInto('rankings').values([rank(1, 'documented', 0.91, 0), rank(2, 'odd', 0.6, 0), rank(3, 'scored', 0.8, 3)]).execute();
    await db
      .insertInto('ranking_details')
      .values([
        detail('documented', [{ signal: 'agentic_feature_adopted', detail: 'llms_txt' }]),
        detail('odd', [{ signal: 'ad_channel_added', channel: 'tiktok', month: '2026-09' }, 'just text']),
        detail('scored', scoredEvidence),
      ])
      .execute();

    // Up to the last migration that keeps a row per account in rankings (0029 packs them in blocks).
    expect(await after('0029')).toContain('0025_imported_evidence');

    const rows = await db.selectFrom('rankings as r').innerJoin('ranking_details as d', 'd.store_id', 'r.store_id').select(['r.store_id', 'r.logit', 'd.evidence']).orderBy('r.pos').execute();
    const [documented, odd, scored] = rows.map((r) => ({ ...r, evidence: JSON.parse(r.evidence) }));
    expect(documented!.logit).toBeCloseTo(Math.log(0.91 / 0.09), 12);
    expect(documented!.evidence).toEqual([
      { kind: 'intercept', key: 'imported', detail: expect.any(String), contribution: documented!.logit },
      { kind: 'signal', key: 'signal:agentic_feature_adopted', detail: 'Agentic feature adopted: llms_txt', contribution: 0 },
    ]);
    expect(odd!.evidence.slice(1)).toEqual([
      { kind: 'feature', key: 'imported_reason', detail: '{"signal":"ad_channel_added","channel":"tiktok","month":"2026-09"}', contribution: 0 },
      { kind: 'feature', key: 'imported_reason', detail: '"just text"', contribution: 0 },
    ]);
    for (const r of [documented!, odd!]) {
      expect(z.array(z.strictObject(EvidenceItem.shape)).safeParse(r.evidence).success).toBe(true);
      expect(r.evidence.reduce((s: number, e: { contribution: number }) => s + e.contribution, 0)).toBeCloseTo(r.logit, 12);
    }
    expect(scored).toMatchObject({ logit: 1.5, evidence: scoredEvidence });
  });
});
