/**
 * Statuses in a workspace whose accounts come only from `storelens accounts import` (no store data
 * ingested): an account set to `do_not_contact`, `disqualified` or `customer` leaves the in-market
 * list as it does where a re-ranking scores the data — at the next re-rank, announced by
 * store.exited — and an import after the status keeps it off. A status set back to `open` lists the
 * account again as the file had it. A status decided while an import is written is never lost,
 * with the import and the decision on two handles of one database.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refreshLeased } from '../../src/accounts/refresh.js';
import { currentRanking } from '../../src/accounts/ranking-reads.js';
import { importAccounts, setAccountStatus } from '../../src/accounts/store.js';
import type { AccountStatus } from '../../src/accounts/statuses.js';
import type { Db } from '../../src/compose/database.js';
import { apiKey, call, freshIdem, startApi, workspace, type Harness } from '../helpers/api.js';
import { adminCli } from '../helpers/cli.js';
import { beforeFirstWrite, dialects, useTwoHandles } from '../helpers/db.js';
import { mcpClient, toolJson } from '../helpers/mcp.js';
import { suiteTempDir } from '../helpers/tmp.js';

/** A, B and C as an import file lists them: C not in market by the file's own word. */
const FILE = ['{"store_id":"A","score":0.9}', '{"store_id":"B","score":0.8}', '{"store_id":"C","score":0.7,"in_market":false}'].join('\n');
/** What importing FILE into an empty workspace announces (C is not on the list). */
const IMPORTED = ['store.entered A', 'store.entered B'];

type Row = { store_id: string; in_market: boolean; status: string };

