/**
 * How busy and how fast the machine was while a benchmark ran. The goals of `storelens bench`
 * are figures on "this machine", yet the same machine has given twice the time for the same
 * code on another day (a virtual machine shares its host), and other jobs on its two cores move
 * every figure. So every run prints, before its first benchmark and after its last, the load
 * average and the CPU and wall time of one fixed piece of work: a figure to read the run's
 * absolute times by, and to compare days with.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import os from 'node:os';

/** The fixed work: hashing and a loop of arithmetic, about half a second of one core. */
function fixedWork(): number {
  const block = Buffer.alloc(1 << 20, 7);
  const hash = createHash('sha256');
  for (let i = 0; i < 64; i++) hash.update(block);
  let x = hash.digest().readUInt32LE(0);
  for (let i = 0; i < 60_000_000; i++) x = (x * 1_103_515_245 + 12_345) >>> 0;
  return x;
}

/** Entries of the memory-bound work's array (32 MiB of 32-bit indices: more than the caches). */
const WALK_ENTRIES = 1 << 23;
const WALK_STEPS = 1 << 21;

/**
 * The memory-bound work: a walk of WALK_STEPS steps through a random cycle over WALK_ENTRIES
 * entries, each step a read the one before decides (no cache or prefetch helps): it times the
 * machine's memory, which the fixed work's arithmetic does not. On this machine the same code
 * has answered requests three times slower on one day than on another while the fixed work took
 * the same time. Returns the walk's wall time in ms (the cycle's making not counted).
 */
function memoryWalk(): number {
  const next = new Uint32Array(WALK_ENTRIES);
  for (let i = 0; i < WALK_ENTRIES; i++) next[i] = i;
  // Sattolo's shuffle: one cycle through every entry. A fixed seed (xorshift): the same walk every run.
  let seed = 0x9e3779b9;
  for (let i = WALK_ENTRIES - 1; i > 0; i--) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const j = (seed >>> 0) % i;
    const t = next[i];
    next[i] = next[j];
    next[j] = t;
  }
  const t0 = performance.now();
  let at = 0;
  for (let k = 0; k < WALK_STEPS; k++) at = next[at];
  const ms = performance.now() - t0;
  if (at === WALK_ENTRIES) throw new Error('unreachable'); // keeps the walk from being optimised away
  return ms;
}

/**
 * The machine's CPU time so far over every core, in µs, from /proc/stat's first line (Linux only):
 * all of it, the idle part (idle and waiting for I/O), and the part its host gave to others
 * ("steal"). /proc/stat counts ticks of 1/100 s (USER_HZ).
 */
export function machineCpuMicros(): { total: number; idle: number; steal: number } | undefined {
  try {
    // user nice system idle iowait irq softirq steal
    const f = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0].trim().split(/\s+/).slice(1, 9).map((v) => (Number(v) * 1e6) / 100);
    return { total: f.reduce((a, b) => a + b, 0), idle: f[3] + f[4], steal: f[7] };
  } catch {
    return undefined;
  }
}

/**
 * User + system CPU time of a process so far, in µs, from /proc (Linux only; undefined when the
 * process is gone or /proc has no such file). The fields after the command's closing parenthesis:
 * utime and stime are the 12th and 13th, in ticks of 1/100 s (USER_HZ).
 */
export function processCpuMicros(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100;
  } catch {
    return undefined;
  }
}

export interface MachineReading {
  cores: number;
  /** The 1- and 5-minute load averages. */
  load: [number, number];
  /** The fixed work's CPU time and wall time, in milliseconds. */
  cpuMs: number;
  wallMs: number;
  /** Of the machine's CPU time during the fixed work, the share its host gave to others (0 to 1). */
  steal?: number;
  /** The memory-bound work's wall time, in milliseconds (memoryWalk). */
  memoryMs?: number;
}

export function readMachine(): MachineReading {
  const [one, five] = os.loadavg();
  const stealBefore = machineCpuMicros()?.steal;
  const cpu = process.cpuUsage();
  const t0 = performance.now();
  fixedWork();
  const wallMs = performance.now() - t0;
  const used = process.cpuUsage(cpu);
  const stealAfter = machineCpuMicros()?.steal;
  const cores = os.availableParallelism();
  const steal = stealBefore === undefined || stealAfter === undefined ? undefined : Math.min(1, (stealAfter - stealBefore) / (wallMs * 1000 * cores));
  return { cores, load: [one, five], cpuMs: (used.user + used.system) / 1000, wallMs, steal, memoryMs: memoryWalk() };
}

export function machineLine(when: 'before' | 'after', m: MachineReading = readMachine()): string {
  const steal = m.steal === undefined ? '' : `, ${(m.steal * 100).toFixed(0)}% of the CPU taken by the host`;
  return (
    `machine ${when} the benchmarks: ${m.cores} cores, load average ${m.load[0].toFixed(2)} (1 min) ${m.load[1].toFixed(2)} (5 min); ` +
    `the fixed work took ${m.cpuMs.toFixed(0)} ms of CPU in ${m.wallMs.toFixed(0)} ms${steal}` +
    (m.memoryMs === undefined ? '' : `; a random walk of ${WALK_STEPS.toLocaleString('en-US')} reads over 32 MiB took ${m.memoryMs.toFixed(0)} ms`)
  );
}
