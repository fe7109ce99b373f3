/**
 * One publish in a process of its own, so the benchmark can report its peak memory. Forked by
 * src/bench/publish.ts from dist/: the options come as the first IPC message, the answer goes
 * back as `{seconds, maxRssBytes, summary}` and the process exits.
 */
import { phaseClock, type Phase } from '../publish/phases.js';
import { publish, type PublishOptions } from '../publish/pipeline.js';

export type ChildOptions = Omit<PublishOptions, 'now' | 'onProgress' | 'onWarning' | 'onAudit'>;

/** One publish: wall time in its own process, its peak RSS, and its phases (seconds). */
export interface PublishRun {
  seconds: number;
  /** CPU time of the process (every thread, DuckDB's included): steadier than wall time on a shared machine */
  cpuSeconds: number;
  maxRssBytes: number;
  phases: Record<string, number>;
  /** CPU seconds of the process in each phase (every thread): where the time goes, whatever else the machine runs */
  cpuPhases: Record<string, number>;
  months: string[];
}

export interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  /** peak resident memory of the whole process, DuckDB's native memory included */
  maxRssBytes: number;
  /** CPU seconds in each phase */
  cpuPhases: Partial<Record<Phase, number>>;
  summary: Awaited<ReturnType<typeof publish>>;
}

/** The process's CPU time (every thread's, user and system) in milliseconds. */
function cpuMilliseconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

process.once('message', (options: ChildOptions) => {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const cpuClock = phaseClock(cpuMilliseconds);
  publish({ ...options, now: () => new Date(), onPhase: (p) => cpuClock.enter(p) }).then(
    (summary) => {
      cpuClock.stop();
      // resourceUsage().maxRSS is in kilobytes (getrusage).
      const cpu = process.cpuUsage(cpu0);
      const result: ChildResult = {
        seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssBytes: process.resourceUsage().maxRSS * 1024, cpuPhases: cpuClock.totals(), summary,
      };
      process.send!(result, () => process.disconnect());
    },
    (e: unknown) => {
      process.send!({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }, () => process.disconnect());
    },
  );
});
