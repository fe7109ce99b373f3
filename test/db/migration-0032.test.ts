/**
 * Migration 0032_outbox_dispatched_cursor over an outbox written before it: each workspace's
 * cursor (outbox_sequences.dispatched_seq) stands before its first event not fanned out yet, or
 * at its last number when every event was (or was pruned); the per-row flag and its index go, and
 * the fan-outs after it dispatch exactly the events that were still waiting, across gaps in the
 * numbers (pruned events, or events numbered by time before 0017).
 */
import { describe, expect, it } from 'vitest';
import { fanOut, hasUndispatched } from '../../src/webhooks/messages-store.js';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0032');

describe('migration 0032 over an outbox written before it', () => {
  it('puts each workspace cursor before its first event not fanned out, and the next fan-out does exactly those', async () => {
    await before();
    const at = '2026-01-01T00:00:00.000Z';
    for (const id of ['ws_1', 'ws_2', 'ws_3', 'ws_4']) await db.insertInto('workspaces').values({ id, name: id, created_at: at }).execute();
    const events: [string, number, number][] = [
      ['ws_1', 1, 1], ['ws_1', 2, 1], ['ws_1', 3, 1], ['ws_1', 4, 0], ['ws_1', 5, 0],
      ['ws_2', 1, 1], ['ws_2', 2, 1], ['ws_2', 3, 1],
      // ws_4's first events were numbered by time (before 0017): far apart, one still to do.
      ['ws_4', 1_700_000_000_000_000, 1], ['ws_4', 1_700_000_000_500_000, 0], ['ws_4', 1_700_000_000_900_000, 0],
    ];
    for (const [ws, seq, dispatched] of events) {
      await db.insertInto('outbox').values({ id: `evt_${ws}_${seq}`, seq, workspace_id: ws, type: 'contact.created', data: '{}', created_at: at, dispatched }).execute();
    }
    // ws_3's events were pruned: its numbers remain.
    await db.insertInto('outbox_sequences').values([{ workspace_id: 'ws_1', last_seq: 5 }, { workspace_id: 'ws_2', last_seq: 3 }, { workspace_id: 'ws_3', last_seq: 2 }, { workspace_id: 'ws_4', last_seq: 1_700_000_000_900_000 }]).execute();

    expect(await after()).toContain('0032_outbox_dispatched_cursor');

    const cursors = await db.selectFrom('outbox_sequences').select(['workspace_id', 'dispatched_seq']).orderBy('workspace_id').execute();
    expect(cursors.map((c) => [c.workspace_id, Number(c.dispatched_seq)])).toEqual([['ws_1', 3], ['ws_2', 3], ['ws_3', 2], ['ws_4', 1_700_000_000_499_999]]);
    const columns = (await db.introspection.getTables()).find((t) => t.name === 'outbox')!.columns.map((c) => c.name);
    expect(columns).not.toContain('dispatched');

    expect(await hasUndispatched(db)).toBe(true);
    // ws_1's two and ws_4's first; then ws_4's range past its first is empty, and the cursor
    // moves to just before its next event, which the turn after takes.
    const turns: number[] = [];
    while ((await hasUndispatched(db)) && turns.length < 5) turns.push(await fanOut(db, 'sqlite', new Date(at)));
    expect(turns).toEqual([3, 0, 1]);
    expect(await hasUndispatched(db)).toBe(false);
    expect(await fanOut(db, 'sqlite', new Date(at))).toBe(0);
  });
});
