/** `storelens ingest`: load the runs folder publish wrote into the workspace database, once. */
import type { Env } from '../env.js';
import type { Db } from '../db/index.js';
import { ingestRuns, type IngestSummary } from '../ingest/ingest.js';
import { startIngestWatcher, type IngestWatcher } from '../ingest/watcher.js';
import { progress } from '../progress.js';
import type { Config } from '../settings/config.js';
import { output, withAdminDb } from './admin-db.js';

export type IngestCommandOptions = Pick<Config<'ingest'>, 'runs'> & Partial<Config<'ingest'>>;

export async function runIngest(opts: IngestCommandOptions, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const bar = progress(env, 'ingest');
    const s = await ingestRuns(db, opts.runs, { now: env.now, onProgress: (m) => bar.update(m) });
    bar.done(s.months.length ? `loaded ${s.months.length} months` : 'nothing new');
    const text = s.months.length
      ? `ingested ${s.months.length} month${s.months.length === 1 ? '' : 's'} (${s.months.join(', ')}): ${s.stores} store rows, ${s.signals} signals into ${db.location}`
      : `${db.location} is up to date with ${opts.runs}`;
    output(env, opts, { months: s.months, stores: s.stores, signals: s.signals }, text);
  });
}

/**
 * For the servers (`api`, `serve --api`, `start`): ingest `runs` now and whenever publish writes
 * a new run, logging to stderr; a failure is logged and the server goes on.
 */
export function watchRuns(db: Db, runs: string, env: Env, label: string, intervalMs?: number): IngestWatcher {
  const log = (line: string) => env.stderr.write(`${label}: ${line}\n`);
  return startIngestWatcher(db, runs, {
    intervalMs,
    now: env.now,
    onLoaded: async (s) => {
      log(`ingested ${s.months.join(', ')} from ${runs} (${s.stores} store rows, ${s.signals} signals)`);
      await onRunsLoaded(db, s);
    },
    onError: (e) => log(`ingest: ${e.message} (still serving what was loaded before)`),
  });
}

/** Where re-scoring hooks in once new months are visible: nothing yet. */
async function onRunsLoaded(_db: Db, _summary: IngestSummary): Promise<void> {}
