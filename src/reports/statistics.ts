/** The published statistics a growth report cites, read from the live publication (what `serve` answers). */
import { publishedMonths, readPublication } from '../publish/publication.js';
import type { Slug, StatsDocument } from '../stats/types.js';

export interface StatisticsSource {
  /** The greatest published month, or null when nothing is published. */
  latestMonth(): Promise<string | null>;
  /** One page's document of one month, or null when it is not published (or unreadable). */
  document(slug: Slug, month: string): Promise<StatsDocument | null>;
}

/** Statistics from the publication in `outDir` (publish's --out), re-read at each call. */
export function publishedStatistics(outDir: string): StatisticsSource {
  return {
    async latestMonth() {
      const pub = await readPublication(outDir).catch(() => null);
      return publishedMonths(pub?.state).at(-1) ?? null;
    },
    async document(slug, month) {
      try {
        const pub = await readPublication(outDir);
        if (!pub) return null;
        return JSON.parse((await pub.read(`api/data/${slug}/${month}.json`)).toString('utf8')) as StatsDocument;
      } catch {
        return null;
      }
    },
  };
}
