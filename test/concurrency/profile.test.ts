/**
 * A workspace's profile set by many `storelens workspaces profile` processes at once over one
 * PostgreSQL database (operators on several machines), while two `storelens api` processes
 * answer GET /profile: each write's updated_at is its own and later than the one before it, the
 * profile stored is the last write's, and a reader never sees updated_at go back or a profile
 * with another write's updated_at. (The profile has no HTTP write and no version or If-Match:
 * updated_at is what a reader compares.) And an admin removed by another process while the
 * command checks them sets nothing.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getProfile, setProfile } from '../../src/accounts/profile-store.js';
import { lockMember } from '../../src/members/owners.js';
import { removeMember, upsertMember } from '../../src/members/store.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { type ApiProcesses, spawnStorelens, startApiProcesses } from '../helpers/api-processes.js';
import { call } from '../helpers/api.js';
import { dialects, freshDb, type TestDb, whileHeld } from '../helpers/db.js';
import { seedWorkspace } from './fixture.js';

// Six writers released at once by the barrier, all waiting on the same lock: every pair of writes
// races, in whatever order the database picks (each writer is a process: more add start-up time).
const WRITERS = 6;
const pg = dialects.find((d) => d.name === 'PostgreSQL')!;

interface Written {
  min_visits: number;
  updated_at: string;
}

describe.skipIf(pg.skip)(`the workspace profile set by ${WRITERS} processes at once over one ${pg.label} database`, () => {
  let t: TestDb;
  let procs: ApiProcesses;

  beforeAll(async () => {
    t = await freshDb('PostgreSQL');
    procs = await startApiProcesses(t, 2);
  }, 60_000);
  afterAll(async () => {
    const exits = (await procs?.stop()) ?? [];
    await t?.cleanup();
    for (const e of exits) expect([e.code, e.stderr]).toEqual([0, expect.not.stringMatching(/unhandled|Error:/i)]);
  }, 60_000);

  /**
   * Every writer started while the test holds the profiles table (EXCLUSIVE: reads go on, writes
   * wait), released together once each waits for a lock (the table, or the workspace row the
   * first one took): the barrier. Writer i sets min_visits i.
   * Meanwhile a reader on each api process reads GET /profile until it sees `last(writes)`.
   */
  async function race(ws: Workspace, key: string): Promise<{ writes: Written[]; reads: Written[][] }> {
    let locked!: () => void;
    let release!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const released = new Promise<void>((r) => (release = r));
    const held = t.db.write(async (trx) => {
      await sql`lock table workspace_profiles in exclusive mode`.execute(trx);
      locked();
      await released;
    });
    await isLocked;
    const writers = Array.from({ length: WRITERS }, (_, i) =>
      spawnStorelens(t, ['workspaces', 'profile', ws.name, '--as', 'owner@example.com', '--min-visits', String(i)]),
    );
    try {
      for (;;) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
          where datname = current_database() and wait_event_type = 'Lock'`.execute(t.db.kysely);
        if (Number(rows[0]!.n) === WRITERS) break;
        const gone = writers.find((w) => w.child.exitCode !== null);
        if (gone) throw new Error(`a writer exited before the barrier:\n${gone.stderr()}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    } finally {
      release();
      await held;
    }
    let done = false;
    const readers = procs.bases.map(async (base) => {
      const seen: Written[] = [];
      while (!done) {
        const r = await call(base, 'GET', '/profile', { key });
        expect(r.status).toBe(200);
        const body = r.body as { profile: { min_visits: number } | null; updated_at: string | null };
        if (body.profile) seen.push({ min_visits: body.profile.min_visits, updated_at: body.updated_at! });
      }
      return seen;
    });
    const exits = await Promise.all(writers.map((w) => w.exited));
    const writes = writers.map((w, i) => {
      expect([exits[i]!.code, w.stderr()]).toEqual([0, '']);
      const at = w.stdout().match(/^Profile of .* \(updated (\S+)\):/)?.[1];
      expect(at, w.stdout()).toBeDefined();
      return { min_visits: i, updated_at: at! };
    });
    done = true;
    return { writes, reads: await Promise.all(readers) };
  }

  /** The invariants a reader relies on, whatever order the database applied the writes in. */
  function expectOrdered(writes: Written[], reads: Written[][], stored: Written): Written[] {
    const applied = [...writes].sort((a, b) => (a.updated_at < b.updated_at ? -1 : a.updated_at > b.updated_at ? 1 : 0));
    expect(new Set(writes.map((w) => w.updated_at)).size, JSON.stringify(applied)).toBe(WRITERS);
    expect(stored).toEqual(applied.at(-1));
    const known = new Map(writes.map((w) => [w.updated_at, w.min_visits]));
    for (const seen of reads) {
      seen.forEach((s, i) => {
        if (i > 0) expect(s.updated_at >= seen[i - 1]!.updated_at, `${s.updated_at} read after ${seen[i - 1]!.updated_at}`).toBe(true);
        if (known.has(s.updated_at)) expect(s.min_visits).toBe(known.get(s.updated_at));
      });
    }
    return applied;
  }

  async function storedProfile(ws: Workspace): Promise<Written> {
    const p = await getProfile(t.db.kysely, ws.id);
    return { min_visits: p.profile!.min_visits!, updated_at: p.updated_at! };
  }

  it('gives each of the racing first writes its own updated_at and keeps the last one applied', async () => {
    const { ws, keys } = await seedWorkspace(t.db, ['read:accounts']);
    const { writes, reads } = await race(ws, keys[0]!);
    expectOrdered(writes, reads, await storedProfile(ws));
  }, 120_000);

  it('moves updated_at one millisecond past the one before at each racing write when every clock is behind the stored time', async () => {
    const { ws, keys } = await seedWorkspace(t.db, ['read:accounts']);
    // Set by a machine whose clock is far ahead: every racing writer's clock is behind it.
    await t.db.write((trx) => setProfile(trx, ws.id, { min_visits: 100 }, new Date('2099-01-01T00:00:00.000Z')));
    const { writes, reads } = await race(ws, keys[0]!);
    const applied = expectOrdered(writes, reads, await storedProfile(ws));
    // Each write read the one applied before it: none lost, none skipped.
    expect(applied.map((w) => w.updated_at)).toEqual(Array.from({ length: WRITERS }, (_, i) => `2099-01-01T00:00:00.${String(i + 1).padStart(3, '0')}Z`));
    for (const seen of reads) for (const s of seen) expect([...writes, { min_visits: 100, updated_at: '2099-01-01T00:00:00.000Z' }]).toContainEqual(s);
  }, 120_000);

  it('sets nothing for an admin whose removal holds the workspace when the profile is set', async () => {
    const { ws } = await seedWorkspace(t.db, []);
    await upsertMember(t.db.kysely, ws.id, 'ari@example.com', 'admin', new Date());
    await t.db.write((trx) => setProfile(trx, ws.id, { plans: ['plus'] }, new Date()));
    const before = await getProfile(t.db.kysely, ws.id);
    // `members remove` in another process, its transaction open: to a read, the admin is one still.
    const set = await whileHeld(
      t.db,
      async (trx) => {
        await lockMember(trx, ws.id, 'ari@example.com');
        await removeMember(trx, ws.id, 'ari@example.com');
      },
      async () => {
        const p = spawnStorelens(t, ['workspaces', 'profile', ws.name, '--as', 'ari@example.com', '--plans', 'basic']);
        return { code: (await p.exited).code, stdout: p.stdout(), stderr: p.stderr() };
      },
    );
    expect(set).toEqual({ code: 2, stdout: '', stderr: expect.stringContaining('ari@example.com is not a member of workspace') });
    expect(await getProfile(t.db.kysely, ws.id)).toEqual(before);
  }, 60_000);
});
