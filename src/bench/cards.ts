/**
 * The card benchmark: share cards per second rendered on every core, and the rate of a publish
 * whose cards are already rendered (the content-hash cache turns rendering into hashing).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { publish } from '../publish/pipeline.js';

export interface CardsBenchResult {
  cards: number;
  coldSeconds: number;
  cachedSeconds: number;
  coldPerSecond: number;
  cachedPerSecond: number;
}

export async function benchCards(log: (line: string) => void): Promise<CardsBenchResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-cards-'));
  try {
    const panel = path.join(dir, 'panel');
    const duck = await openDuck();
    try {
      await generatePanel(duck, { out: panel, stores: 1500, from: '2026-09', to: '2026-10', seed: 'cards', format: 'csv' });
    } finally {
      duck.close();
    }
    const base = { input: panel, out: path.join(dir, 'out'), months: 'all' as const, baseUrl: 'https://stats.example.com', now: () => new Date() };
    await publish({ ...base, cards: 'none' });
    log('cards: rendering every card of the latest month …');
    let t0 = performance.now();
    const cold = await publish({ ...base, cards: 'latest' });
    const coldSeconds = (performance.now() - t0) / 1000;
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
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
