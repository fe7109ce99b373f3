import { describe, expect, it } from 'vitest';
import { Writable } from 'node:stream';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runApi } from '../../src/commands/api.js';
import type { Env } from '../../src/core/env.js';

describe('storelens api', () => {
  it('migrates the database, listens and serves openapi.json, then closes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-api-'));
    const err: string[] = [];
    const env: Env = {
      env: {},
      stdout: new Writable({ write: (_c, _e, cb) => cb() }),
      stderr: new Writable({ write: (c, _e, cb) => (err.push(String(c)), cb()) }),
      now: () => new Date(),
    };
    const api = await runApi({ port: 0, host: '127.0.0.1', db: join(dir, 'api.db') }, env, false);
    try {
      expect(err.join('')).toMatch(/applied migrations 0001_api_platform/);
      expect(err.join('')).toContain(api.url);
      const res = await fetch(`${api.url}/openapi.json`);
      expect(res.status).toBe(200);
      expect(await res.json()).toMatchObject({ openapi: '3.1.0' });
    } finally {
      await api.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a port already taken at once, before it opens (and migrates) the database or ingests the runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-api-'));
    const taken: Server = await new Promise((done) => {
      const s = createServer().listen(0, '127.0.0.1', () => done(s));
    });
    const port = (taken.address() as { port: number }).port;
    const env: Env = {
      env: {},
      stdout: new Writable({ write: (_c, _e, cb) => cb() }),
      stderr: new Writable({ write: (_c, _e, cb) => cb() }),
      now: () => new Date(),
    };
    try {
      const db = join(dir, 'api.db');
      await expect(runApi({ port, host: '127.0.0.1', db, runs: join(dir, 'runs') }, env, false)).rejects.toThrow(`--port ${port}: already in use on 127.0.0.1`);
      // The database was never opened: a busy port no longer costs a migration, an ingest and a first ranking.
      expect(existsSync(db)).toBe(false);
    } finally {
      await new Promise((done) => taken.close(done));
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
