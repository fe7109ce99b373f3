/** The health rules of a watch, at their edges (src/watches/health.ts; docs/watches.md says the same). */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveHealth, type StoreObservation } from '../../src/watches/health.js';

const steady = (store_id: string, over: Partial<StoreObservation> = {}): StoreObservation => ({
  store_id,
  domain: null,
  present: true,
  signals: [],
  revenue: { current: 10_000, previous: 10_000 },
  ...over,
});
const check = (stores: StoreObservation[], extra: { currentMonth?: string; capacity?: { capacity: number; inMarket: number } } = {}) =>
  deriveHealth({ month: '2026-02', currentMonth: extra.currentMonth ?? '2026-03', stores, capacity: extra.capacity });

describe('watch health', () => {
  it('calls revenue at 75% of the month before a sharp fall, and 76% not', () => {
    expect(check([steady('s', { revenue: { current: 7_500, previous: 10_000 } })]).health).toBe('degraded');
    expect(check([steady('s', { revenue: { current: 7_600, previous: 10_000 } })]).health).toBe('healthy');
  });

  it('ignores revenue falls from under $1,000 and unknown revenue', () => {
    expect(check([steady('s', { revenue: { current: 0, previous: 999 } })]).health).toBe('healthy');
    expect(check([steady('s', { revenue: { current: null, previous: 10_000 } })]).health).toBe('healthy');
  });

  it('fails on data more than two months old, not on two', () => {
    expect(check([steady('s')], { currentMonth: '2026-04' }).health).toBe('healthy');
    const stale = check([steady('s')], { currentMonth: '2026-05' });
    expect([stale.health, stale.reason]).toEqual(['failing', 'The latest data is for 2026-02, 3 months before 2026-05']);
    expect(check([steady('s')], { currentMonth: '2027-01' }).reason).toBe('The latest data is for 2026-02, 11 months before 2027-01');
  });

  it('degrades when the in-market accounts exceed the capacity, not when they fill it', () => {
    expect(check([steady('s')], { capacity: { capacity: 1, inMarket: 1 } }).health).toBe('healthy');
    expect(check([steady('s')], { capacity: { capacity: 1, inMarket: 4 } }).reason).toBe('4 in-market accounts for a capacity of 1: 3 not watched');
  });

  it('reports a closed store once (the closure, not also its absence)', () => {
    const r = check([steady('s', { present: false, revenue: { current: null, previous: 10_000 }, signals: [{ type: 'store_closed', subject: null, detail: 'Closed' }] })]);
    expect(r.findings.map((f) => f.kind)).toEqual(['store_closed']);
    expect(r.reason).toBe('s: Closed');
  });

  it('names three stores in the reason, then counts the rest', () => {
    const gone = ['a', 'b', 'c', 'd', 'e'].map((id) => steady(id, { present: false }));
    expect(check(gone).reason).toBe('a: Not in the panel in 2026-02; b: Not in the panel in 2026-02; c: Not in the panel in 2026-02; and 2 more');
  });

  it('is the worst level any finding points to, whatever the order of the stores', () => {
    const kinds = [
      steady('ok'),
      steady('info', { signals: [{ type: 'app_installed', subject: 'x', detail: 'Installed x' }] }),
      steady('ads', { signals: [{ type: 'ad_channel_stopped', subject: 'meta', detail: 'Stopped advertising on Meta' }] }),
      steady('gone', { present: false }),
    ];
    const level = { ok: 0, info: 0, ads: 1, gone: 2 } as const;
    fc.assert(
      fc.property(fc.subarray(kinds), (stores) => {
        const worst = Math.max(0, ...stores.map((s) => level[s.store_id as keyof typeof level]));
        expect(check(stores).health).toBe(['healthy', 'degraded', 'failing'][worst]);
      }),
    );
  });
});
