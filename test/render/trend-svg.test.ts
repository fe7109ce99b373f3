import { describe, expect, it } from 'vitest';
import { renderTrendSvg } from '../../src/render/trend-svg.js';

const share = { kind: 'share', unit: 'share' } as const;

function svg(series: Array<{ month: string; value: number | null }>): string {
  return renderTrendSvg({ id: 't', title: 'Stores with <b>', series, format: share });
}

describe('renderTrendSvg', () => {
  it('is an image with a title that says what the line shows', () => {
    const out = svg([{ month: '2026-09', value: 0.4 }, { month: '2026-10', value: 0.42 }]);
    expect(out).toMatch(/^<svg class="trend" role="img" aria-labelledby="t-title"/);
    expect(out).toContain('<title id="t-title">Stores with &lt;b&gt;, all stores, September 2026 to October 2026: from 40.0% in September 2026 to 42.0% in October 2026.</title>');
    expect(out.match(/<path class="line"/g)).toHaveLength(1);
  });

  it('breaks the line at a null month and draws a lone point as a dot', () => {
    const out = svg([
      { month: '2026-06', value: 0.3 },
      { month: '2026-07', value: null },
      { month: '2026-08', value: 0.35 },
      { month: '2026-09', value: 0.36 },
      { month: '2026-10', value: null },
      { month: '2026-11', value: 0.5 },
    ]);
    expect(out.match(/<path class="line"/g)).toHaveLength(1);
    expect(out.match(/<circle /g)).toHaveLength(4);
    expect(out).not.toContain('NaN');
  });

  it('handles a single point, all nulls and no months', () => {
    const one = svg([{ month: '2026-10', value: 0.42 }]);
    expect(one).not.toContain('<path');
    expect(one.match(/<circle /g)).toHaveLength(1);
    expect(one).not.toContain('NaN');
    expect(svg([{ month: '2026-10', value: null }])).toContain('No published values yet');
    expect(svg([])).toContain('no months published yet');
  });

  it('gives the same bytes for the same series', () => {
    const s = [{ month: '2026-09', value: 1 / 3 }, { month: '2026-10', value: 2 / 3 }];
    expect(svg(s)).toBe(svg(s));
  });
});
