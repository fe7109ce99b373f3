/**
 * The live publication of an output folder, followed without a restart. `output/.releases` is
 * watched (fs.watch) and `output/.releases/current` re-resolved on a short timer; when it
 * names another release, that release is loaded completely and then swapped in by replacing
 * one reference. A request reads `current` once, so it is answered wholly from one release.
 * A release that fails to load is reported and the previous one keeps serving.
 */
import { watch, type FSWatcher } from 'node:fs';
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { RELEASES_DIR, resolveCurrentRelease } from '../publish/release.js';
import { loadPublication, type Publication } from './publication.js';

export type LiveEvent =
  | { type: 'loaded'; publication: Publication; ms: number }
  | { type: 'error'; error: Error };

export interface LiveOptions {
  /** How often `current` is re-resolved besides fs.watch (ms); 0 turns the timer off. */
  pollMs?: number;
  /** How long a release that failed to load is left alone before it is tried again (ms). */
  retryMs?: number;
  onEvent?: (event: LiveEvent) => void;
}

export interface LivePublication {
  /** The publication answering requests now, or null while nothing is published. */
  readonly current: Publication | null;
  /** Re-checks `current` now; resolves once any newer release is loaded (or failed). */
  refresh(): Promise<void>;
  close(): void;
}

/** Opens the output folder, loads what is live there now (if anything) and starts following it. */
export async function openLivePublication(outDir: string, opts: LiveOptions = {}): Promise<LivePublication> {
  const live = new Live(path.resolve(outDir), opts);
  await live.refresh();
  live.start();
  return live;
}

class Live implements LivePublication {
  current: Publication | null = null;
  private currentKey: string | null = null;
  private failed: { key: string; at: number } | null = null;
  private running: Promise<void> | null = null;
  private queued: Promise<void> | null = null;
  private watcher: FSWatcher | null = null;
  private timer: NodeJS.Timeout | null = null;
  private debounce: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(
    private readonly outDir: string,
    private readonly opts: LiveOptions,
  ) {}

  start(): void {
    const pollMs = this.opts.pollMs ?? 1000;
    if (pollMs > 0) {
      this.timer = setInterval(() => {
        if (this.running === null) void this.refresh(); // a timer tick never queues behind a check
      }, pollMs);
      this.timer.unref();
    }
    this.attachWatcher();
  }

  refresh(): Promise<void> {
    if (this.closed) return Promise.resolve();
    if (this.running === null) {
      this.running = this.checkOnce().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    // A check is under way; the caller needs one that starts after its call: queue one (only one).
    this.queued ??= this.running.then(() => {
      this.queued = null;
      return this.refresh();
    });
    return this.queued;
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearInterval(this.timer);
    if (this.debounce) clearTimeout(this.debounce);
    this.watcher?.close();
    this.watcher = null;
  }

  /** fs.watch on `.releases` (created by the first publish): a switch there wakes us at once. */
  private attachWatcher(): void {
    if (this.watcher || this.closed) return;
    try {
      const w = watch(path.join(this.outDir, RELEASES_DIR), { persistent: false }, () => this.soon());
      w.on('error', () => {
        w.close();
        if (this.watcher === w) this.watcher = null;
      });
      this.watcher = w;
    } catch {
      // Not there yet (or not watchable): the timer keeps checking and attaches later.
    }
  }

  private soon(): void {
    if (this.debounce || this.closed) return;
    this.debounce = setTimeout(() => {
      this.debounce = null;
      void this.refresh();
    }, 10);
    this.debounce.unref();
  }

  private async checkOnce(): Promise<void> {
    try {
      await this.check();
    } catch (e) {
      this.opts.onEvent?.({ type: 'error', error: e as Error });
    }
  }

  private async check(): Promise<void> {
    this.attachWatcher();
    const dir = await resolveCurrentRelease(this.outDir);
    if (dir === null) return; // nothing published (or it vanished): keep what we have
    const key = await versionKey(dir);
    if (key === null || key === this.currentKey) return;
    const retryMs = this.opts.retryMs ?? 5000;
    if (this.failed && this.failed.key === key && Date.now() - this.failed.at < retryMs) return;
    const started = Date.now();
    try {
      const publication = await loadPublication(dir, { previous: this.current });
      if (this.closed) return;
      // Only now, with every byte in memory, does the new release become visible.
      this.current = publication;
      this.currentKey = key;
      this.failed = null;
      this.opts.onEvent?.({ type: 'loaded', publication, ms: Date.now() - started });
    } catch (e) {
      this.failed = { key, at: Date.now() };
      this.opts.onEvent?.({ type: 'error', error: e as Error });
    }
  }
}

/**
 * Identifies one release: its real path, plus the manifest's identity for a hand-made folder
 * whose manifest is replaced in place (its path never changes). Null when the manifest is gone.
 */
async function versionKey(dir: string): Promise<string | null> {
  try {
    const s = await stat(path.join(dir, 'manifest.json'));
    return `${dir}\0${s.ino}\0${s.size}\0${s.mtimeMs}`;
  } catch {
    return null;
  }
}
