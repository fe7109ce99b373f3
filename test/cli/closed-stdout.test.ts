/**
 * `storelens … | head`: when the reader closes the pipe before storelens is done writing,
 * storelens ends quietly instead of crashing with an unhandled EPIPE error.
 */
import { describe, expect, it } from 'vitest';
import { spawnBin } from '../helpers/published.js';

describe('a closed stdout', () => {
  it('ends storelens quietly, without an EPIPE stack trace', async () => {
    const { child, done } = spawnBin(['workspaces', 'activate', '--help']);
    // The reader goes away before storelens writes its help.
    child.stdout!.destroy();
    const r = await done;
    expect(r.stderr).not.toMatch(/EPIPE|Unhandled 'error' event/);
    expect(r.signal).toBeNull();
    expect(r.code).toBe(0);
  });
});
