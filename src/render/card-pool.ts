/**
 * Many cards on every core: a piscina pool of worker threads, each rendering with
 * `renderCard`. Results come back in input order; progress is reported as cards finish.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import { builtWorkerPath } from '../core/threads.js';
import type { CardInput } from './page.js';

export interface RenderCardsOptions {
  /** Worker threads; default: one per core. 1 renders in this thread, without workers. */
  threads?: number;
  /** Called after each card: (cards done, cards in total). */
  onProgress?: (done: number, total: number) => void;
}

/** The built worker file (see threads.ts). */
export function cardWorkerPath(moduleUrl: string = import.meta.url): string {
  return builtWorkerPath(moduleUrl, './card-worker.js');
}

async function renderInProcess(cards: CardInput[], onProgress?: RenderCardsOptions['onProgress']): Promise<Buffer[]> {
  // Loaded here, not with this module: publish imports it whether or not it renders cards.
  const { renderCard } = await import('./card-render.js');
  const out: Buffer[] = [];
  for (const card of cards) {
    out.push(await renderCard(card));
    onProgress?.(out.length, cards.length);
  }
  return out;
}

export async function renderCards(cards: CardInput[], opts: RenderCardsOptions = {}): Promise<Buffer[]> {
  const total = cards.length;
  if (total === 0) return [];
  const threads = Math.max(1, Math.min(opts.threads ?? availableParallelism(), total));
  if (threads === 1) return renderInProcess(cards, opts.onProgress);

  const filename = cardWorkerPath();
  if (!existsSync(filename)) {
    throw new Error(`card worker not built: ${filename} is missing; run \`npm run build\` first`);
  }
  const pool = new Piscina<CardInput, Uint8Array>({ filename, minThreads: threads, maxThreads: threads, idleTimeout: 1000 });
  let done = 0;
  try {
    return await Promise.all(
      cards.map(async (card) => {
        const png = await pool.run(card);
        done += 1;
        opts.onProgress?.(done, total);
        return Buffer.from(png.buffer, png.byteOffset, png.byteLength);
      }),
    );
  } finally {
    await pool.destroy();
  }
}
