/**
 * A cursor walks the ranking it was issued on, whichever process answers its next page. On
 * PostgreSQL a process learns of a re-rank from a notice that comes milliseconds after the commit
 * (api/key-cache.ts): until it does, the workspace's ranking version it knows is the one before.
 * A page read there with a cursor another process issued on the new ranking continues the walk;
 * it was answered 400 `invalid-cursor`, "not one this API issued". Only a version the database
 * does not hold is refused.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accountRoutes } from '../../src/accounts/routes.js';
import { encodeCursor, type CursorState } from '../../src/api/cursor.js';
import { serverSecret } from '../../src/db/server-secrets.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { seedAccounts } from '../helpers/accounts.js';
import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';
import { WORKING } from '../helpers/capability-manifest.js';
import { dialects } from '../helpers/db.js';

const listAccounts = accountRoutes.find((r) => r.operationId === 'list_accounts')!;

for (const d of dialects)
  describe.skipIf(d.skip)(`a cursor read where the ranking's version is not yet known, on ${d.label}`, () => {
    let h: Harness;
    let ws: Workspace;
    let read: string;
    beforeEach(async () => {
      h = await startApi(d.name, { operations: WORKING });
      ws = await workspace(h.db);
      read = await apiKey(h.db, ws.id, ['read:accounts']);
      await seedAccounts(h.db, ws.id, [
        { store_id: 'st-a', score: 0.9 },
        { store_id: 'st-b', score: 0.8 },
        { store_id: 'st-c', score: 0.7 },
      ]);
    });
    afterEach(async () => h?.close());

    /** The next page as a process answers it that still knows the workspace at `knownVersion`. */
    const pageAt = async (cursor: string, knownVersion: number) => {
      const row = await h.db.kysely.selectFrom('workspaces').selectAll().where('id', '=', ws.id).executeTakeFirstOrThrow();
      const key = await h.db.kysely.selectFrom('api_keys').selectAll().where('workspace_id', '=', ws.id).executeTakeFirstOrThrow();
      const cursorSecret = await serverSecret(h.db.kysely, 'cursor_secret', () => 'unused');
      const query = { filter: 'all', limit: 1, cursor };
      const ctx = { db: h.db, tx: h.db.kysely, now: h.clock.now(), workspace: { ...row, ranking_version: knownVersion }, key, params: {}, query, body: undefined, headers: {}, cursorSecret, delivers: false, outbound: undefined };
      return (await listAccounts.handler!(ctx as unknown as Parameters<NonNullable<typeof listAccounts.handler>>[0])) as unknown as { body: { data: { store_id: string }[] } };
    };

    it('continues the walk on the ranking the cursor names', async () => {
      const first = await call(h.base, 'GET', '/accounts?filter=all&limit=1', { key: read });
      expect(first.status).toBe(200);
      expect(first.body.data.map((a: { store_id: string }) => a.store_id)).toEqual(['st-a']);
      const version = (await h.db.kysely.selectFrom('workspaces').select('ranking_version').where('id', '=', ws.id).executeTakeFirstOrThrow()).ranking_version;
      const next = await pageAt(first.body.next_cursor, version - 1);
      expect(next.body.data.map((a) => a.store_id)).toEqual(['st-b']);
    });

    it('still refuses a cursor on a version the database does not hold', async () => {
      const first = await call(h.base, 'GET', '/accounts?filter=all&limit=1', { key: read });
      const cursorSecret = await serverSecret(h.db.kysely, 'cursor_secret', () => 'unused');
      const state = JSON.parse(Buffer.from(String(first.body.next_cursor).split('.')[0]!, 'base64url').toString()) as CursorState;
      for (const v of [state.v + 1, state.v + 5]) {
        const cursor = encodeCursor(cursorSecret, { ...state, v });
        const r = await call(h.base, 'GET', `/accounts?filter=all&limit=1&cursor=${encodeURIComponent(cursor)}`, { key: read });
        expect([r.status, r.body.type]).toEqual([400, 'https://storelens.dev/problems/invalid-cursor']);
      }
    });
  });
