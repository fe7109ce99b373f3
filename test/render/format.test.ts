import { describe, expect, it } from 'vitest';
import {
  dimensionLabel,
  formatCount,
  formatDelta,
  formatMean,
  formatMonth,
  formatN,
  formatPercent,
  formatStatDelta,
  formatStatValue,
  formatValue,
  SUPPRESSED_TEXT,
} from '../../src/render/format.js';
import { fixturePage } from './fixture-page.js';

const share = { kind: 'share', unit: 'share' } as const;
const count = { kind: 'count', unit: 'stores' } as const;
const usd = { kind: 'mean', unit: 'usd' } as const;
const products = { kind: 'mean', unit: 'products' } as const;

describe('format', () => {
  it('writes shares and rates as percentages with one decimal', () => {
    expect(formatPercent(0.4213)).toBe('42.1%');
    expect(formatValue(0.0004, share)).toBe('0.0%');
    expect(formatValue(1, { kind: 'rate', unit: 'share' })).toBe('100.0%');
  });

  it('writes counts with thousands separators whatever the process locale', () => {
    expect(formatCount(1234567)).toBe('1,234,567');
    expect(formatValue(12345, count)).toBe('12,345');
    expect(formatCount(-340)).toBe('−340');
  });

  it('writes means with two decimals and their unit', () => {
    expect(formatValue(1234.56, usd)).toBe('$1,234.56');
    expect(formatMean(-3.5, 'usd')).toBe('−$3.50');
    expect(formatValue(48.25, products)).toBe('48.25 products');
  });

  it('writes deltas with a sign: points for shares, the unit for the rest', () => {
    const d = (value: number) => ({ value, cohort_n: 100, suppressed: false, prior_month: '2026-09' });
    expect(formatDelta(d(0.012), share)).toBe('+1.2 pts');
    expect(formatDelta(d(-0.0031), share)).toBe('−0.3 pts');
    expect(formatDelta(d(-340), count)).toBe('−340');
    expect(formatDelta(d(12.3), usd)).toBe('+$12.30');
    expect(formatDelta(d(-0.25), products)).toBe('−0.25 products');
  });

  it('never writes a signed zero', () => {
    const d = (value: number) => ({ value, cohort_n: 100, suppressed: false, prior_month: '2026-09' });
    expect(formatDelta(d(-0.00004), share)).toBe('0.0 pts');
    expect(formatDelta(d(0), count)).toBe('0');
    expect(formatDelta(d(-0.001), usd)).toBe('$0.00');
    expect(formatPercent(-0.00001)).toBe('0.0%');
  });

  it('says a suppressed value is suppressed, and a missing delta is a dash', () => {
    const page = fixturePage();
    const plus = page.sections[1]!.stats.find((s) => s.dimension === 'plan:plus')!;
    expect(formatStatValue(plus, usd)).toBe(SUPPRESSED_TEXT);
    expect(SUPPRESSED_TEXT).toBe('suppressed (fewer than 30 stores)');
    expect(formatN(plus)).toBe('suppressed');
    expect(formatStatDelta(plus, usd)).toBe('suppressed');
    expect(formatDelta(null, share)).toBe('—');
    expect(formatDelta({ value: null, cohort_n: null, suppressed: true, prior_month: '2026-09' }, share)).toBe(SUPPRESSED_TEXT);
  });

  it('names months and dimensions for people', () => {
    expect(formatMonth('2026-10')).toBe('October 2026');
    expect(formatMonth('2026-13')).toBe('2026-13');
    expect(dimensionLabel('all')).toBe('All stores');
    expect(dimensionLabel('country:US')).toBe('Country: US');
    expect(dimensionLabel('category:=cmd:x')).toBe('Category: =cmd:x');
    expect(dimensionLabel('region:EU')).toBe('Region: EU');
  });
});
