import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyPluginAsync } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { samplePublicationFiles, writePublication, type WrittenRelease } from '../helpers/publication.js';
import { raw } from './http.js';

let out: string;
let server: RunningServer;
let release: WrittenRelease;

/** Stands in for the workspace API (src/api/plugin.ts's apiPlugin). */
const fakeApi: FastifyPluginAsync<{ greeting: string }> = async (app, opts) => {
  app.get('/things', async (request) => ({ greeting: opts.greeting, query: request.query }));
  app.post('/things', async (request) => ({ posted: request.body }));
  app.get('/cached', async (_request, reply) => reply.header('cache-control', 'private, max-age=5').send({ ok: true }));
  app.get('/boom', async () => {
    throw new Error('secret internals /etc/db-password');
  });
};

beforeAll(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-combined-'));
  release = await writePublication(out, samplePublicationFiles({ runId: 'C', months: ['2025-01'] }));
  server = await startServer({
    out,
    port: 0,
    host: '127.0.0.1',
    live: { pollMs: 0 },
    plugins: [{ plugin: fakeApi, options: { prefix: '/api/v1', greeting: 'hello' } }],
    mount: async (app) => {
      app.get('/healthz', async () => ({ ok: true }));
    },
  });
});

afterAll(async () => {
  await server?.close();
  await rm(out, { recursive: true, force: true });
});

describe('extra plugins on the same port', () => {
  it('serves a mounted plugin under its prefix, with query strings and without public caching', async () => {
    const res = await fetch(`${server.url}/api/v1/things?limit=2`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ greeting: 'hello', query: { limit: '2' } });
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('lets a plugin accept other methods and set its own Cache-Control', async () => {
    const post = await fetch(`${server.url}/api/v1/things`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"a":1}',
    });
    expect(await post.json()).toEqual({ posted: { a: 1 } });
    const cached = await fetch(`${server.url}/api/v1/cached`);
    expect(cached.headers.get('cache-control')).toBe('private, max-age=5');
  });

  it('runs the mount callback', async () => {
    expect(await (await fetch(`${server.url}/healthz`)).json()).toEqual({ ok: true });
  });

  it('answers unknown routes outside the public prefixes with a no-store problem', async () => {
    const res = await raw(server.url, '/api/v1/nope?x=1');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(JSON.parse(res.text)).toMatchObject({ status: 404, type: expect.stringContaining('/problems/not-found') });
  });

  it('answers a failing route with a 500 problem that leaks nothing', async () => {
    const res = await raw(server.url, '/api/v1/boom');
    expect(res.status).toBe(500);
    expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(res.text).not.toContain('secret');
    expect(JSON.parse(res.text)).toMatchObject({ status: 500, title: 'Internal Server Error' });
  });

  it('keeps the public rules under /api/data and /data', async () => {
    expect((await raw(server.url, '/api/data/agentic-commerce?x=1')).status).toBe(404);
    const ok = await raw(server.url, '/api/data/agentic-commerce');
    expect(ok.status).toBe(200);
    expect(ok.headers['cache-control']).toBe('public, s-maxage=3600');
  });
});

describe('inject (no socket)', () => {
  it('answers the public surface exactly as the socket does', async () => {
    const { app } = server.serve;
    const etag = release.manifest.files['api/data/agentic-commerce.json'].etag;
    const ok = await app.inject({ method: 'GET', url: '/api/data/agentic-commerce' });
    expect(ok.statusCode).toBe(200);
    expect(ok.headers.etag).toBe(etag);
    expect(ok.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(ok.headers['cache-control']).toBe('public, s-maxage=3600');
    expect((await app.inject({ url: '/api/data/agentic-commerce', headers: { 'if-none-match': etag } })).statusCode).toBe(304);
    const head = await app.inject({ method: 'HEAD', url: '/data/rss.xml' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    const q = await app.inject({ url: '/api/data/agentic-commerce?x=1' });
    expect(q.statusCode).toBe(404);
    expect(q.headers['cache-control']).toBe('public, s-maxage=60');
    const post = await app.inject({ method: 'POST', url: '/data/agentic-commerce' });
    expect(post.statusCode).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD, OPTIONS');
  });
});
