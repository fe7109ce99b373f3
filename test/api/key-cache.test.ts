/**
 * The key cache of an api process on PostgreSQL (api/key-cache.ts): a remembered key answers
 * without a round trip, and every change that authenticating reads — a revocation, a member
 * leaving, a workspace's data versions — reaches the process and is answered from then on.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { keyCache, type KeyCache } from '../../src/api/key-cache.js';
import { issueApiKey } from '../../src/members/issue-key.js';
import { hashApiKey } from '../../src/api/keys.js';
import { revokeApiKey } from '../../src/api/keys-store.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { removeMember, upsertMember } from '../../src/members/store.js';
import { freshDb, openAgain, pgUrl, type TestDb } from '../helpers/db.js';
import type { Database, Db } from '../../src/db/database.js';
import type { Kysely } from 'kysely';
import { SETTLE } from '../helpers/wait.js';

const NOW = new Date('2026-03-01T10:00:00.000Z');

/** A workspace named `name` with an owner and an admin, and a read key the admin made. */
async function workspaceKey(db: Db, name: string) {
  const ws = await createWorkspace(db.kysely, name, NOW);
  await upsertMember(db.kysely, ws.id, 'owner@example.com', 'owner', NOW);
  await upsertMember(db.kysely, ws.id, 'admin@example.com', 'admin', NOW);
  const issued = await issueApiKey(db, { workspaceId: ws.id, name: 'k', scopes: ['read:accounts'], createdBy: 'admin@example.com', now: NOW });
  return { ws, id: issued.id, hash: hashApiKey(issued.key) };
}

describe.skipIf(!pgUrl)('the key cache on PostgreSQL', () => {
  let t: TestDb;
  let cache: KeyCache;
  beforeAll(async () => {
    t = await freshDb('PostgreSQL');
    cache = keyCache(t.db);
    await cache.ready();
  });
  afterAll(async () => {
    await cache?.close();
    await t?.cleanup();
  });

  const keyIn = (name: string) => workspaceKey(t.db, name);
  const find = (hash: string) => cache.find(t.db.kysely, hash);

  it('answers a remembered key without a round trip', async () => {
    const k = await keyIn('quiet');
    const { counted, statements } = countingStatements(t.db.kysely);
    // Once the setup's own notices are in (each makes the key be looked up again), the key is remembered.
    await vi.waitFor(async () => {
      await cache.find(counted, k.hash);
      statements.reset();
      expect((await cache.find(counted, k.hash))?.key.id).toBe(k.id);
      expect(statements.count()).toBe(0);
    }, SETTLE);
  });

  it('sees a revocation once it is committed', async () => {
    const k = await keyIn('revoked');
    expect((await find(k.hash))?.key.revoked_at).toBeNull();
    await revokeApiKey(t.db.kysely, k.ws.id, k.id, NOW);
    await vi.waitFor(async () => expect((await find(k.hash))?.key.revoked_at).toBe(NOW.toISOString()), SETTLE);
  });

  it('sees the key creator leave the workspace', async () => {
    const k = await keyIn('left');
    expect((await find(k.hash))?.creatorRole).toBe('admin');
    await removeMember(t.db.kysely, k.ws.id, 'admin@example.com');
    await vi.waitFor(async () => expect((await find(k.hash))?.creatorRole).toBeNull(), SETTLE);
  });

  it('sees a workspace data version move (a re-rank), so a cached page is not served after it', async () => {
    const k = await keyIn('versions');
    const before = (await find(k.hash))!.workspace.ranking_version;
    await t.db.kysely.updateTable('workspaces').set({ ranking_version: before + 1 }).where('id', '=', k.ws.id).execute();
    await vi.waitFor(async () => expect((await find(k.hash))?.workspace.ranking_version).toBe(before + 1), SETTLE);
  });
});

/** A handle on `kysely`'s database counting the statements sent through it. */
function countingStatements(kysely: Kysely<Database>) {
  let n = 0;
  const counted = kysely.withPlugin({
    transformQuery: (a) => (n++, a.node),
    transformResult: async (a) => a.result,
  });
  return { counted, statements: { count: () => n, reset: () => void (n = 0) } };
}

describe('the key cache on SQLite', () => {
  let t: TestDb;
  /** Another process's handle on the same file: its changes reach this one's cache only through the database. */
  let other: Db;
  let cache: KeyCache;
  beforeAll(async () => {
    t = await freshDb('SQLite');
    other = await openAgain(t);
    cache = keyCache(t.db);
  });
  afterAll(async () => {
    await other?.close();
    await t?.cleanup();
  });

  const keyIn = (name: string) => workspaceKey(t.db, name);
  const find = (hash: string) => cache.find(t.db.kysely, hash);

  it('answers a remembered key with one statement (the revision), not the lookup', async () => {
    const k = await keyIn('quiet');
    const { counted, statements } = countingStatements(t.db.kysely);
    expect((await cache.find(counted, k.hash))?.key.id).toBe(k.id);
    expect(statements.count()).toBe(2);
    statements.reset();
    expect((await cache.find(counted, k.hash))?.key.id).toBe(k.id);
    expect(statements.count()).toBe(1);
  });

  it('reads the revision once for the calls that ask together, and again for a call after that read began', async () => {
    const k = await keyIn('together');
    const { counted, statements } = countingStatements(t.db.kysely);
    await cache.find(counted, k.hash);
    statements.reset();
    const found = await Promise.all(Array.from({ length: 20 }, () => cache.find(counted, k.hash)));
    expect(found.every((f) => f?.key.id === k.id)).toBe(true);
    expect(statements.count()).toBe(1);
    // A revocation committed after the shared read began: the next call reads the revision again and sees it.
    await revokeApiKey(other.kysely, k.ws.id, k.id, NOW);
    expect((await cache.find(counted, k.hash))?.key.revoked_at).toBe(NOW.toISOString());
  });

  it("sees a revocation by another process at the very next call", async () => {
    const k = await keyIn('revoked');
    expect((await find(k.hash))?.key.revoked_at).toBeNull();
    expect((await find(k.hash))?.key.revoked_at).toBeNull();
    await revokeApiKey(other.kysely, k.ws.id, k.id, NOW);
    expect((await find(k.hash))?.key.revoked_at).toBe(NOW.toISOString());
  });

  it('sees a revocation in this process at the very next call', async () => {
    const k = await keyIn('revoked-here');
    expect((await find(k.hash))?.key.revoked_at).toBeNull();
    await t.db.write((trx) => revokeApiKey(trx, k.ws.id, k.id, NOW));
    expect((await find(k.hash))?.key.revoked_at).toBe(NOW.toISOString());
  });

  it('sees the key creator leave the workspace, and a data version move', async () => {
    const k = await keyIn('left');
    expect((await find(k.hash))?.creatorRole).toBe('admin');
    const before = (await find(k.hash))!.workspace.ranking_version;
    await other.kysely.updateTable('workspaces').set({ ranking_version: before + 1 }).where('id', '=', k.ws.id).execute();
    expect((await find(k.hash))?.workspace.ranking_version).toBe(before + 1);
    await removeMember(other.kysely, k.ws.id, 'admin@example.com');
    expect((await find(k.hash))?.creatorRole).toBeNull();
  });

  it("a key's last-use stamp does not move the revision", async () => {
    const k = await keyIn('stamped');
    const { authRevision, touchApiKey } = await import('../../src/api/keys-store.js');
    const n = await authRevision(t.db.kysely);
    await touchApiKey(other.kysely, k.id, NOW);
    expect(await authRevision(t.db.kysely)).toBe(n);
  });
});
