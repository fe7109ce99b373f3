/**
 * 0025_imported_evidence: rows imported before `accounts import` checked its lines show the
 * account row contract too. An imported row (model version 0) kept the file's evidence items as
 * they were (`{"signal":…,"detail":…}`, or any object) and a logit of 0; now its logit is its
 * score's, and its evidence is the declared shape accounts/imported.ts writes: the `imported` term
 * carrying the logit, then each reason with contribution 0. An item in a documented shape becomes
 * its reason; any other keeps its text (compact JSON) as the detail of an `imported_reason`
 * feature, so nothing the file said is lost. Details already converted are left alone.
 */
import type { Kysely, Migration } from 'kysely';
import { IMPORTED_KEY, importedEvidence, importedLogit, readReason } from '../imported.js';

/** An item the importer stored: its reason, or its text when no documented shape fits. */
function legacyReason(item: unknown) {
  const reason = readReason(item);
  if (reason) return reason;
  const text = JSON.stringify(item) ?? 'null';
  return { kind: 'feature' as const, key: 'imported_reason', detail: text.length > 500 ? `${text.slice(0, 499)}…` : text };
}

export const migration: Migration = {
  async up(db: Kysely<any>) {
    const rows = await db
      .selectFrom('rankings as r')
      .innerJoin('ranking_versions as v', (j) => j.onRef('v.workspace_id', '=', 'r.workspace_id').onRef('v.version', '=', 'r.version'))
      .select(['r.workspace_id', 'r.version', 'r.pos', 'r.store_id', 'r.score', 'v.gen'])
      .where('r.model_version', '=', 0)
      .execute();
    const details = new Map<string, { workspace_id: string; gen: number; store_id: string; logit: number }>();
    for (const r of rows) {
      const logit = importedLogit(Number(r.score));
      await db.updateTable('rankings').set({ logit }).where('workspace_id', '=', r.workspace_id).where('version', '=', r.version).where('pos', '=', r.pos).execute();
      details.set(`${r.workspace_id}\n${r.gen}\n${r.store_id}`, { workspace_id: r.workspace_id, gen: Number(r.gen), store_id: r.store_id, logit });
    }
    for (const d of details.values()) {
      const row = await db.selectFrom('ranking_details').select('evidence').where('workspace_id', '=', d.workspace_id).where('gen', '=', d.gen).where('store_id', '=', d.store_id).executeTakeFirst();
      if (!row) continue;
      const parsed: unknown = JSON.parse(row.evidence);
      const items = Array.isArray(parsed) ? parsed : [parsed];
      if ((items[0] as { key?: unknown } | undefined)?.key === IMPORTED_KEY) continue;
      const evidence = JSON.stringify(importedEvidence(items.map(legacyReason), d.logit));
      await db.updateTable('ranking_details').set({ evidence }).where('workspace_id', '=', d.workspace_id).where('gen', '=', d.gen).where('store_id', '=', d.store_id).execute();
    }
  },
};
