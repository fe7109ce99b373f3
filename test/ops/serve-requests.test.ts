/**
 * `serve`'s public statistics are answered before the framework (serve/handler.ts), and told as
 * the workspace app's requests are: each counted by its route template and status, and one log
 * line with the request id, the template, method, status and duration — never the raw path.
 */
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { createLogger } from '../../src/ops/logger.js';
import { Metrics } from '../../src/ops/metrics.js';
import { startServer } from '../../src/serve/server.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-serve-requests-');
afterAll(() => dirs.removeAll());

it('counts and logs each public request by its route template and status', async () => {
  const dir = await dirs.make();
  const panel = join(dir, 'panel');
  const out = join(dir, 'out');
  await generate(panel, { stores: 60, from: '2026-08', to: '2026-09', seed: 'probes' });
  await publishPanel(panel, out);
  let text = '';
  const stream = new Writable({ write: (chunk, _enc, done) => ((text += String(chunk)), done()) });
  const metrics = new Metrics({ processMetrics: false });
  const server = await startServer({ out, port: 0, host: '127.0.0.1', metrics, requestLog: true, loggerInstance: createLogger({ stream, format: 'json' }) });
  try {
    const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.url}${path}`, { headers });
    const latest = await get('/api/data/agentic-commerce', { 'x-request-id': 'public-1' });
    expect(latest.status).toBe(200);
    expect((await get('/api/data/agentic-commerce', { 'if-none-match': latest.headers.get('etag')! })).status).toBe(304);
    expect((await get('/api/data/agentic-commerce/2026-09')).status).toBe(200);
    expect((await get('/data/agentic-commerce')).status).toBe(200);
    expect((await get('/api/data/agentic-commerce?utm=1')).status).toBe(404);
    expect((await get('/data/no-such-page')).status).toBe(404);
    expect((await get('/releases.json')).status).toBe(200);

    // A request is counted once its response has finished on the server ('finish'), which can come
    // after the client has its answer: wait until all 7 are counted, then check each.
    const total = (text: string) => [...text.matchAll(/^storelens_http_requests_total\{.*\} (\d+)$/gm)].reduce((n, m) => n + Number(m[1]), 0);
    const exposition = await until(async () => {
      const text = await metrics.text();
      return total(text) >= 7 ? text : undefined;
    });
    expect(total(exposition)).toBe(7);
    const count = (operation: string, status: number) => Number(new RegExp(`^storelens_http_requests_total\\{operation="${operation.replace(/[{}.]/g, '\\$&')}",status="${status}"\\} (\\d+)$`, 'm').exec(exposition)?.[1] ?? 0);
    expect(count('/api/data/{slug}', 200)).toBe(1);
    expect(count('/api/data/{slug}', 304)).toBe(1);
    expect(count('/api/data/{slug}', 404)).toBe(1);
    expect(count('/api/data/{slug}/{month}', 200)).toBe(1);
    expect(count('/data/{slug}', 200)).toBe(1);
    expect(count('unmatched', 404)).toBe(1);
    expect(count('/releases.json', 200)).toBe(1);
    for (const raw of ['agentic-commerce', '2026-09', 'no-such-page', 'utm']) expect(exposition).not.toContain(raw);

    const lines = await until(() => {
      const l = text.split('\n').filter((x) => x !== '').map((x) => JSON.parse(x) as Record<string, any>).filter((e) => e.msg === 'request');
      return l.length === 7 ? l : undefined;
    });
    expect(lines[0]).toMatchObject({ reqId: 'public-1', operation: '/api/data/{slug}', method: 'GET', status: 200, level: 'info' });
    expect(typeof lines[0]!.duration_ms).toBe('number');
    expect(lines.map((l) => l.operation)).toEqual(['/api/data/{slug}', '/api/data/{slug}', '/api/data/{slug}/{month}', '/data/{slug}', '/api/data/{slug}', 'unmatched', '/releases.json']);
    expect(text).not.toContain('no-such-page');
  } finally {
    await server.close();
  }
}, 60_000);
