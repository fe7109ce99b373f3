/**
 * Where storelens puts things and listens when told nothing else. Written once: the settings
 * table (src/settings/table.ts), `start` and the database layer read them from here.
 */
import path from 'node:path';

/** Private working state (demo panel and database, runs): git-ignored, never published. */
export const STATE_DIR = '.storelens';
/** The private runs folder (per-store features and signals of each publish). */
export const RUNS_DIR = path.join(STATE_DIR, 'runs');
/** The SQLite file of the workspace database. */
export const DB_PATH = 'storelens.db';
/** The published statistics (public). */
export const OUT_DIR = 'output';
export const HOST = '127.0.0.1';
/** `serve` and `start`: statistics (and the API) on one port. */
export const PORT = 8080;
/** `api` alone, beside a `serve` on PORT. */
export const API_PORT = 8081;
/**
 * How long /-/readiness waits for each check before it counts as failed (`--readiness-timeout`):
 * an orchestrator's probe should wait longer (Kubernetes waits 1 s unless its `timeoutSeconds`
 * says otherwise), so that it reads the 503 naming the slow check rather than giving up on an
 * answer still coming.
 */
export const READINESS_TIMEOUT_MS = 2_000;
/** On SIGTERM a server finishes the requests in flight for at most this long, then closes what is left. */
export const SHUTDOWN_GRACE_MS = 10_000;

/**
 * The largest panel `storelens generate` makes, so a slip (`--stores 1000000000000`, `--from
 * 0001-01`) is refused at once rather than running until killed: 1,000,000 stores for one month
 * take about half a minute and 0.7 GB of memory on two cores (1 December 2026); ten million
 * stores over 13 months (the whole market, the publish benchmark's largest size) took 6.2
 * minutes on 30 November 2026. The bounds are twice that market: an hour or so at most.
 */
export const GENERATE_LIMITS = { stores: 20_000_000, months: 240, storeMonths: 260_000_000 } as const;
