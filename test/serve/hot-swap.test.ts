import { copyFile, mkdir, mkdtemp, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../src/serve/live-publication.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import {
  jsonEtag,
  samplePublicationFiles,
  switchCurrent,
  writePublication,
  writeRelease,
} from '../helpers/publication.js';
import { raw } from './http.js';
import { until } from '../helpers/wait.js';

let out: string;
let server: RunningServer | undefined;
let events: LiveEvent[];

beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-swap-'));
  events = [];
});

afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(out, { recursive: true, force: true });
});

async function start(pollMs = 20) {
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs, retryMs: 50, onEvent: (e) => events.push(e) } });
  return server;
}

const runOf = async (s: RunningServer, url = '/api/data/agentic-commerce') => {
  const res = await raw(s.url, url);
  return res.status === 200 ? (JSON.parse(res.text).completed_at as string) : undefined;
};

describe('before anything is published', () => {
  it('answers 503 problem+json on public artifact paths and 404 for malformed ones, then serves the first publication without a restart', async () => {
    const s = await start();
    const res = await raw(s.url, '/api/data/agentic-commerce');
    expect(res.status).toBe(503);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['retry-after']).toBe('5');
    expect(JSON.parse(res.text)).toMatchObject({ status: 503, type: expect.stringContaining('/problems/') });
    expect((await raw(s.url, '/api/data/nope')).status).toBe(404);
    expect((await raw(s.url, '/api/data/agentic-commerce?x=1')).status).toBe(404);

    await writePublication(out, samplePublicationFiles({ runId: 'first', months: ['2025-01'] }));
    expect(await until(() => runOf(s))).toBe('first');
    expect(events.filter((e) => e.type === 'loaded')).toHaveLength(1);
  });
});

describe('switching releases', () => {
  it('serves a new release after the current link moves, and keeps serving from memory when old files vanish', async () => {
    const a = await writePublication(out, samplePublicationFiles({ runId: 'A', months: ['2025-01'] }));
    const s = await start(0); // fs.watch alone
    expect(await runOf(s)).toBe('A');
    const b = await writeRelease(out, samplePublicationFiles({ runId: 'B', months: ['2025-01', '2025-02'] }));
    await switchCurrent(out, b.id);
    expect(await until(() => runOf(s).then((r) => (r === 'B' ? r : undefined)))).toBe('B');
    expect(await runOf(s, '/api/data/agentic-commerce/2025-02')).toBe('B');
    await rm(b.dir, { recursive: true });
    await rm(a.dir, { recursive: true });
    const res = await raw(s.url, '/data/agentic-commerce.md');
    expect(res.status).toBe(200);
    expect(res.text).toContain('B');
  });

  it('never answers a document whose ETag belongs to another release while releases switch under load', async () => {
    const months = ['2024-10', '2024-11', '2024-12', '2025-01'];
    const ids: string[] = [];
    for (const runId of ['R1', 'R2', 'R3', 'R4']) {
      ids.push((await writeRelease(out, samplePublicationFiles({ runId, months }), { id: runId })).id);
    }
    await switchCurrent(out, ids[0]);
    const s = await start(5);

    let stop = false;
    let checked = 0;
    // Each release serves at least 32 answers before the next switch: 16 workers have at most 16
    // requests in flight across a switch, so at least 16 of them were asked after it (counted, not timed).
    const answered = (n: number) => until(() => checked >= n || stop);
    const switcher = (async () => {
      // Eight switches, each followed by some requests, while the workers never pause.
      await answered(32);
      for (let i = 1; i <= 8; i++) {
        await switchCurrent(out, ids[i % ids.length]);
        await s.serve.live.refresh();
        await answered(checked + 32);
      }
      stop = true;
    })();

    const urls = [
      ['/api/data/agentic-commerce', 'agentic-commerce', '2025-01'],
      ['/api/data/platform-stores', 'platform-stores', '2025-01'],
      ...months.map((m) => [`/api/data/agentic-commerce/${m}`, 'agentic-commerce', m]),
    ];
    const seen = new Set<string>();
    const worker = async () => {
      try {
        for (let i = 0; !stop; i++) {
          const [url, slug, month] = urls[i % urls.length];
          const res = await fetch(s.url + url);
          const text = await res.text();
          expect(res.status).toBe(200);
          const doc = JSON.parse(text);
          expect(res.headers.get('etag')).toBe(jsonEtag(slug, month, doc.completed_at));
          expect(res.headers.get('content-length')).toBe(String(Buffer.byteLength(text)));
          seen.add(doc.completed_at);
          checked++;
        }
      } finally {
        stop = true; // a failed worker ends the switcher's wait too
      }
    };
    await Promise.all([switcher, ...Array.from({ length: 16 }, worker)]);
    expect(checked).toBeGreaterThan(200);
    expect(seen.size).toBe(4);
  });
});

