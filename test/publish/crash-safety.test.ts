/**
 * Crash safety (issue 3): `storelens publish --cards latest`, run as a child process, is killed
 * with SIGKILL at seeded random moments spread over a publish's measured duration. After each
 * kill, `serve` (started once on the output folder) answers every artifact of one whole
 * publication, the manifest matches the files byte for byte, and the next publish succeeds.
 *
 * Each trial publishes the panel that is not live (A and B differ in the latest month), so every
 * killed publish really writes. Rerun a failure with CRASH_SEED=<seed printed in the error>.
 */
import { cp, readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE } from '../../src/publish/lock.js';
import type { LiveEvent } from '../../src/serve/live-publication.js';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { BASE_URL, generate, publishPanel } from '../helpers/cli.js';
import { flipColumn, liveRelease, manifestMismatches, narrowPanel, runBin, seededRandom, servedMismatches, spawnBin } from '../helpers/published.js';
import { exists, tempDirs } from '../helpers/tmp.js';
import { ensureRenderBuilt } from '../render/build-dist.js';
import { raw } from '../serve/http.js';

const TRIALS = 20;
const SEED = Number(process.env.CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
const PROBE = '/api/data/agentic-commerce';

const dirs = tempDirs('storelens-crash-');
const panels: Record<'A' | 'B', string> = { A: '', B: '' };
const etags: Record<'A' | 'B', string> = { A: '', B: '' };
let out: string;
let server: RunningServer;
const events: LiveEvent[] = [];
/** wall time of one complete CLI publish that writes (measured once) */
let duration: number;

const publishArgs = (panel: 'A' | 'B') => ['publish', '--input', panels[panel], '--all', '--out', out, '--base-url', BASE_URL, '--cards', 'latest', '--json'];
const other = (p: 'A' | 'B') => (p === 'A' ? 'B' : 'A');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function servedPanel(): Promise<'A' | 'B'> {
  const etag = (await raw(server.url, PROBE)).headers.etag;
  if (etag === etags.A) return 'A';
  if (etag === etags.B) return 'B';
  throw new Error(`${PROBE} answers ETag ${etag}, neither panel A's ${etags.A} nor B's ${etags.B}`);
}

/** serve and the files agree, and serve answers one whole publication. */
async function expectWholePublication(): Promise<void> {
  await server.serve.live.refresh();
  const release = await liveRelease(out);
  expect(await manifestMismatches(release.dir, release.manifest)).toEqual([]);
  expect(await servedMismatches(server.url, release.dir, release.manifest)).toEqual([]);
  expect(events.filter((e) => e.type === 'error')).toEqual([]);
}

beforeAll(async () => {
  ensureRenderBuilt();
  const root = await dirs.make();
  panels.A = path.join(root, 'panel-a');
  panels.B = path.join(root, 'panel-b');
  out = path.join(root, 'out');
  await generate(panels.A, { stores: 300, seed: 'crash', from: '2026-01', to: '2026-02' });
  await narrowPanel(panels.A);
  await cp(panels.A, panels.B, { recursive: true });
  await flipColumn(path.join(panels.B, '2026-02.csv'), 'llms_txt', 12);

  await publishPanel(panels.A, out, { cards: 'latest', cardThreads: 2, now: () => new Date() });
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0, onEvent: (e) => events.push(e) } });
  etags.A = (await raw(server.url, PROBE)).headers.etag as string;

  const started = Date.now();
  const measured = await runBin(publishArgs('B'));
  duration = Date.now() - started;
  expect(measured.code, measured.stderr).toBe(0);
  expect(JSON.parse(measured.stdout)).toMatchObject({ changed: true, months: ['2026-02'] });
  expect(JSON.parse(measured.stdout).cards_rendered).toBeGreaterThan(0);
  await server.serve.live.refresh();
  etags.B = (await raw(server.url, PROBE)).headers.etag as string;
  expect(etags.B).not.toBe(etags.A);
}, 240_000);

afterAll(async () => {
  await server?.close();
  await dirs.removeAll();
});

describe('a publish killed with SIGKILL at any moment', () => {
  it('leaves serve answering one whole publication that matches its manifest, and the next publish succeeds', async () => {
    const random = seededRandom(SEED);
    let live: 'A' | 'B' = 'B';
    const tally = { killed: 0, finished: 0, staleLocks: 0, switched: 0 };
    for (let trial = 0; trial < TRIALS; trial++) {
      const delay = Math.round(random() * duration);
      const context = `crash seed ${SEED} (rerun with CRASH_SEED=${SEED}), trial ${trial}, SIGKILL after ${delay} of ${duration} ms`;
      try {
        const target = other(live);
        const run = spawnBin(publishArgs(target));
        await sleep(delay);
        run.child.kill('SIGKILL');
        const result = await run.done;
        if (result.signal === 'SIGKILL') tally.killed += 1;
        else {
          expect(result.code, result.stderr).toBe(0);
          tally.finished += 1;
        }
        if (await exists(path.join(out, LOCK_FILE))) tally.staleLocks += 1;

        await expectWholePublication();
        const now = await servedPanel();
        if (now !== live) tally.switched += 1;
        live = now;

        // The next publish takes over any stale lock; every fourth one also writes a new publication.
        const next: 'A' | 'B' = trial % 4 === 3 ? other(live) : live;
        const again = await runBin(publishArgs(next));
        expect(again.code, again.stderr).toBe(0);
        expect(JSON.parse(again.stdout).changed).toBe(next !== live);
        expect(await exists(path.join(out, LOCK_FILE))).toBe(false);
        if (next !== live) {
          await expectWholePublication();
          expect(await servedPanel()).toBe(next);
          live = next;
        }
      } catch (e) {
        (e as Error).message = `${context}: ${(e as Error).message}`;
        throw e;
      }
    }
    console.info(`crash seed ${SEED}: ${JSON.stringify(tally)} over ${TRIALS} trials, publish ${duration} ms`);
    expect(tally.killed).toBeGreaterThanOrEqual(TRIALS / 2);
    expect(tally.staleLocks, `crash seed ${SEED}: no kill left a lock to take over`).toBeGreaterThan(0);

    // A last publish that writes cleans up what killed runs left in .releases.
    const last = await runBin(publishArgs(other(live)));
    expect(last.code, last.stderr).toBe(0);
    await expectWholePublication();
    const left = await readdir(path.join(out, '.releases'));
    expect(left.filter((n) => n.endsWith('.tmp'))).toEqual([]);
    expect(left.filter((n) => n !== 'current').length).toBeLessThanOrEqual(3);
  }, 600_000);
});
