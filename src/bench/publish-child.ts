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
  /** peak memory seen in each phase (sampled): the whole process's resident set, and the JS heap's share of it */
  memoryPhases: Record<string, PhaseMemory>;
  months: string[];
}

/** The most memory a phase held, sampled every SAMPLE_MS: what grows is DuckDB's (rss less js) or JavaScript's. */
export interface PhaseMemory {
  rssBytes: number;
  /** V8's heap in use plus the memory of Buffers and other objects outside it */
  jsBytes: number;
}

export interface ChildResult {
  seconds: number;
  cpuSeconds: number;
  /** peak resident memory of the whole process, DuckDB's native memory included */
  maxRssBytes: number;
  /** CPU seconds in each phase */
  cpuPhases: Partial<Record<Phase, number>>;
  memoryPhases: Record<string, PhaseMemory>;
  summary: Awaited<ReturnType<typeof publish>>;
}

/** The process's CPU time (every thread's, user and system) in milliseconds. */
function cpuMilliseconds(): number {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
}

const SAMPLE_MS = 100;

/**
 * Samples the process's memory while a phase runs, keeping each phase's peak. A sample waits
 * for the event loop, so a long synchronous stretch of JavaScript is seen when it ends (the
 * peak of the whole run is getrusage's, exact).
 */
function memorySampler(): { enter(phase: Phase | 'starting'): void; stop(): Record<string, PhaseMemory> } {
  const peaks: Record<string, PhaseMemory> = {};
  let phase: Phase | 'starting' = 'starting';
  const sample = () => {
    const m = process.memoryUsage();
    const peak = (peaks[phase] ??= { rssBytes: 0, jsBytes: 0 });
    peak.rssBytes = Math.max(peak.rssBytes, m.rss);
    peak.jsBytes = Math.max(peak.jsBytes, m.heapUsed + m.external);
  };
  const timer = setInterval(sample, SAMPLE_MS);
  return {
    enter(p) {
      sample();
      phase = p;
      sample();
    },
    stop() {
      sample();
      clearInterval(timer);
      return peaks;
    },
  };
}

process.once('message', (options: ChildOptions) => {
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const cpuClock = phaseClock(cpuMilliseconds);
  const memory = memorySampler();
  publish({ ...options, now: () => new Date(), onPhase: (p) => (cpuClock.enter(p), memory.enter(p)) }).then(
    (summary) => {
      cpuClock.stop();
      const memoryPhases = memory.stop();
      // resourceUsage().maxRSS is in kilobytes (getrusage).
      const cpu = process.cpuUsage(cpu0);
      const result: ChildResult = {
        seconds: (performance.now() - t0) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, maxRssBytes: process.resourceUsage().maxRSS * 1024, cpuPhases: cpuClock.totals(), memoryPhases, summary,
      };
      process.send!(result, () => process.disconnect());
    },
    (e: unknown) => {
      memory.stop();
      process.send!({ error: e instanceof Error ? (e.stack ?? e.message) : String(e) }, () => process.disconnect());
    },
  );
});
