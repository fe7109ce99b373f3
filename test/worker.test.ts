import { afterEach, describe, expect, it, vi } from 'vitest';
import { startWorker } from '../src/compose/task-loop.js';

/** A promise and the function that resolves it. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((r) => (open = r));
  return { opened, open };
}

describe('the worker loop', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('stop() waits for the running task, which sees stopping() turn true', async () => {
    const g = gate();
    const seen: boolean[] = [];
    const w = startWorker({ slow: { run: async (stopping) => (await g.opened, void seen.push(stopping())) } }, () => undefined);
    w.trigger('slow');
    let stopped = false;
    const stopping = w.stop().then(() => (stopped = true));
    await Promise.resolve();
    expect(stopped).toBe(false);
    g.open();
    await stopping;
    expect(seen).toEqual([true]);
  });

  it('starts no task after stop(): neither a pending one, nor a trigger, nor a timer', async () => {
    vi.useFakeTimers();
    const g = gate();
    const runs: string[] = [];
    const w = startWorker(
      {
        first: { run: async () => (runs.push('first'), await g.opened) },
        second: { run: async () => void runs.push('second') },
        ticking: { everyMs: 1_000, run: async () => void runs.push('ticking') },
      },
      () => undefined,
    );
    w.trigger('first');
    w.trigger('second'); // pending behind first
    const stopped = w.stop();
    g.open();
    await stopped;
    w.trigger('second');
    await vi.advanceTimersByTimeAsync(5_000);
    await w.idle();
    expect(runs).toEqual(['first']);
  });

  it('reports a failing task and runs the next', async () => {
    const errors: string[] = [];
    const runs: string[] = [];
    const w = startWorker({ bad: { run: async () => Promise.reject(new Error('boom')) }, good: { run: async () => void runs.push('good') } }, (task, e) => errors.push(`${task}: ${(e as Error).message}`));
    w.trigger('bad');
    w.trigger('good');
    await w.idle();
    await w.stop();
    expect(errors).toEqual(['bad: boom']);
    expect(runs).toEqual(['good']);
  });
});
