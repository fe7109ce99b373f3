/**
 * The events of an import: a workspace fed only by `storelens accounts import` hears of the
 * accounts that join and leave its in-market list (store.entered, store.exited) as a workspace fed
 * by store data does, in the transaction that makes the import's ranking current — delivered to a
 * webhook endpoint subscribed to them, nothing for an account whose place on the list did not
 * change, nothing for an import that changes nothing on it. Whatever the doors (imports,
 * statuses and the re-listing they cause) and however two imports race on two handles, the events,
 * replayed in their order, give the list the workspace ends with.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { refreshWorkspace } from '../../src/accounts/refresh.js';
import { currentRanking } from '../../src/accounts/ranking-reads.js';
import { type AccountInput, importAccounts, setAccountStatus } from '../../src/accounts/store.js';
import type { AccountStatus } from '../../src/accounts/statuses.js';
import type { Db } from '../../src/compose/database.js';
import { eventDeclaration, type EventType } from '../../src/compose/events.js';
import { listEvents } from '../../src/webhooks/outbox.js';
import { call, freshIdem, workspace } from '../helpers/api.js';
import { adminCli } from '../helpers/cli.js';
import { beforeFirstWrite, dialects, useTwoHandles } from '../helpers/db.js';
import { type Receiver, startReceiver, verify } from '../helpers/receiver.js';
import { settle, startWebhooks, type WebhookHarness } from '../helpers/webhooks.js';
import { suiteTempDir } from '../helpers/tmp.js';

type Event = { type: string; data: Record<string, unknown> };

/** The list events of a workspace, in their order, as `<type> <store_id>`. */
const transitions = (events: readonly Event[]) => events.filter((e) => e.type.startsWith('store.')).map((e) => `${e.type} ${String(e.data.store_id)}`);

/**
 * The in-market list a subscriber rebuilds from the events alone, in their order; an account
 * that enters while on the list, or leaves while off it, is a duplicated or lost transition.
 */
function replay(events: readonly Event[]): string[] {
  const list = new Set<string>();
  for (const e of events) {
    const id = String(e.data.store_id);
    if (e.type === 'store.entered') {
      expect(list.has(id), `store.entered ${id} while on the list`).toBe(false);
      list.add(id);
    } else if (e.type === 'store.exited') {
      expect(list.has(id), `store.exited ${id} while off the list`).toBe(true);
      list.delete(id);
    }
  }
  return [...list].sort();
}

/** The workspace's in-market list as its current ranking holds it. */
const listed = async (db: Db, wsId: string) =>
  (await currentRanking(db.kysely, wsId)).rows
    .filter((r) => r.in_market === 1)
    .map((r) => r.store_id)
    .sort();

const ndjson = (rows: readonly Record<string, unknown>[]) => `${rows.map((r) => JSON.stringify(r)).join('\n')}\n`;

