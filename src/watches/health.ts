/**
 * The health rules of a watch, pure: what a check of the latest ingested month finds in the
 * watched stores, and the health it adds up to. docs/watches.md states the same rules in words.
 *
 * failing   a watched store closed (a `store_closed` signal) or is absent from the latest month;
 *           or the latest ingested month is more than STALE_MONTHS before the current month
 * degraded  a watched store's visits fell sharply (`traffic_down`), its estimated revenue fell
 *           sharply (REVENUE_DOWN_RATIO), it stopped an ad channel (`ad_channel_stopped`); or the
 *           managed watch holds fewer in-market accounts than there are (capacity exceeded)
 * healthy   none of these
 * paused    the watch is cancelled (set by the cancel itself, never by a check)
 */
import type { SignalType } from '../core/signals.js';
import type { WatchHealth } from './types.js';

/** Latest data more than this many months before the current month ⇒ failing. */
export const STALE_MONTHS = 2;
/** Estimated revenue at most this multiple of the previous month's ⇒ degraded… */
export const REVENUE_DOWN_RATIO = 0.75;
/** …when the previous month's estimate was at least this many USD (small numbers swing). */
export const REVENUE_DOWN_MIN_PREVIOUS_USD = 1000;

/** Signal types that degrade or fail a watch; every other signal is reported as a change only. */
const SIGNAL_LEVEL: Partial<Record<SignalType, 'degraded' | 'failing'>> = {
  store_closed: 'failing',
  traffic_down: 'degraded',
  ad_channel_stopped: 'degraded',
};

export interface StoreObservation {
  store_id: string;
  domain: string | null;
  /** The store is in the latest ingested month. */
  present: boolean;
  /** Its signals in the latest ingested month. */
  signals: readonly { type: SignalType; subject: string | null; detail: string }[];
  /** Estimated monthly revenue in the latest month and the calendar-previous one (null when unknown). */
  revenue: { current: number | null; previous: number | null };
}

export interface WatchObservation {
  /** Latest ingested month, YYYY-MM. */
  month: string;
  /** The current month (from the clock), YYYY-MM. */
  currentMonth: string;
  stores: readonly StoreObservation[];
  /** Managed watch only: its capacity and how many in-market accounts the workspace has. */
  capacity?: { capacity: number; inMarket: number };
}

/** One thing a check found: a change of a store in the month, or of the watch as a whole (store null). */
export interface Finding {
  store_id: string | null;
  domain: string | null;
  kind: string;
  subject: string | null;
  level: Exclude<WatchHealth, 'paused'>;
  detail: string;
}

export interface HealthResult {
  health: Exclude<WatchHealth, 'paused'>;
  reason: string;
  findings: Finding[];
}

const monthIndex = (m: string): number => Number(m.slice(0, 4)) * 12 + Number(m.slice(5, 7)) - 1;

export const monthsBetween = (from: string, to: string): number => monthIndex(to) - monthIndex(from);

export const previousMonth = (m: string): string => {
  const i = monthIndex(m) - 1;
  return `${String(Math.floor(i / 12)).padStart(4, '0')}-${String((i % 12) + 1).padStart(2, '0')}`;
};

export const monthOf = (d: Date): string => d.toISOString().slice(0, 7);

const usd = (x: number): string => `$${Math.round(x).toLocaleString('en-US')}`;

/** What one store shows in the month. */
export function storeFindings(s: StoreObservation, month: string): Finding[] {
  const at = { store_id: s.store_id, domain: s.domain };
  const out: Finding[] = s.signals.map((g) => ({ ...at, kind: g.type, subject: g.subject, level: SIGNAL_LEVEL[g.type] ?? 'healthy', detail: g.detail }));
  if (!s.present && !s.signals.some((g) => g.type === 'store_closed')) {
    out.push({ ...at, kind: 'store_absent', subject: null, level: 'failing', detail: `Not in the panel in ${month}` });
  }
  const { current, previous } = s.revenue;
  if (current !== null && previous !== null && previous >= REVENUE_DOWN_MIN_PREVIOUS_USD && current <= previous * REVENUE_DOWN_RATIO) {
    const pct = Math.round(((previous - current) * 100) / previous);
    out.push({ ...at, kind: 'revenue_down', subject: null, level: 'degraded', detail: `Estimated monthly revenue down ${pct}% (${usd(previous)} → ${usd(current)})` });
  }
  return out;
}

const RANK = { healthy: 0, degraded: 1, failing: 2 } as const;

/** The health a check finds, with its reason in plain words and every finding behind it. */
export function deriveHealth(o: WatchObservation): HealthResult {
  const findings = o.stores.flatMap((s) => storeFindings(s, o.month));
  const age = monthsBetween(o.month, o.currentMonth);
  if (age > STALE_MONTHS) {
    findings.push({ store_id: null, domain: null, kind: 'data_stale', subject: null, level: 'failing', detail: `The latest data is for ${o.month}, ${age} months before ${o.currentMonth}` });
  }
  if (o.capacity && o.capacity.inMarket > o.capacity.capacity) {
    const { capacity, inMarket } = o.capacity;
    findings.push({
      store_id: null,
      domain: null,
      kind: 'capacity_exceeded',
      subject: null,
      level: 'degraded',
      detail: `${inMarket} in-market accounts for a capacity of ${capacity}: ${inMarket - capacity} not watched`,
    });
  }
  const worst = findings.reduce<HealthResult['health']>((w, f) => (RANK[f.level] > RANK[w] ? f.level : w), 'healthy');
  if (worst === 'healthy') {
    const n = o.stores.length;
    const reason = n === 0 ? `No stores to watch in ${o.month}` : `${n === 1 ? 'The watched store is' : `All ${n} watched stores are`} in the panel in ${o.month}, with no sharp fall and no stopped ad channel`;
    return { health: 'healthy', reason, findings };
  }
  const why = findings.filter((f) => f.level === worst).map((f) => (f.store_id === null ? f.detail : `${f.store_id}: ${f.detail}`));
  const shown = why.slice(0, 3).join('; ');
  return { health: worst, reason: why.length > 3 ? `${shown}; and ${why.length - 3} more` : shown, findings };
}
