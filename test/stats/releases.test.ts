/** What a refused correction says of the earlier releases it took into account (src/stats/disclosure.ts releasesOf). */
import { describe, expect, it } from 'vitest';
import { releasesOf } from '../../src/stats/disclosure.js';
import { addRelease, noEarlierReleases } from '../../src/stats/releases.js';

const releases = (n: number) => {
  const e = noEarlierReleases();
  for (let i = 1; i <= n; i++) addRelease(e, `20260${Math.min(i, 9)}01T000000000Z-${String(i).padStart(6, '0')}`, []);
  return e;
};

describe('a refusal names the earlier releases of the month', () => {
  it('each of a few', () => {
    expect(releasesOf(releases(2), '2026-05')).toBe(' (with what the earlier release(s) 20260101T000000000Z-000001, 20260201T000000000Z-000002 of 2026-05 published)');
  });

  it('the count, the first and the last of many, whatever their number (a month corrected forty times)', () => {
    const said = releasesOf(releases(40), '2026-05');
    expect(said).toBe(' (with what the 40 earlier releases (20260101T000000000Z-000001 to 20260901T000000000Z-000040) of 2026-05 published)');
    expect(said.length).toBeLessThan(120);
  });

  it('nothing when the month was never published', () => {
    expect(releasesOf(undefined, '2026-05')).toBe('');
    expect(releasesOf(noEarlierReleases(), '2026-05')).toBe('');
  });
});
