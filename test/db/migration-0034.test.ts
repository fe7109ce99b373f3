/**
 * Migration 0034_webhook_failure_streak over endpoints written before it: an endpoint failing now
 * gets the time of its latest attempt as its last failure (its streak goes on), any other none.
 */
import { describe, expect, it } from 'vitest';
import { databaseBeforeMigration } from '../helpers/db.js';

const { db, before, after } = databaseBeforeMigration('0034');

describe('migration 0034 over endpoints written before it', () => {
  it("sets a failing endpoint's last failure to its latest attempt, and no other's", async () => {
    await before();
    const at = '2026-01-01T00:00:00.000Z';
    await db.insertInto('workspaces').values({ id: 'ws_1', name: 'ws_1', created_at: at }).execute();
    const endpoint = (id: string, failingSince: number | null) =>
      db.insertInto('webhook_endpoints').values({ id, workspace_id: 'ws_1', url: 'https://hooks.example/', secret: 'sealed', created_at: at, failing_since_ms: failingSince }).execute();
    await endpoint('whe_failing', 1_000);
    await endpoint('whe_fine', null);
    let n = 0;
    for (const [endpointId, startedMs] of [['whe_failing', 1_000], ['whe_failing', 9_000], ['whe_failing', 5_000], ['whe_fine', 7_000]] as const) {
      const id = `msg_${++n}`;
      await db.insertInto('webhook_deliveries').values({ id, workspace_id: 'ws_1', endpoint_id: endpointId, event_id: `evt_${n}`, event_type: 'deal.created', seq: n, status: 'pending', next_attempt_ms: 0, created_ms: 0 }).execute();
      await db.insertInto('webhook_attempts').values({ id: `att_${n}`, delivery_id: id, attempt: 1, started_ms: startedMs, duration_ms: 1, status_code: 500, error: 'HTTP 500' }).execute();
    }

    expect(await after()).toContain('0034_webhook_failure_streak');

    const rows = await db.selectFrom('webhook_endpoints').select(['id', 'failing_since_ms', 'last_failure_ms']).orderBy('id').execute();
    expect(rows.map((r) => [r.id, r.failing_since_ms, r.last_failure_ms])).toEqual([['whe_failing', 1_000, 9_000], ['whe_fine', null, null]]);
  });
});
