/**
 * An account row's evidence as the API shows it: the row keeps each input's value (it changes
 * only with the data), the workspace's model supplies the weights, so the contributions add up
 * to the logit the row was scored with. Rows loaded by `accounts import` (model version 0) show
 * the evidence the import wrote (accounts/imported.ts): already weighed, its contributions add up too.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';
import { explain, type StoredEvidence } from './model.js';

/** Weights of the models this process has read, by workspace and version (a refit is a new version). */
const weightsCache = new Map<string, Readonly<Record<string, number>>>();
const CACHE_ENTRIES = 200;

/** The weights of a workspace's model version, or null when that version is no longer kept. */
export async function modelWeights(q: Kysely<Database>, workspaceId: string, version: number): Promise<Readonly<Record<string, number>> | null> {
  const key = `${workspaceId}:${version}`;
  const hit = weightsCache.get(key);
  if (hit) return hit;
  const row = await q.selectFrom('model_weights').select('weights').where('workspace_id', '=', workspaceId).where('version', '=', version).executeTakeFirst();
  if (!row) return null;
  const weights = JSON.parse(row.weights) as Record<string, number>;
  if (weightsCache.size >= CACHE_ENTRIES) weightsCache.delete(weightsCache.keys().next().value!);
  weightsCache.set(key, weights);
  return weights;
}

/** Evidence of rows read together (one model read for the lot). */
export async function rowsEvidence(
  q: Kysely<Database>,
  workspaceId: string,
  rows: ReadonlyArray<{ model_version: number; evidence: string }>,
): Promise<Record<string, unknown>[][]> {
  const versions = new Set(rows.map((r) => r.model_version).filter((v) => v > 0));
  const weights = new Map<number, Readonly<Record<string, number>> | null>();
  for (const v of versions) weights.set(v, await modelWeights(q, workspaceId, v));
  return rows.map((r) => {
    const stored = JSON.parse(r.evidence) as Record<string, unknown>[];
    const w = r.model_version > 0 ? weights.get(r.model_version) : null;
    return w ? (explain(stored as unknown as StoredEvidence[], w) as unknown as Record<string, unknown>[]) : stored;
  });
}
