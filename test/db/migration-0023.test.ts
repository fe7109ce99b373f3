/**
 * Migration 0023_one_pending_approval over data written before it: a cause holding two pending
 * approvals (a key reused past its replay window, each with a report of its own) keeps the
 * oldest; the newer is denied and its report failed, as a denial ends it; nothing else moves.
 */
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0023');

const approval = (id: string, seq: number, key: string) => ({
  id, workspace_id: 'ws_1', seq, status: 'pending', unit: 'growth_report', quantity: 1, amount: 500, currency: 'USD', price_version: 1,
  operation_id: 'request_growth_report', idempotency_key: key, actor: 'key:k', resource_kind: 'growth_report', resource_id: `rep_${id}`, requested_at: '2026-01-01T00:00:00.000Z',
});
const report = (id: string, seq: number) => ({ id: `rep_${id}`, workspace_id: 'ws_1', seq, store_id: 'store-a', status: 'awaiting_approval', requested_by: 'key:k', approval_id: id, requested_at: '2026-01-01T00:00:00.000Z' });

describe('migration 0023 over duplicate pending approvals', () => {
  it('denies all but the oldest of a cause, fails what the denied ones held back, and then refuses a second pending one', async () => {
    await before();
    await db.insertInto('workspaces').values({ id: 'ws_1', name: 'w', created_at: '2026-01-01T00:00:00.000Z' }).execute();
    await db.insertInto('approvals').values([approval('a1', 1, 'K'), approval('a2', 2, 'K'), approval('b1', 3, 'other')]).execute();
    await db.insertInto('growth_reports').values([report('a1', 1), report('a2', 2), report('b1', 3)]).execute();

    expect(await after()).toContain('0023_one_pending_approval');

    const approvals = await db.selectFrom('approvals').select(['id', 'status', 'decided_by']).orderBy('id').execute();
    expect(approvals).toEqual([
      { id: 'a1', status: 'pending', decided_by: null },
      { id: 'a2', status: 'denied', decided_by: 'migration:0023_one_pending_approval' },
      { id: 'b1', status: 'pending', decided_by: null },
    ]);
    const reports = await db.selectFrom('growth_reports').select(['id', 'status', 'problem']).orderBy('id').execute();
    expect(reports.map((r) => [r.id, r.status])).toEqual([
      ['rep_a1', 'awaiting_approval'],
      ['rep_a2', 'failed'],
      ['rep_b1', 'awaiting_approval'],
    ]);
    expect(JSON.parse(reports[1].problem)).toMatchObject({ type: 'https://storelens.dev/problems/conflict', status: 409 });
    await expect(db.insertInto('approvals').values(approval('a3', 4, 'K')).execute()).rejects.toThrow(/UNIQUE/);
  });
});
