/**
 * The concurrency suite's fixture: one database (SQLite file or PostgreSQL schema), two real
 * `storelens api` processes over it, and helpers to seed a workspace and fire requests at both
 * processes at once. Each suite checks what the processes stored against the invariants
 * docs/operations.md promises.
 */
import { afterAll, beforeAll, expect } from 'vitest';
import { newId } from '../../src/db/ids.js';
import { insertContact } from '../../src/contacts/store.js';
import type { Db } from '../../src/compose/database.js';
import type { Workspace } from '../../src/workspaces/tables.js';
import { setPilotAccess } from '../../src/workspaces/store.js';
import { readWallet } from '../../src/wallet/store.js';
import { credit } from '../../src/wallet/billing.js';
import type { Scope } from '../../src/api/scopes.js';
import { seedAccounts } from '../helpers/accounts.js';
import { type ApiProcesses, startApiProcesses } from '../helpers/api-processes.js';
import { type DialectName, freshDb, type TestDb } from '../helpers/db.js';
import { apiKey, call, type CallResult, freshIdem, workspace } from '../helpers/api.js';

export interface Fleet {
  t: TestDb;
  db: Db;
  procs: ApiProcesses;
}

/** A fresh database and two api processes over it for the suite; stopped (and checked to exit 0) after it. */
export function useFleet(dialect: DialectName, count = 2): () => Fleet {
  let fleet: Fleet | undefined;
  beforeAll(async () => {
    const t = await freshDb(dialect);
    const procs = await startApiProcesses(t, count);
    fleet = { t, db: t.db, procs };
  }, 60_000);
  afterAll(async () => {
    if (!fleet) return;
    const exits = await fleet.procs.stop();
    await fleet.t.cleanup();
    for (const e of exits) {
      expect(e.stderr).not.toMatch(/unhandled|driver has already been destroyed|Error:/i);
      expect(e.code).toBe(0);
    }
  }, 60_000);
  return () => fleet!;
}

export interface SeededWorkspace {
  ws: Workspace;
  /** `count` keys of the workspace (rate limits are per key: concurrent writes spread over them). */
  keys: string[];
}

/** A workspace with pilot access, `funds` minor units in its wallet and `count` keys with `scopes`. */
export async function seedWorkspace(db: Db, scopes: readonly Scope[], o: { keys?: number; funds?: number; accounts?: string[] } = {}): Promise<SeededWorkspace> {
  const ws = await workspace(db);
  await setPilotAccess(db.kysely, ws.id, true);
  if (o.funds) await db.write((trx) => credit(trx, ws.id, o.funds!, 'concurrency test', 'member:owner@example.com', freshIdem(), new Date()));
  if (o.accounts?.length) await seedAccounts(db, ws.id, o.accounts.map((store_id, i) => ({ store_id, score: 0.9 - i / (10 * o.accounts!.length) })));
  const keys = await Promise.all(Array.from({ length: o.keys ?? 1 }, () => apiKey(db, ws.id, scopes)));
  return { ws, keys };
}

/** A contact of `store` in the workspace, written straight to the database. */
export async function seedContact(db: Db, workspaceId: string, store: string): Promise<string> {
  const id = newId('con');
  const at = new Date().toISOString();
  await db.write((trx) => insertContact(trx, { id, workspace_id: workspaceId, store_id: store, name: null, email: `${id}@example.com`, role: null, source: 'manual', source_detail: null, created_by: 'member:owner@example.com', created_at: at, updated_at: at }));
  return id;
}

/**
 * `n` requests at once, alternating over the processes and the keys, each with its own
 * Idempotency-Key when it writes; resolves to every answer, in the order they were made.
 */
export async function burst(fleet: Fleet, n: number, req: (i: number) => { method: string; path: string; key: string; body?: unknown; write?: boolean }): Promise<CallResult[]> {
  return Promise.all(
    Array.from({ length: n }, (_, i) => {
      const r = req(i);
      const write = r.write ?? r.method !== 'GET';
      return call(fleet.procs.base(i), r.method, r.path, { key: r.key, body: r.body, idem: write ? freshIdem() : undefined });
    }),
  );
}

/** How many answers had each status, e.g. `{ 201: 1, 409: 19 }`. */
export function statuses(rs: readonly CallResult[]): Record<number, number> {
  const out: Record<number, number> = {};
  for (const r of rs) out[r.status] = (out[r.status] ?? 0) + 1;
  return out;
}

/**
 * What the ledger of a workspace must show after any race: seq strictly decreasing newest first,
 * each entry's balance_after = the next older one's + its amount, created_at never earlier than
 * an older entry's, the newest balance_after = the balance = the sum of the amounts. Resolves to
 * the entries, newest first.
 */
export async function expectConsistentLedger(db: Db, workspaceId: string): Promise<{ id: string; seq: number; amount: number; balance_after: number; created_at: string; operation_id: string; idempotency_key: string; refund_of: string | null }[]> {
  const rows = (await db.kysely.selectFrom('ledger_entries').select(['id', 'seq', 'amount', 'balance_after', 'created_at', 'operation_id', 'idempotency_key', 'refund_of']).where('workspace_id', '=', workspaceId).orderBy('seq', 'desc').execute()).map((r) => ({
    ...r,
    seq: Number(r.seq),
    amount: Number(r.amount),
    balance_after: Number(r.balance_after),
  }));
  const balance = (await readWallet(db.kysely, workspaceId, new Date())).balance;
  rows.forEach((r, i) => {
    const older = rows[i + 1];
    expect(r.balance_after, `entry seq ${r.seq}`).toBe((older?.balance_after ?? 0) + r.amount);
    if (older) {
      expect(r.seq).toBeGreaterThan(older.seq);
      expect(r.created_at >= older.created_at, `entry seq ${r.seq} dated ${r.created_at}, before ${older.created_at}`).toBe(true);
    }
  });
  expect(rows[0]?.balance_after ?? 0).toBe(balance);
  expect(rows.reduce((s, r) => s + r.amount, 0)).toBe(balance);
  return rows;
}

/**
 * Answers of a delete raced by other changes of the same thing, every third request a delete:
 * each delete 200, each other change 200 (it came first) or 404 not-found (the delete did).
 */
export function expectDeletesWon(rs: readonly CallResult[]): void {
  rs.forEach((r, i) => {
    if (i % 3 === 0) return expect(r.status).toBe(200);
    expect([200, 404]).toContain(r.status);
    if (r.status === 404) expect(r.body.type).toBe('https://storelens.dev/problems/not-found');
  });
}
