/** The serve benchmark on a freshly published small panel (src/serve/bench.ts does the measuring). */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openDuck } from '../panel/duck.js';
import { generatePanel } from '../panel/generate.js';
import { publish } from '../publish/pipeline.js';
import { benchServe, type ServeBenchResult } from '../serve/bench.js';

export async function benchServeOnPanel(log: (line: string) => void): Promise<ServeBenchResult> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'storelens-bench-serve-'));
  try {
    const panel = path.join(dir, 'panel');
    const duck = await openDuck();
    try {
      await generatePanel(duck, { out: panel, stores: 3000, from: '2026-09', to: '2026-10', seed: 'serve', format: 'csv' });
    } finally {
      duck.close();
    }
    const out = path.join(dir, 'out');
    await publish({ input: panel, out, months: 'all', baseUrl: 'https://stats.example.com', cards: 'none', now: () => new Date() });
    log('serve: 200 and 304 on /api/data/agentic-commerce against a bare node:http server …');
    return await benchServe({ out, log });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
