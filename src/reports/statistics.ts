/** The published statistics a growth report cites, read from the live publication (what `serve` answers). */
import { publishedMonths, readPublication } from '../publish/publication.js';
import type { Slug, StatsDocument } from '../stats/types.js';

/** One release of the statistics: every read of one report comes from the same one. */
export interface StatisticsRelease {
  /** The greatest published month, or null when nothing is published. */
  latestMonth(): string | null;
  /** One page's document of one month, or null when it is not published (or unreadable). */
  document(slug: Slug, month: string): Promise<StatsDocument | null>;
}

export interface StatisticsSource {
  /**
   * The release live now, or null when nothing is published (or it cannot be read right now).
   * A report reads all its documents from it, so a publish switching in a new release while the
   * report is built never mixes figures of two releases in one report.
   */
  current(): Promise<StatisticsRelease | null>;
}

/** Statistics from the publication in `outDir` (publish's --out): its live release at each call (releases are kept, so one stays readable after another replaces it). */
export function publishedStatistics(outDir: string): StatisticsSource {
  return {
    async current() {
      const pub = await readPublication(outDir).catch(() => null);
      if (!pub) return null;
      return {
        latestMonth: () => publishedMonths(pub.state).at(-1) ?? null,
        async document(slug, month) {
          try {
            return JSON.parse((await pub.read(`api/data/${slug}/${month}.json`)).toString('utf8')) as StatsDocument;
          } catch {
            return null;
          }
        },
      };
    },
  };
}
