import { describe, expect, it } from 'vitest';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { buildApiApp } from '../../src/compose/api-app.js';
import { createLogger, flushLog, type Logger } from '../../src/ops/logger.js';
import { issueApiKey } from '../../src/members/issue-key.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { upsertMember } from '../../src/members/store.js';
import { dialects, freshDb } from '../helpers/db.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`a lost database on ${d.label}`, () => {
    it('answers 503 problem+json with Retry-After and no internals', async () => {
      const t = await freshDb(d.name);
      const ws = await createWorkspace(t.db.kysely, 'w', new Date());
      await upsertMember(t.db.kysely, ws.id, 'o@x', 'owner', new Date());
      const k = await issueApiKey(t.db, { workspaceId: ws.id, name: 'k', scopes: ['read:accounts'], createdBy: 'o@x', now: new Date() });
      const lines: Array<Record<string, unknown>> = [];
      const stream = new Writable({ write: (chunk, _e, done) => (lines.push(...String(chunk).trim().split('\n').map((l) => JSON.parse(l))), done()) });
      const app = await buildApiApp({ db: t.db, loggerInstance: createLogger({ stream, format: 'json', level: 'info' }) });
      await app.listen({ port: 0, host: '127.0.0.1' });
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
      try {
        expect((await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${k.key}` } })).status).toBe(200);
        await t.db.close();
        const res = await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${k.key}` } });
        expect(res.status).toBe(503);
        expect(res.headers.get('content-type')).toMatch(/problem\+json/);
        expect(res.headers.get('retry-after')).toBe('1');
        const body = await res.json();
        expect(body).toEqual({
          type: 'https://storelens.dev/problems/service-unavailable',
          title: 'Temporarily unavailable',
          status: 503,
          detail: 'The service is temporarily unavailable; retry shortly.',
          // The request's id, as answered in X-Request-Id.
          request_id: res.headers.get('x-request-id'),
        });
        // Told as the database unavailable, once for the request, at warn and without a stack
        // (an outage fails every request: a stack each was a flood of errors).
        await flushLog(app.log as Logger);
        const told = lines.filter((l) => l.reqId === res.headers.get('x-request-id') || l.msg === 'database unavailable');
        expect(told.filter((l) => l.level === 'error' && l.msg !== 'request')).toEqual([]);
        expect(told.filter((l) => l.msg === 'database unavailable')).toEqual([expect.objectContaining({ level: 'warn', cause: expect.any(String) })]);
        expect(JSON.stringify(told)).not.toContain('"stack"');
      } finally {
        await app.close();
        t.db.close = async () => {};
        await t.cleanup();
      }
    });
  });
}
