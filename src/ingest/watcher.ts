/**
 * Ingest while serving: `api`, `serve --api` and `start` poll the runs folder's index.json from
 * their worker loop (a timer, not fs.watch, which misses renames on some file systems and
 * platforms): when its content changes, the new runs are ingested while requests go on being
 * answered. A failure is reported through onError and never stops the server; the same index is
 * retried after `retryMs`, a new one at once.
 */
import { readFile, stat } from 'node:fs/promises';
import type { Db } from '../db/database.js';
import { IngestStopped, ingestRuns, type IngestSummary } from './ingest.js';
import { indexFile } from './runs-folder.js';

/** How often a serving process looks for a new index.json. */
export const INGEST_POLL_MS = 2_000;

export interface IngestWatcherOptions {
  /** Poll interval (default INGEST_POLL_MS). */
  intervalMs?: number;
  /** Wait before retrying an index.json whose ingest failed (default 60 s). */
  retryMs?: number;
  now: () => Date;
  /** After an ingest that loaded at least one month (e.g. to re-score); an error here goes to onError. */
  onLoaded: (summary: IngestSummary) => Promise<void>;
  /** A failed check or ingest; the same message is not reported twice in a row. */
  onError: (error: Error) => void;
  onProgress?: (msg: string) => void;
}

/**
 * One look at the runs folder: ingests when index.json changed since the last successful load
 * (a failed one is retried after `retryMs`, a changed one at once). Never throws: failures go
 * to onError. The server's worker loop runs it every `intervalMs` (compose/background.ts).
 */
export function ingestCheck(db: Db, runsDir: string, opts: IngestWatcherOptions): (stopping?: () => boolean) => Promise<void> {
  const interval = opts.intervalMs ?? INGEST_POLL_MS;
  const retryMs = opts.retryMs ?? 60_000;
  let loaded: string | undefined;
  let failed: { text: string; at: number } | undefined;
  let lastError: string | undefined;

  const report = (e: unknown) => {
    const error = e instanceof Error ? e : new Error(String(e));
    if (error.message !== lastError) opts.onError(error);
    lastError = error.message;
  };

  return async (stopping) => {
    let text: string;
    try {
      text = await readFile(indexFile(runsDir), 'utf8');
    } catch {
      // A runs folder without index.json: publish has not finished its first run yet.
      if (await isDirectory(runsDir)) return;
      // No runs folder at all: ingestRuns says so (once) and the watcher keeps looking.
      text = '';
    }
    if (text !== '' && text === loaded) return;
    if (failed && text !== '' && failed.text === text && Date.now() - failed.at < retryMs) return;
    try {
      // Another process ingesting: give up soon and retry later (what it loads is visible anyway).
      const summary = await ingestRuns(db, runsDir, { now: opts.now, onProgress: opts.onProgress, leaseWaitMs: Math.max(interval, 1000), stopping });
      loaded = text;
      failed = undefined;
      lastError = undefined;
      if (summary.months.length > 0) await opts.onLoaded(summary);
    } catch (e) {
      // Stopped by a shutdown: not a failure, and nothing to retry in this process.
      if (e instanceof IngestStopped) return;
      failed = { text, at: Date.now() };
      report(e);
    }
  };
}

const isDirectory = (p: string): Promise<boolean> => stat(p).then((s) => s.isDirectory(), () => false);
