import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, createServer, type AddressInfo, type Server, type Socket } from 'node:net';
import { sql } from 'kysely';
import pg from 'pg';
import { dialects, freshDb, pgUrl, type TestDb } from '../helpers/db.js';
import { openDatabase } from '../../src/compose/database.js';
import { CONNECT_TIMEOUT_MS, connectTimeoutMs } from '../../src/db/index.js';
import { isDatabaseUnavailable } from '../../src/db/errors.js';
import { createWorkspace } from '../../src/workspaces/store.js';
import { countAccounts, markDelivered, importAccounts } from '../../src/accounts/store.js';
import { hitRateCounters } from '../../src/api/rate-counters.js';
import { claimIdempotencyKey, completeIdempotencyKey } from '../../src/api/idempotency-store.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`database on ${d.label}`, () => {
    let t: TestDb;
    beforeAll(async () => {
      t = await freshDb(d.name, { fromScratch: true });
    });
    afterAll(async () => t?.cleanup());

    it('runs the migrations once and is current on the next open', async () => {
      expect(t.db.appliedMigrations).toEqual(['0001_api_platform', '0002_ranking_history', '0003_accounts_version', '0004_accounts_intelligence', '0005_deals', '0006_contacts', '0007_watches', '0008_webhooks', '0009_ranking_versions', '0010_wallet', '0012_members_auth', '0013_money_invariants', '0015_leases', '0016_rate_counter_prev', '0017_outbox_order', '0018_signin_throttle', '0020_oauth_grants', '0021_outcome_scores', '0022_ranking_logit_sd', '0023_one_pending_approval', '0024_outreach_step_claims', '0025_imported_evidence', '0026_auth_notices', '0027_ranking_details_rowid', '0028_ranking_position_buckets', '0029_ranking_blocks', '0030_auth_revision', '0031_packed_readers_plpgsql', '0032_outbox_dispatched_cursor', '0033_oauth_token_hashes', '0034_webhook_failure_streak', '0035_wallets_of_delivered', '0036_money_range', '0039_signals_by_type', '0040_workspace_name_key', '0041_status_seq', '0042_watch_finding_ends']);
      const again = await openDatabase({ dbPath: t.dbPath, databaseUrl: t.databaseUrl });
      expect(again.appliedMigrations).toEqual([]);
      await again.close();
    });

    it('returns counts as numbers, not strings', async () => {
      const ws = await createWorkspace(t.db.kysely, 'counts', new Date());
      await importAccounts(t.db, ws.id, [{ store_id: 'a', score: 1 }, { store_id: 'b', score: 2 }], new Date());
      expect(await countAccounts(t.db.kysely, ws.id)).toBe(2);
      const big = await t.db.kysely.selectNoFrom(sql<number>`cast(9007199254740 as bigint)`.as('n')).executeTakeFirstOrThrow();
      expect(big.n).toBe(9007199254740);
    });

    it('counts rate-limit hits atomically, admitting asking calls only below the limit', async () => {
      const hit = async (asking: number) =>
        (await t.db.autocommit((q) => hitRateCounters(q, [{ apiKeyId: 'k1', kind: 'read', windowMs: 60_000, asking, limit: 20 }])))[0]!;
      const counts = (await Promise.all(Array.from({ length: 25 }, () => hit(1)))).map((r) => r.count);
      expect(counts.sort((a, b) => a - b)).toEqual([...Array.from({ length: 20 }, (_, i) => i + 1), 20, 20, 20, 20, 20]);
      // At the limit a write gets none of the calls it asks for; the answer says where it started.
      expect(await hit(3)).toEqual({ prev: 20, count: 20 });
    });

    it('counts several keys in one write, each answer in the order of the writes', async () => {
      const at = new Date('2026-03-01T10:00:00.000Z');
      await t.db.kysely.insertInto('workspaces').values({ id: 'ws-rc', name: 'rc', created_at: at.toISOString() }).execute();
      await t.db.kysely.insertInto('api_keys').values({ id: 'k-touch', workspace_id: 'ws-rc', name: 'k', prefix: 'p', hash: 'h-touch', scopes: '[]', created_by: 'a@example.com', created_at: at.toISOString(), revoked_at: null, last_used_at: null }).execute();
      const write = (apiKeyId: string, kind: string, asking: number, limit: number) => ({ apiKeyId, kind, windowMs: 120_000, asking, limit });
      const first = await t.db.autocommit((q) => hitRateCounters(q, [write('kz', 'read', 1, 120), write('ka', 'write', 30, 20), write('km', 'read', 2, 120)], new Map([['k-touch', at]])));
      expect(first).toEqual([{ prev: 0, count: 1 }, { prev: 0, count: 20 }, { prev: 0, count: 2 }]);
      const again = await t.db.autocommit((q) => hitRateCounters(q, [write('ka', 'write', 2, 20), write('kz', 'read', 1, 120)]));
      expect(again).toEqual([{ prev: 20, count: 20 }, { prev: 1, count: 2 }]);
      const touched = await t.db.kysely.selectFrom('api_keys').select('last_used_at').where('id', '=', 'k-touch').executeTakeFirstOrThrow();
      expect(touched.last_used_at).toBe(at.toISOString());
    });

    it('bumps the ranking version only when an existing score changes', async () => {
      const ws = await createWorkspace(t.db.kysely, 'rerank', new Date());
      const r1 = await importAccounts(t.db, ws.id, [{ store_id: 'a', score: 1 }], new Date());
      const r2 = await importAccounts(t.db, ws.id, [{ store_id: 'b', score: 3 }, { store_id: 'a', score: 1 }], new Date());
      const r3 = await importAccounts(t.db, ws.id, [{ store_id: 'a', score: 5 }], new Date());
      expect([r1.reranked, r2.reranked, r3.reranked]).toEqual([false, false, true]);
    });

    it('commits concurrent writes together and undoes only the one that throws', async () => {
      const put = (name: string, fail = false) =>
        t.db.write(async (trx) => {
          await trx.insertInto('settings').values({ name, value: name }).execute();
          if (fail) throw new Error(`${name} failed`);
          return name;
        });
      const results = await Promise.allSettled([put('gc-a'), put('gc-b', true), put('gc-c'), put('gc-d')]);
      expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled', 'fulfilled']);
      expect((results[0] as PromiseFulfilledResult<string>).value).toBe('gc-a');
      const names = await t.db.kysely.selectFrom('settings').select('name').where('name', 'like', 'gc-%').orderBy('name').execute();
      expect(names.map((r) => r.name)).toEqual(['gc-a', 'gc-c', 'gc-d']);
    });

    it('fails a write whose statement breaks a constraint without losing the others', async () => {
      await t.db.write((trx) => trx.insertInto('settings').values({ name: 'gc-dup', value: '1' }).execute());
      const results = await Promise.allSettled([
        t.db.write((trx) => trx.insertInto('settings').values({ name: 'gc-dup', value: '2' }).execute()),
        t.db.autocommit((q) => q.insertInto('settings').values({ name: 'gc-e', value: '1' }).execute()),
      ]);
      expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled']);
      const rows = await t.db.kysely.selectFrom('settings').select(['name', 'value']).where('name', 'in', ['gc-dup', 'gc-e']).orderBy('name').execute();
      expect(rows).toEqual([{ name: 'gc-dup', value: '1' }, { name: 'gc-e', value: '1' }]);
    });

    it('bumps the accounts version on every change to accounts, not on delivery', async () => {
      const ws = await createWorkspace(t.db.kysely, 'versions', new Date());
      const version = async () => (await t.db.kysely.selectFrom('workspaces').select('accounts_version').where('id', '=', ws.id).executeTakeFirstOrThrow()).accounts_version;
      const v0 = await version();
      await importAccounts(t.db, ws.id, [{ store_id: 'a', score: 1 }], new Date());
      const v1 = await version();
      await importAccounts(t.db, ws.id, [{ store_id: 'a', score: 1, domain: 'a.example' }], new Date());
      const v2 = await version();
      await t.db.write((trx) => markDelivered(trx, ws.id, ['a'], new Date()));
      expect([v1 > v0, v2 > v1, await version()]).toEqual([true, true, v2]);
    });

    it('lets one claim of an idempotency key win and takes over expired ones', async () => {
      const first = await t.db.write((trx) => claimIdempotencyKey(trx, 'ws', 'k', 'f1', 1000, 500));
      expect(first.claimed).toBe(true);
      await t.db.write((trx) => completeIdempotencyKey(trx, 'ws', 'k', 200, '{}'));
      const second = await t.db.write((trx) => claimIdempotencyKey(trx, 'ws', 'k', 'f2', 1200, 500));
      expect(second).toMatchObject({ claimed: false, existing: { fingerprint: 'f1', status: 200 } });
      const later = await t.db.write((trx) => claimIdempotencyKey(trx, 'ws', 'k', 'f2', 1600, 500));
      expect(later.claimed).toBe(true);
    });
  });
}

