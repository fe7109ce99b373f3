/**
 * What metrics and request logs cost: GET /api/v1/accounts?limit=50 against two real `storelens
 * api --requests-only` processes over the same SQLite file, as an operator runs them:
 *
 * - observed: `--ops-port` (the metrics counted, scraped by nobody meanwhile) and one JSON log
 *   line per request on stderr, a pipe as under systemd, Docker or Kubernetes (this process
 *   reads and drops it);
 * - plain: no operations listener and `--log-level silent`.
 *
 * Each in a process of its own, so that neither runs on code the other's traffic shaped, and on
 * a copy of its own of the database (every call writes its rate counter: two processes on one
 * SQLite file would share its write lock and its checkpoints, whichever is being measured), with
 * the keys of every turn issued before the copies. After a turn each to warm up, they are
 * measured in turns (A B A B A B A B) so that a machine busier at one moment weighs on both
 * alike. Where the machine has two processors or more and `taskset`, each api process runs on
 * processor 0 and the load generator beside it (load.ts pinning()). The server's CPU per request
 * is read from /proc (Linux), a figure the machine's other work moves less than a rate.
 */
import { processCpuMicros } from './machine.js';
import { cliProcesses, freePort } from './cli-processes.js';
import { inTurns, type OpFigures, pinning, pinSelf, runLoad } from './load.js';

/**
 * Turns of each server (A B A B …), each a quarter of the run's seconds: eight, because on two
 * shared cores a single turn's rate moves by a tenth from one turn to the next, and the goal is a
 * ratio of 0.9.
 */
const TURNS = 8;

export interface ObservedFigures {
  observed: OpFigures;
  plain: OpFigures;
}

export interface ObservedPlan {
  /** Writes a copy of the benchmark's SQLite database to this path. */
  copyDatabase: (to: string) => Promise<void>;
  /** Folder for the processes' runs and output folders. */
  dir: string;
  seconds: number;
  connections: number;
  /** Issues n read keys; `uses`: requests each key may take. */
  keys: (n: number) => Promise<string[]>;
  keysPerRun: number;
  uses: number;
  /** What the api processes inherit (their DATABASE_URL is removed). */
  env: Readonly<Record<string, string | undefined>>;
  log: (line: string) => void;
}

export async function benchObserved(plan: ObservedPlan): Promise<ObservedFigures> {
  const processes = cliProcesses({ ...plan.env, DATABASE_URL: undefined });
  const pin = pinning();
  plan.log(pin ? `api: the api processes run on processor ${pin.server}, the load generator and this benchmark (the reader of their logs) on ${pin.load} (taskset)` : 'api: nothing pinned (one processor, or no taskset): the processes share every processor');
  const unpin = pin ? pinSelf(pin.load) : undefined;
  try {
    const keys: string[][] = [];
    for (let turn = 0; turn <= TURNS; turn++) keys.push(await plan.keys(plan.keysPerRun));
    const start = async (name: string, args: string[]) => {
      const dbPath = `${plan.dir}/${name}.db`;
      await plan.copyDatabase(dbPath);
      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const { child } = await processes.start(['api', '--requests-only', '--port', String(port), '--host', '127.0.0.1', '--db', dbPath, '--runs', `${plan.dir}/runs`, '--out', `${plan.dir}/out`, ...args], `${base}/-/readiness`, pin?.server);
      return { base, pid: child.pid! };
    };
    const observed = await start('observed', ['--ops-port', '0', '--log-level', 'info', '--log-format', 'json']);
    const plain = await start('plain', ['--log-level', 'silent']);
    const turns: Record<'observed' | 'plain', OpFigures[]> = { observed: [], plain: [] };
    const seconds = Math.max(1, plan.seconds / 4);
    for (let turn = 0; turn <= TURNS; turn++) {
      for (const [name, server] of [['plain', plain], ['observed', observed]] as const) {
        plan.log(`api: SQLite: GET /accounts?limit=50 ${name === 'observed' ? 'with metrics and request logs' : 'without'} (${turn ? `turn ${turn} of ${TURNS}` : 'warming up'}), ${seconds} s …`);
        const cpu = processCpuMicros(server.pid);
        const f = await runLoad({ url: `${server.base}/api/v1/accounts?limit=50`, method: 'GET', connections: plan.connections, seconds, keys: keys[turn]!, uses: plan.uses }, pin?.load);
        const used = processCpuMicros(server.pid);
        f.cpuPerRequest = cpu !== undefined && used !== undefined ? (used - cpu) / Math.max(f.requests, 1) : undefined;
        if (turn > 0) turns[name].push(f);
      }
    }
    return { observed: inTurns(turns.observed), plain: inTurns(turns.plain) };
  } finally {
    await processes.stopAll();
    unpin?.();
  }
}