for (const d of dialects) {
  describe.skipIf(d.skip)(`the events of an import on ${d.label}`, () => {
    let h: WebhookHarness;
    let rx: Receiver;
    const run = adminCli(() => h.t);
    const dir = suiteTempDir('storelens-import-events-');
    let files = 0;

    beforeEach(async () => {
      h = await startWebhooks(d.name);
      rx = await startReceiver();
    });
    afterEach(async () => {
      await rx?.close();
      await h?.close();
    });

    /** `storelens accounts import` of these lines into the harness's workspace. */
    async function importFile(rows: readonly Record<string, unknown>[]): Promise<void> {
      const file = join(dir, `f${++files}.ndjson`);
      writeFileSync(file, ndjson(rows));
      const r = await run('accounts', 'import', file, '--workspace', h.wsId);
      expect(r.code, r.stderr).toBe(0);
    }
    const outbox = async () => listEvents(h.db.kysely, h.wsId);

    it('announces the accounts a file puts on the list, then those a second file takes off and adds, to an endpoint subscribed to them', async () => {
      // The endpoint is older than the events (the CLI's clock reads 2026-02-01T09:00Z): it is sent every one.
      h.clock.set('2026-02-01T08:00:00Z');
      const ep = await call(h.base, 'POST', '/webhooks', { key: h.key, idem: freshIdem(), body: { url: rx.url(), event_types: ['store.entered', 'store.exited'] } });
      expect(ep.status, JSON.stringify(ep.body)).toBe(201);
      const secret = (ep.body as { secret: string }).secret;

      await importFile([{ store_id: 'A', score: 0.9 }, { store_id: 'B', score: 0.8 }, { store_id: 'C', score: 0.7, in_market: false }]);
      expect((await outbox()).map((e) => ({ type: e.type, data: e.data }))).toEqual([
        { type: 'store.entered', data: { store_id: 'A', transition: 'entered', score: 0.9, explore: false, signals: [], model_version: 0 } },
        { type: 'store.entered', data: { store_id: 'B', transition: 'entered', score: 0.8, explore: false, signals: [], model_version: 0 } },
      ]);
      // B leaves by the file's word, C joins; A stays on the list with another score: nothing.
      await importFile([{ store_id: 'A', score: 0.95 }, { store_id: 'B', score: 0.3, in_market: false }, { store_id: 'C', score: 0.75 }]);
      const events = await outbox();
      expect(events.slice(2).map((e) => ({ type: e.type, data: e.data }))).toEqual([
        { type: 'store.exited', data: { store_id: 'B', transition: 'exited', score: 0.3, model_version: 0 } },
        { type: 'store.entered', data: { store_id: 'C', transition: 'entered', score: 0.75, explore: false, signals: [], model_version: 0 } },
      ]);
      for (const e of events) expect(eventDeclaration(e.type as EventType).payload.safeParse(e.data).success, JSON.stringify(e)).toBe(true);

      h.clock.set('2026-02-01T09:01:00Z');
      await settle(h.deliverer());
      const received = [...rx.received].sort((a, b) => a.json.sequence - b.json.sequence);
      for (const r of received) verify(secret, r);
      expect(received.map((r) => `${r.json.type} ${r.json.data.store_id}`)).toEqual(['store.entered A', 'store.entered B', 'store.exited B', 'store.entered C']);
      expect(replay(received.map((r) => r.json))).toEqual(await listed(h.db, h.wsId));
      expect(await listed(h.db, h.wsId)).toEqual(['A', 'C']);
    });

    it('announces nothing for an import that changes nothing on the list, and only the accounts that move for one that does', async () => {
      const file = [{ store_id: 'A', score: 0.9 }, { store_id: 'B', score: 0.8, in_market: false }];
      await importFile(file);
      expect(transitions(await outbox())).toEqual(['store.entered A']);
      // The same file again; new scores on the same side of the list; a new account off the list.
      await importFile(file);
      await importFile([{ store_id: 'A', score: 0.4 }, { store_id: 'B', score: 0.85, in_market: false }, { store_id: 'D', score: 0.2, in_market: false }]);
      expect(transitions(await outbox())).toEqual(['store.entered A']);
      // A file of one new account: the accounts it leaves out are carried, unannounced.
      await importFile([{ store_id: 'E', score: 0.6 }]);
      expect(transitions(await outbox())).toEqual(['store.entered A', 'store.entered E']);
      expect(replay(await outbox())).toEqual(await listed(h.db, h.wsId));
    });
  });

  describe.skipIf(d.skip)(`the event stream of imported accounts, replayed, is the list, on ${d.label}`, () => {
    const handles = useTwoHandles(d.name);
    const IDS = ['a', 'b', 'c', 'd', 'e', 'f'];
    const line = fc.record({ store_id: fc.constantFrom(...IDS), score: fc.integer({ min: 1, max: 99 }).map((n) => n / 100), in_market: fc.boolean() });
    const step = fc.oneof(
      fc.record({ kind: fc.constant('import' as const), lines: fc.uniqueArray(line, { selector: (l) => l.store_id, minLength: 1, maxLength: 6 }) }),
      fc.record({ kind: fc.constant('status' as const), id: fc.constantFrom(...IDS), status: fc.constantFrom<AccountStatus>('open', 'do_not_contact', 'customer', 'working') }),
      fc.record({ kind: fc.constant('rerank' as const) }),
    );

    it('after every import, status decision and re-listing, whatever their order', async () => {
      const { t } = handles();
      await fc.assert(
        fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 6 }), async (steps) => {
          const ws = await workspace(t.db);
          for (const s of steps) {
            const now = new Date();
            if (s.kind === 'import') await importAccounts(t.db, ws.id, s.lines, now);
            else if (s.kind === 'status') await t.db.write((trx) => setAccountStatus(trx, ws.id, s.id, { status: s.status, note: null, actor: 'key:test' }, now));
            else await refreshWorkspace(t.db, ws.id, now);
            expect(replay(await listEvents(t.db.kysely, ws.id))).toEqual(await listed(t.db, ws.id));
          }
        }),
        { numRuns: 20 },
      );
    });

    const FIRST: AccountInput[] = [{ store_id: 'a', score: 0.9 }, { store_id: 'b', score: 0.8 }, { store_id: 'c', score: 0.7, in_market: false }];
    // X lists b, which Y takes off: compared with FIRST (where b was on), X would say nothing of b.
    const X: AccountInput[] = [{ store_id: 'a', score: 0.9, in_market: false }, { store_id: 'b', score: 0.8 }, { store_id: 'c', score: 0.7 }, { store_id: 'x', score: 0.6 }];
    const Y: AccountInput[] = [{ store_id: 'b', score: 0.8, in_market: false }, { store_id: 'c', score: 0.7, in_market: false }, { store_id: 'y', score: 0.5 }];

    it('when another handle makes its import current while one is written: the second compares with the first, and nothing is lost or told twice', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      await importAccounts(t.db, ws.id, FIRST, new Date());
      // The other process imports Y, whole, between X's reads and its first write: X's version, computed from FIRST, cannot become current.
      const racing = beforeFirstWrite(t.db, () => importAccounts(other, ws.id, Y, new Date()));
      await importAccounts(racing.db, ws.id, X, new Date());
      expect(racing.ran()).toBe(true);
      const events = await listEvents(t.db.kysely, ws.id);
      expect(transitions(events)).toEqual([
        'store.entered a', 'store.entered b',
        // Y: b off, y on (c was off, and stays off).
        'store.exited b', 'store.entered y',
        // X over Y: a off, b back on, c and x on.
        'store.exited a', 'store.entered b', 'store.entered c', 'store.entered x',
      ]);
      expect(await listed(other, ws.id)).toEqual(['b', 'c', 'x', 'y']);
      expect(replay(events)).toEqual(await listed(other, ws.id));
    });

    it('when two handles import different files at once, round after round', async () => {
      const { t, other } = handles();
      const ws = await workspace(t.db);
      await importAccounts(t.db, ws.id, FIRST, new Date());
      const flip = (rows: AccountInput[], round: number) => rows.map((r) => ({ ...r, in_market: (round + r.store_id.charCodeAt(0)) % 3 !== 0 }));
      for (let round = 0; round < 6; round++) {
        await Promise.all([importAccounts(t.db, ws.id, flip(X, round), new Date()), importAccounts(other, ws.id, flip(Y, round + 1), new Date())]);
        const events = await listEvents(other.kysely, ws.id);
        expect(replay(events)).toEqual(await listed(t.db, ws.id));
      }
    });
  });
}
