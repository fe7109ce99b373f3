/**
 * The card benchmark: share cards per second rendered on every core, and the rate of a publish
 * whose cards are already rendered (the content-hash cache turns rendering into hashing).
 */
import { availableParallelism } from 'node:os';
import { publish } from '../publish/pipeline.js';
import { withPublishedPanel } from './published.js';

export interface CardsBenchResult {
  cards: number;
  coldSeconds: number;
  cachedSeconds: number;
  coldPerSecond: number;
  cachedPerSecond: number;
  /** CPU seconds (every thread of this process) per rendered card: what a shared machine's noise does not move */
  cpuPerCard: number;
  cores: number;
}

export function benchCards(log: (line: string) => void): Promise<CardsBenchResult> {
  return withPublishedPanel(1500, 'cards', async (base) => {
    log('cards: rendering every card of the latest month …');
    let t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const cold = await publish({ ...base, cards: 'latest' });
    const coldSeconds = (performance.now() - t0) / 1000;
    const cpu = process.cpuUsage(cpu0);
    // The same input again: every artifact is assembled and every card hashed, none rendered.
    log('cards: publishing again with every card cached …');
    t0 = performance.now();
    const cached = await publish({ ...base, cards: 'latest' });
    const cachedSeconds = (performance.now() - t0) / 1000;
    if (cached.cards_rendered !== 0) throw new Error(`expected the cache to render nothing, rendered ${cached.cards_rendered}`);
    return {
      cards: cold.cards_rendered,
      coldSeconds,
      cachedSeconds,
      coldPerSecond: cold.cards_rendered / coldSeconds,
      cachedPerSecond: cold.cards_rendered / cachedSeconds,
      cpuPerCard: (cpu.user + cpu.system) / 1e6 / cold.cards_rendered,
      cores: availableParallelism(),
    };
  });
}