describe('a PostgreSQL server the network cannot reach', () => {
  // Node's error for a server whose machine is down (no answer to ARP on its network): before,
  // only a refused, reset or timed-out connection counted, so it was a 500 to API callers, not a
  // 503, a start that did not name the database, and a failure of every background turn rather
  // than one outage (a worker said so four times a second).
  it.each([
    ['a host that is down', 'connect EHOSTUNREACH 10.0.0.5:5432', 'EHOSTUNREACH'],
    ['a network with no route to it', 'connect ENETUNREACH 10.0.0.5:5432', 'ENETUNREACH'],
    ['a network that is down', 'connect ENETDOWN 10.0.0.5:5432', 'ENETDOWN'],
    ['a resolver that did not answer', 'getaddrinfo EAI_AGAIN db.internal', 'EAI_AGAIN'],
  ])('counts %s as unavailable', (_what, message, code) => {
    const e = Object.assign(new Error(message), { code, syscall: code === 'EAI_AGAIN' ? 'getaddrinfo' : 'connect' });
    expect(isDatabaseUnavailable(e)).toBe(true);
  });
});

describe.skipIf(!pgUrl)(`a PostgreSQL server that refuses the connection${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  // Its error is FATAL with a SQLSTATE of no connection class (3D000 here; 55000 for a database
  // not accepting connections, 28P01 for a password that no longer works): before, an API
  // request answered 500 with a stack in the log, and a worker logged every turn of every task.
  it('counts a connection ended by a FATAL error as unavailable, whatever its SQLSTATE', async () => {
    const c = new pg.Client({ connectionString: Object.assign(new URL(pgUrl!), { pathname: '/storelens_no_such_database' }).toString() });
    const e = await c.connect().then(() => null, (err: unknown) => err);
    expect(e).toMatchObject({ severity: 'FATAL', code: '3D000' });
    expect(isDatabaseUnavailable(e)).toBe(true);
    expect(isDatabaseUnavailable(Object.assign(new Error('duplicate key'), { severity: 'ERROR', code: '23505' }))).toBe(false);
  });
});

describe('a PostgreSQL server that accepts connections and never answers', () => {
  let server: Server;
  let port: number;
  const sockets = new Set<Socket>();
  beforeAll(async () => {
    server = createServer((s) => {
      s.resume();
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((resolve) => server.close(resolve));
  });

  it('is given up after connect_timeout, as unavailable, the connection closed', async () => {
    const opening = openDatabase({ databaseUrl: `postgres://storelens@127.0.0.1:${port}/storelens?connect_timeout=2` });
    const e = await opening.then(() => null, (err: unknown) => err);
    expect((e as Error).message).toBe(`PostgreSQL 127.0.0.1:${port}/storelens does not answer: no connection within 2 s (connect_timeout)`);
    expect(isDatabaseUnavailable(e)).toBe(true);
    await expect.poll(() => sockets.size).toBe(0);
  });

  it('reads connect_timeout from the URL as libpq does', () => {
    const url = 'postgres://u@db.internal/storelens';
    expect(connectTimeoutMs(url)).toBe(CONNECT_TIMEOUT_MS);
    expect(connectTimeoutMs(`${url}?connect_timeout=30`)).toBe(30_000);
    expect(connectTimeoutMs(`${url}?sslmode=disable&connect_timeout=1`)).toBe(2_000);
    expect(connectTimeoutMs(`${url}?connect_timeout=0`)).toBe(0);
    expect(() => connectTimeoutMs(`${url}?connect_timeout=10s`)).toThrow(/connect_timeout must be a whole number of seconds/);
  });
});