for (const d of dialects) {
  describe.skipIf(d.skip)(`statuses of imported accounts (no store data) on ${d.label}`, () => {
    let h: Harness;
    const run = adminCli(() => h.t);
    const dir = suiteTempDir('storelens-import-statuses-');
    let n = 0;

    beforeAll(async () => {
      h = await startApi(d.name);
    });
    afterAll(async () => {
      await h?.close();
    });

    /** A workspace made and imported into through the CLI, with a key that reads and one that decides statuses. */
    async function imported(): Promise<{ wsId: string; name: string; file: string; read: string; write: string }> {
      const name = `imported-${++n}`;
      const ws = await run('workspaces', 'create', name, '--json');
      expect(ws.code, ws.stderr).toBe(0);
      const wsId = (ws.json as { id: string }).id;
      expect((await run('members', 'add', '--workspace', name, '--email', 'owner@example.com', '--role', 'owner')).code).toBe(0);
      const file = join(dir, `${name}.ndjson`);
      writeFileSync(file, `${FILE}\n`);
      const r = await run('accounts', 'import', file, '--workspace', name);
      expect(r.code, r.stderr).toBe(0);
      return { wsId, name, file, read: await apiKey(h.db, wsId, ['read:accounts']), write: await apiKey(h.db, wsId, ['write:deals']) };
    }
    const list = async (key: string, query = ''): Promise<Row[]> => {
      const page = await call(h.base, 'GET', `/accounts${query}`, { key });
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      return page.body.data.map((r: Row) => ({ store_id: r.store_id, in_market: r.in_market, status: r.status }));
    };
    const inMarket = async (key: string) => (await list(key)).map((r) => r.store_id);
    const decide = async (key: string, storeId: string, status: AccountStatus) => {
      const r = await call(h.base, 'POST', `/accounts/${storeId}/status`, { key, idem: freshIdem(), body: { status } });
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    };
    /** The re-rank the server's background loop runs after a status decision (its `refresh` trigger). */
    const rerank = (wsId: string) => refreshLeased(h.db, wsId, h.clock.now());
    const events = async (wsId: string) =>
      (await h.db.kysely.selectFrom('outbox').select(['type', 'data']).where('workspace_id', '=', wsId).orderBy('seq').execute()).map((e) => `${e.type} ${JSON.parse(e.data).store_id}`);

    it('takes an account set to do_not_contact off the in-market list at the next re-rank, with store.exited, and lists it again when set back to open', async () => {
      const { wsId, read, write } = await imported();
      expect(await inMarket(read)).toEqual(['A', 'B']);
      await decide(write, 'A', 'do_not_contact');
      await rerank(wsId);
      // It stayed: A listed with in_market true, and no event, however long the server ran.
      expect(await inMarket(read)).toEqual(['B']);
      expect(await list(read, '?filter=all')).toEqual([
        { store_id: 'A', in_market: false, status: 'do_not_contact' },
        { store_id: 'B', in_market: true, status: 'open' },
        { store_id: 'C', in_market: false, status: 'open' },
      ]);
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A']);
      // Nothing more to apply: the next turn writes nothing, nor after a decision that keeps B on the list.
      expect((await rerank(wsId))?.refreshed).toBe(false);
      await decide(write, 'B', 'working');
      expect((await rerank(wsId))?.refreshed).toBe(false);

      await decide(write, 'A', 'open');
      await rerank(wsId);
      expect(await inMarket(read)).toEqual(['A', 'B']);
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A', 'store.entered A']);
    });

    it('applies, at the first re-rank after the upgrade, a status decided before statuses held imported accounts off the list', async () => {
      const { wsId, read } = await imported();
      // As a database written before 0041 holds it: A's decision taken, its list version applying no status (nor saying which).
      await h.db.kysely.updateTable('accounts').set({ status: 'do_not_contact' }).where('workspace_id', '=', wsId).where('store_id', '=', 'A').execute();
      await h.db.kysely.updateTable('ranking_versions').set({ status_seq: null }).where('workspace_id', '=', wsId).execute();
      expect(await inMarket(read)).toEqual(['A', 'B']);
      await rerank(wsId);
      expect(await inMarket(read)).toEqual(['B']);
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A']);
    });

    it("keeps the file's own in_market under the status: C, out by the file, stays out when its status is set back to open", async () => {
      const { wsId, read, write } = await imported();
      await decide(write, 'C', 'disqualified');
      await decide(write, 'B', 'customer');
      await rerank(wsId);
      expect(await inMarket(read)).toEqual(['A']);
      await decide(write, 'C', 'open');
      await decide(write, 'B', 'working');
      await rerank(wsId);
      expect(await inMarket(read)).toEqual(['A', 'B']);
      // C never was in the list: only B's leaving and coming back are announced.
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited B', 'store.entered B']);
    });

    it('respects a status in an import made after it, before any re-rank, and announces the account leaving once', async () => {
      const { wsId, name, file, read, write } = await imported();
      await decide(write, 'A', 'customer');
      const again = await run('accounts', 'import', file, '--workspace', name);
      expect(again.code, again.stderr).toBe(0);
      // Importing A again listed it again.
      expect(await inMarket(read)).toEqual(['B']);
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A']);
      expect((await rerank(wsId))?.refreshed).toBe(false);
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A']);
      // A new file's word on A is kept under the status, and applies once the status allows it.
      writeFileSync(file, '{"store_id":"A","score":0.95,"in_market":false}\n');
      expect((await run('accounts', 'import', file, '--workspace', name)).code).toBe(0);
      await decide(write, 'A', 'open');
      await rerank(wsId);
      expect(await inMarket(read)).toEqual(['B']);
      // A was off the list throughout (held, then out by its file): nothing more to announce.
      expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A']);
    });

    it('takes an account off the list when an assistant sets its status through MCP, as over REST', async () => {
      const { wsId } = await imported();
      const key = await apiKey(h.db, wsId, ['read:accounts', 'write:deals']);
      const { client, close } = await mcpClient(h.base, { key });
      try {
        const set = await client.callTool({ name: 'set_account_status', arguments: { store_id: 'A', status: 'do_not_contact', idempotency_key: freshIdem() } });
        expect(set.isError, JSON.stringify(set.content)).toBeFalsy();
        await rerank(wsId);
        const listed = await client.callTool({ name: 'list_accounts', arguments: {} });
        expect(toolJson(listed).data.map((r: Row) => r.store_id)).toEqual(['B']);
        expect(await events(wsId)).toEqual([...IMPORTED, 'store.exited A']);
      } finally {
        await close();
      }
    });
  });

  describe.skipIf(d.skip)(`a status decided while an import is written, on two handles of ${d.label}`, () => {
    const handles = useTwoHandles(d.name);
    const accounts = [
      { store_id: 'A', score: 0.9 },
      { store_id: 'B', score: 0.8 },
    ];
    const decide = (db: Db, wsId: string, status: AccountStatus) => db.write((trx) => setAccountStatus(trx, wsId, 'A', { status, note: null, actor: 'key:test' }, new Date()));
    const listedA = async (db: Db, wsId: string) => (await currentRanking(db.kysely, wsId)).rows.find((r) => r.store_id === 'A')!.in_market;

    it('never makes current an import that missed a status decided after it read the statuses', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      await importAccounts(t.db, ws.id, accounts, new Date());
      // The other process decides between the import's reads and its first write.
      const racing = beforeFirstWrite(t.db, () => decide(other, ws.id, 'do_not_contact'));
      await importAccounts(racing.db, ws.id, accounts, new Date());
      expect(racing.ran()).toBe(true);
      // No re-rank ran: the import's own version keeps A off (it made A in market again).
      expect(await listedA(t.db, ws.id)).toBe(0);
      expect(await listedA(other, ws.id)).toBe(0);
    });

    it.skipIf(d.name !== 'PostgreSQL')('waits for a decision that holds the workspace row, then applies it (PostgreSQL row lock)', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      await importAccounts(t.db, ws.id, accounts, new Date());
      let release!: () => void;
      const gate = new Promise<void>((r) => (release = r));
      let holding!: () => void;
      const held = new Promise<void>((r) => (holding = r));
      // The other process's decision, its transaction open (the workspace row locked by its status count).
      const decision = other.write(async (trx) => {
        await setAccountStatus(trx, ws.id, 'A', { status: 'customer', note: null, actor: 'key:test' }, new Date());
        holding();
        await gate;
      });
      await held;
      const importing = importAccounts(t.db, ws.id, accounts, new Date());
      // The import reads the statuses before the decision commits, then waits for the row.
      for (;;) {
        const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and query ilike '%"workspaces"%'`.execute(t.db.kysely);
        if (Number(rows[0]!.n) > 0) break;
        await new Promise((r) => setTimeout(r, 10));
      }
      release();
      await decision;
      await importing;
      expect(await listedA(t.db, ws.id)).toBe(0);
    });
  });
}
