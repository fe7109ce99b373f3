/**
 * Run ids (DESIGN.md "Decisions"): a (slug, month) document is rebuilt exactly when the hash of
 * everything that can change it changes: this month's panel bytes and those of the months its
 * deltas reach back to, the registry and methodology versions, schema_version, base_url, and the
 * breakdown values the publication lists in every month (stats/universe.ts).
 */
import { createHash } from 'node:crypto';
import { hashFile } from '../core/hash-file.js';
import { previousMonth } from '../core/panel-contract.js';
import type { PanelFile } from '../panel/read.js';
import { metricsOf, pageOf, REGISTRY_VERSION } from '../stats/registry.js';
import { SCHEMA_VERSION, type Slug } from '../stats/types.js';

export async function hashPanel(files: PanelFile[]): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const f of files) out.set(f.month, await hashFile(f.file));
  return out;
}

/**
 * How many earlier months a page's documents depend on: deltas need the previous month; the
 * trend metrics compare with the previous month already, so their deltas reach two back.
 */
export const REACH: Record<Slug, number> = {
  'platform-stores': 1,
  'agentic-commerce': 1,
  'platform-apps': 1,
  'platform-advertising': 1,
  'platform-trends': 2,
  methodology: 1,
};

/** `month` and the `n` months before it, oldest first. */
export function monthsBack(month: string, n: number): string[] {
  const out = [month];
  for (let i = 0; i < n; i++) out.unshift(previousMonth(out[0]));
  return out;
}

export function runId(slug: Slug, month: string, panel: ReadonlyMap<string, string>, baseUrl: string, cells: string): string {
  const input = {
    schema_version: SCHEMA_VERSION,
    registry: REGISTRY_VERSION,
    page: pageOf(slug),
    metrics: metricsOf(slug),
    base_url: baseUrl,
    slug,
    month,
    panel: monthsBack(month, REACH[slug]).map((m) => panel.get(m) ?? null),
    cells,
  };
  return createHash('sha256').update(JSON.stringify(input)).digest('hex');
}

/** Strong ETag of a JSON document: `"{slug}-{month}-{first 16 hex of run id}"`. */
export const documentEtag = (slug: Slug, month: string, run: string): string => `"${slug}-${month}-${run.slice(0, 16)}"`;

/** Strong ETag of any other file: a hash of its bytes. */
export const bytesEtag = (bytes: Buffer | string): string => `"${createHash('sha256').update(bytes).digest('hex').slice(0, 32)}"`;
