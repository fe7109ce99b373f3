/** The statistics document as served: pretty-printed, keys in contract order, trailing newline. */
import { LICENSE, SCHEMA_VERSION, type Slug, type Stat, type StatsDocument } from '../stats/types.js';

export function makeDocument(slug: Slug, month: string, completedAt: string, stats: Stat[]): StatsDocument {
  return { schema_version: SCHEMA_VERSION, slug, month, completed_at: completedAt, license: LICENSE, stats };
}

export function renderDocument(doc: StatsDocument): string {
  return JSON.stringify(doc, null, 2) + '\n';
}
