/** Polling for tests: wait until something happened, or fail after a deadline. */

/**
 * Resolves with the probe's first answer that is neither `false` nor `undefined` (a boolean
 * probe: once it is true), polling every `everyMs`; rejects after `ms`.
 */
export async function until<T>(probe: () => T | Promise<T>, ms = 20_000, everyMs = 10): Promise<Exclude<T, false | undefined>> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v as Exclude<T, false | undefined>;
    if (Date.now() > deadline) throw new Error(`timed out after ${ms} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Options for `vi.waitFor`, whose own deadline (1 s) a loaded machine can exceed: the same 20 s
 * as until()'s.
 */
export const SETTLE = { timeout: 20_000, interval: 10 } as const;
