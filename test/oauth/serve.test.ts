/** `serve --api` (as `npm start` runs it) mounts the assistant connector: the MCP 401 leads to the sign-in. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runServe } from '../../src/commands/serve.js';
import { capturedEnv } from '../helpers/cli.js';
import { samplePublicationFiles, writePublication } from '../helpers/publication.js';
import { until } from '../helpers/wait.js';
import { sendRaw } from '../helpers/wire.js';

let out: string;
beforeEach(async () => {
  out = await mkdtemp(path.join(tmpdir(), 'storelens-oauth-serve-'));
});
afterEach(async () => {
  await rm(out, { recursive: true, force: true });
});

describe('serve --api with the assistant connector', () => {
  it('answers the MCP 401 with the metadata link, and serves both metadata documents and the sign-in', async () => {
    await writePublication(out, samplePublicationFiles({ runId: 'oauth', months: ['2025-01'] }), { latest_month: '2025-01' });
    const { env, stderr } = capturedEnv(new Date('2025-02-03T00:00:00Z'));
    const running = runServe({ out, port: 0, host: '127.0.0.1', api: true, db: path.join(out, 'api.db') }, env);
    try {
      await until(() => /listening on/.test(stderr()));
      const base = /listening on (http:\/\/\S+)/.exec(stderr())![1]!;
      const r = await fetch(`${base}/api/v1/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
      expect(r.status).toBe(401);
      expect(r.headers.get('www-authenticate')).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1/mcp"`);
      const prm = (await (await fetch(`${base}/.well-known/oauth-protected-resource/api/v1/mcp`)).json()) as any;
      expect(prm).toMatchObject({ resource: `${base}/api/v1/mcp`, authorization_servers: [base] });
      const as = (await (await fetch(`${base}/.well-known/oauth-authorization-server`)).json()) as any;
      expect(as).toMatchObject({ issuer: base, authorization_endpoint: `${base}/oauth/auth`, token_endpoint: `${base}/oauth/token` });
      // An HTTP/1.0 request may name no host: the link names the address it came in on, a URL that works.
      const old = await sendRaw(base, 'POST /api/v1/mcp HTTP/1.0\r\ncontent-type: application/json\r\ncontent-length: 2\r\n\r\n{}');
      expect(old.status).toBe(401);
      expect(old.headers['www-authenticate']).toContain(`resource_metadata="${base}/.well-known/oauth-protected-resource/api/v1/mcp"`);
      // The statistics stay where they were.
      expect((await fetch(`${base}/api/data/agentic-commerce`)).status).toBe(200);
    } finally {
      process.emit('SIGTERM');
      await running;
    }
  }, 30_000);
});
