/**
 * How a long-running command (`api`, `worker`) waits for its end: until the first SIGTERM or
 * SIGINT. Signal handlers alone do not keep a process alive, so a timer does while it waits
 * (the worker loop's own timers are unref'd). Its handlers are removed once a signal came, so
 * a second Ctrl-C during the shutdown stops the process at once.
 */
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