describe('a broken release', () => {
  it('is not served: the previous release stays live and the error is reported', async () => {
    await writePublication(out, samplePublicationFiles({ runId: 'good', months: ['2025-01'] }));
    const s = await start();
    const bad = await writeRelease(out, samplePublicationFiles({ runId: 'bad', months: ['2025-01'] }), {
      manifestPatch: { 'api/data/agentic-commerce.csv': { bytes: 3 } },
    });
    await switchCurrent(out, bad.id);
    await s.serve.live.refresh();
    expect(events.some((e) => e.type === 'error' && /agentic-commerce\.csv/.test(e.error.message))).toBe(true);
    expect(await runOf(s)).toBe('good');

    const missing = await writeRelease(out, samplePublicationFiles({ runId: 'missing', months: ['2025-01'] }));
    await rm(path.join(missing.dir, 'data', 'rss.xml'));
    await switchCurrent(out, missing.id);
    await s.serve.live.refresh();
    expect(await runOf(s)).toBe('good');

    await writePublication(out, samplePublicationFiles({ runId: 'fixed', months: ['2025-01'] }));
    expect(await until(() => runOf(s).then((r) => (r === 'fixed' ? r : undefined)))).toBe('fixed');
  });

  it('with an invalid manifest is reported and not served', async () => {
    await writePublication(out, samplePublicationFiles({ runId: 'good', months: ['2025-01'] }));
    const s = await start();
    const dir = path.join(out, '.releases', 'broken');
    await mkdir(dir, { recursive: true });
    await writeFile(path.join(dir, 'manifest.json'), '{"manifest_version":1,"files":');
    await switchCurrent(out, 'broken');
    await s.serve.live.refresh();
    expect(events.some((e) => e.type === 'error' && /not valid JSON/.test(e.error.message))).toBe(true);
    expect(await runOf(s)).toBe('good');
  });
});

describe('a hand-made folder', () => {
  it('with manifest.json at its top is served, and a manifest renamed over it is picked up', async () => {
    const first = await writeRelease(path.join(out, 'staging'), samplePublicationFiles({ runId: 'plain', months: ['2025-01'] }), { id: 'x' });
    const plain = first.dir; // manifest.json and the artifacts, no .releases inside
    server = await startServer({ out: plain, port: 0, host: '127.0.0.1', live: { pollMs: 20 } });
    expect(await runOf(server)).toBe('plain');

    const next = await writeRelease(path.join(out, 'staging'), samplePublicationFiles({ runId: 'plain2', months: ['2025-01'] }), { id: 'y' });
    for (const key of Object.keys(next.manifest.files)) {
      await copyFile(path.join(next.dir, ...key.split('/')), path.join(plain, ...key.split('/')));
    }
    await copyFile(path.join(next.dir, 'manifest.json'), path.join(plain, 'manifest.json.tmp'));
    await rename(path.join(plain, 'manifest.json.tmp'), path.join(plain, 'manifest.json'));
    const s = server;
    expect(await until(() => runOf(s).then((r) => (r === 'plain2' ? r : undefined)))).toBe('plain2');
  });
});
