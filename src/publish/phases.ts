/**
 * The phases of a publish run and the time each took. One phase runs at a time: entering one
 * ends the one before; a phase entered again adds to its total. The summary (`--json`) carries
 * the totals in seconds; the progress line names the current phase.
 */
export const PHASES = ['hashing', 'reading', 'aggregating', 'auditing', 'writing', 'cards'] as const;
export type Phase = (typeof PHASES)[number];

export interface PhaseClock {
  /** Ends the current phase (if any) and starts `phase`. */
  enter(phase: Phase): void;
  /** Ends the current phase. */
  stop(): void;
  /** Seconds per phase entered so far, in PHASES order, rounded to milliseconds. */
  totals(): Partial<Record<Phase, number>>;
}

export function phaseClock(now: () => number = () => performance.now()): PhaseClock {
  const spent = new Map<Phase, number>();
  let current: { phase: Phase; since: number } | undefined;
  const stop = () => {
    if (!current) return;
    spent.set(current.phase, (spent.get(current.phase) ?? 0) + (now() - current.since));
    current = undefined;
  };
  return {
    enter(phase) {
      stop();
      current = { phase, since: now() };
    },
    stop,
    totals() {
      const live = current ? { ...current } : undefined;
      const out: Partial<Record<Phase, number>> = {};
      for (const p of PHASES) {
        const ms = (spent.get(p) ?? 0) + (live?.phase === p ? now() - live.since : 0);
        if (spent.has(p) || live?.phase === p) out[p] = Math.round(ms) / 1000;
      }
      return out;
    },
  };
}
