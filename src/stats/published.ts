/** A month's published figures by stat id: what the audit reads (audit.ts, releases.ts). */
import type { BuiltMonth } from './build.js';
import type { Stat } from './types.js';

export type Published = Map<string, Stat>;

export function publishedOf(built: BuiltMonth): Published {
  const out: Published = new Map();
  for (const list of built.stats.values()) for (const s of list) out.set(s.id, s);
  return out;
}
