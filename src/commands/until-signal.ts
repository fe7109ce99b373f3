/**
 * How a long-running command (`api`, `worker`) waits for its end: until the first SIGTERM or
 * SIGINT. Signal handlers alone do not keep a process alive, so a timer does while it waits
 * (the worker loop's own timers are unref'd). Its handlers are removed once a signal came, so
 * a second Ctrl-C during the shutdown stops the process at once.
 */
import { CliError } from '../core/errors.js';

export interface SignalWait {
  /** Resolves with the first signal. */
  readonly signal: Promise<NodeJS.Signals>;
  /** Stops waiting (a command that failed to start): the handlers and the timer go. */
  cancel(): void;
}

export function untilSignal(signals: readonly NodeJS.Signals[] = ['SIGTERM', 'SIGINT']): SignalWait {
  let cancel!: () => void;
  const signal = new Promise<NodeJS.Signals>((resolve) => {
    const keepAlive = setInterval(() => undefined, 1 << 30);
    const handlers = signals.map((s) => [s, () => (cancel(), resolve(s))] as const);
    cancel = () => {
      clearInterval(keepAlive);
      for (const [s, h] of handlers) process.off(s, h);
    };
    for (const [s, h] of handlers) process.on(s, h);
  });
  return { signal, cancel };
}

/**
 * A one-shot command's work (`generate`, `accounts import`) stopped by Ctrl-C or SIGTERM: the
 * first signal aborts `work`'s AbortSignal, the work stops and takes back what it wrote, and its
 * failure becomes the command's answer: `stopped(signal)` with exit code 130 (SIGINT) or 143
 * (SIGTERM). Work that ends anyway once signalled (it had nothing left to stop) ends as it ended.
 */
export async function stoppable<T>(work: (abort: AbortSignal) => Promise<T>, stopped: (signal: NodeJS.Signals) => string): Promise<T> {
  const abort = new AbortController();
  const signals = untilSignal();
  let stoppedBy: NodeJS.Signals | undefined;
  void signals.signal.then((signal) => {
    stoppedBy = signal;
    abort.abort();
  });
  try {
    return await work(abort.signal);
  } catch (e) {
    if (stoppedBy) throw new CliError(stopped(stoppedBy), stoppedBy === 'SIGINT' ? 130 : 143);
    throw e;
  } finally {
    signals.cancel();
  }
}
