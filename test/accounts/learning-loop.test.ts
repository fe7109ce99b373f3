import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBackground, type Background } from '../../src/compose/background.js';
import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { seedRun } from '../helpers/accounts.js';

// An outcome answers at once and the workspace's ranking is refit behind it, by the server's
// background worker (never on the request path).
for (const d of dialects) {
  describe.skipIf(d.skip)(`re-ranking after outcomes on ${d.label}`, () => {
    let h: Harness;
    let bg: Background;
    const lines: string[] = [];
    beforeAll(async () => {
      let onWrite: Background['onWrite'] = () => {};
      h = await startApi(d.name, { onWrite: (triggers, ws) => onWrite(triggers, ws) });
      bg = startBackground(h.db, { now: h.clock.now, log: (l) => lines.push(l), everyMs: 3_600_000 });
      onWrite = bg.onWrite;
      const stores = Array.from({ length: 60 }, (_, i) => ({ store_id: `st${i}`, country: 'US', category: i % 2 ? 'toys' : 'beauty', plan: 'grow', monthly_visits: 500 + i }));
      await seedRun(h.db, '2026-10', 'run-2026-10', stores, stores.map((s) => ({ store_id: s.store_id, type: 'app_installed' as const, subject: 'klaviyo' })));
    });
    afterAll(async () => {
      await bg?.stop();
      await h?.close();
    });

    const modelVersion = async (wsId: string) =>
      (await h.db.kysely.selectFrom('workspace_models').select('version').where('workspace_id', '=', wsId).executeTakeFirst())?.version;

    it('refits the model after POST /outcomes, and a replayed outcome refits nothing', async () => {
      const ws = await workspace(h.db);
      bg.worker.trigger('refresh');
      await bg.worker.idle();
      expect(await modelVersion(ws.id)).toBe(1);
      const key = await apiKey(h.db, ws.id, ['write:outcomes', 'read:accounts']);
      const body = { store_id: 'st2', action: 'won' };
      const r = await call(h.base, 'POST', '/outcomes', { key, idem: 'o-1', body });
      expect(r.status).toBe(200);
      await bg.worker.idle();
      expect(await modelVersion(ws.id)).toBe(2);
      expect(lines.some((l) => l.includes(`re-ranked workspace ${ws.id}`) && l.includes('1 labels'))).toBe(true);
      const again = await call(h.base, 'POST', '/outcomes', { key, idem: 'o-1', body });
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      await bg.worker.idle();
      expect(await modelVersion(ws.id)).toBe(2);
    });

    it('walks every account exactly once while outcomes re-rank the list mid-walk, and the scores move', async () => {
      const ws = await workspace(h.db);
      bg.worker.trigger('refresh');
      await bg.worker.idle();
      const key = await apiKey(h.db, ws.id, ['write:outcomes', 'read:accounts']);
      const seen: string[] = [];
      const scores = new Map<string, number>();
      let cursor: string | null = null;
      let page = 0;
      do {
        const r = await call(h.base, 'GET', `/accounts?filter=all&limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, { key });
        expect(r.status).toBe(200);
        for (const a of r.body.data) {
          seen.push(a.store_id);
          scores.set(a.store_id, a.score);
        }
        cursor = r.body.next_cursor;
        if (page++ < 3) {
          // Each outcome refits the model: the ranking the cursor started on is superseded.
          const o = await call(h.base, 'POST', '/outcomes', { key, idem: `walk-${page}`, body: { store_id: `st${page * 2}`, action: 'lost', lost_reason: 'timing' } });
          expect(o.status).toBe(200);
          await bg.worker.idle();
        }
      } while (cursor);
      expect(seen.length).toBe(60);
      expect(new Set(seen).size).toBe(60);
      expect(await modelVersion(ws.id)).toBe(4);
      const now = await call(h.base, 'GET', '/accounts?filter=all&limit=100', { key });
      const moved = now.body.data.filter((a: { store_id: string; score: number }) => a.score !== scores.get(a.store_id));
      expect(moved.length).toBeGreaterThan(0);
    });
  });
}