describe.skipIf(!pgUrl)(`a PostgreSQL connection lost while it is in use${pgUrl ? '' : ' (skipped: set DATABASE_URL)'}`, () => {
  // Between the process and the server, a proxy of the test's own that cuts a connection the moment
  // it carries the marker: the server or the network going away under a statement in flight.
  const MARKER = 'storelens_cut_here';
  let t: TestDb;
  let proxy: Server;
  const pairs = new Set<Socket>();
  beforeAll(async () => {
    t = await freshDb('PostgreSQL');
    const server = new URL(pgUrl!);
    proxy = createServer((client) => {
      const upstream = connect(Number(server.port || 5432), server.hostname);
      pairs.add(client).add(upstream);
      const cut = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('data', (chunk: Buffer) => (chunk.includes(MARKER) ? cut() : upstream.write(chunk)));
      upstream.on('data', (chunk: Buffer) => client.write(chunk));
      for (const s of [client, upstream]) {
        s.on('error', cut);
        s.on('close', () => (pairs.delete(s), cut()));
      }
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  });
  afterAll(async () => {
    for (const s of pairs) s.destroy();
    await new Promise((resolve) => proxy.close(resolve));
    await t?.cleanup();
  });

  it('fails the transaction as unavailable, the process goes on, and the pool connects again', async () => {
    const url = new URL(t.databaseUrl!);
    url.host = `127.0.0.1:${(proxy.address() as AddressInfo).port}`;
    const db = await openDatabase({ databaseUrl: url.toString() });
    // Before: pg emits 'error' on a client that loses its server while checked out, which nothing
    // listened to: the exception ended the process (a worker died with the database's first blip).
    const uncaught: unknown[] = [];
    const record = (e: unknown) => uncaught.push(e);
    process.on('uncaughtException', record);
    try {
      const failures = { statement: undefined as unknown, next: undefined as unknown };
      const written = await db
        .write(async (trx) => {
          failures.statement = await sql`select ${sql.lit(MARKER)} as marker`.execute(trx).then(() => 'answered', (e: unknown) => e);
          failures.next = await sql`select 1 as one`.execute(trx).then(() => 'answered', (e: unknown) => e);
        })
        .then(() => 'committed', (e: unknown) => e);
      expect(uncaught).toEqual([]);
      expect((failures.statement as Error).message).toMatch(/Connection terminated unexpectedly/);
      // The transaction's next statement, on the client that lost its server, and the write as a
      // whole: unavailable (an API request answers 503, not 500).
      expect((failures.next as Error).message).toMatch(/not queryable/);
      for (const e of [failures.statement, failures.next, written]) expect(isDatabaseUnavailable(e)).toBe(true);
      await db.ping();
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(db.kysely);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      process.off('uncaughtException', record);
      await db.close();
    }
  });
});
