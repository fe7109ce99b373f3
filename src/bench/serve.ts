/** The serve benchmark on a freshly published small panel (serve-load.ts does the measuring). */
import { benchServe, type ServeBenchResult } from './serve-load.js';
import { withPublishedPanel } from './published.js';

export function benchServeOnPanel(log: (line: string) => void): Promise<ServeBenchResult> {
  return withPublishedPanel(3000, 'serve', (base) => {
    log('serve: 200 and 304 on /api/data/agentic-commerce against a bare node:http server …');
    return benchServe({ out: base.out, log });
  });
}
