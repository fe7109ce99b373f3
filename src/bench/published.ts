/** A small generated panel, published with no cards into a temporary folder, for one benchmark. */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { publish, type PublishOptions } from '../publish/pipeline.js';

export async function withPublishedPanel<T>(stores: number, seed: string, fn: (base: PublishOptions) => Promise<T>): Promise<T> {
  const dir = await mkdtemp(path.join(os.tmpdir(), `storelens-bench-${seed}-`));
  try {
    const panel = path.join(dir, 'panel');
    const duck = await openDuck();
    try {
      await generatePanel(duck, { out: panel, stores, from: '2026-09', to: '2026-10', seed, format: 'csv' });
    } finally {
      duck.close();
    }
    const base: PublishOptions = { input: panel, out: path.join(dir, 'out'), months: 'all', baseUrl: 'https://stats.example.com', cards: 'none', now: () => new Date() };
    await publish(base);
    return await fn(base);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
