import { describe, expect, it } from 'vitest';
import {
  changeLine,
  countryName,
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
  textForPeople,
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
    expect(SUPPRESSED_TEXT).toBe('not published (fewer than 30 stores, or hidden to protect such a figure)');
    expect(formatN(plus)).toBe('not published');
    expect(formatStatDelta(plus, usd)).toBe('not published');
    expect(formatDelta(null, share)).toBe('—');
    expect(formatDelta({ value: null, cohort_n: null, suppressed: true, prior_month: '2026-09' }, share)).toBe(
      'hidden (too few stores in both months for a change (fewer than 30), or hidden to protect such a change)',
    );
  });

  it('says “hidden” for the change of a published figure whose change is hidden, and gives cards the published change only', () => {
    const stores = fixturePage().sections[3]!;
    const ae = stores.stats.find((s) => s.dimension === 'country:AE')!;
    const us = stores.stats.find((s) => s.dimension === 'country:US')!;
    const at = stores.stats.find((s) => s.dimension === 'country:AT')!;
    expect(formatStatDelta(ae, count)).toBe('hidden');
    expect(changeLine(ae, count)).toBeUndefined();
    expect(changeLine(at, count)).toBeUndefined();
    expect(changeLine(us, count)).toBe('+25 vs September 2026');
  });

  it('names months and dimensions for people', () => {
    expect(formatMonth('2026-10')).toBe('October 2026');
    expect(formatMonth('2026-13')).toBe('2026-13');
    expect(dimensionLabel('all')).toBe('All stores');
    expect(dimensionLabel('country:US')).toBe('Country: United States');
    expect(dimensionLabel('country:AE')).toBe('Country: United Arab Emirates');
    expect(dimensionLabel('country:QQ')).toBe('Country: QQ');
    expect(dimensionLabel('category:=cmd:x')).toBe('Category: =cmd:x');
    expect(dimensionLabel('region:EU')).toBe('Region: EU');
    expect(dimensionLabel('plan:US')).toBe('Plan: US');
  });

  it('names a country from the runtime’s own data, and shows a code it does not know as itself', () => {
    expect(countryName('DE')).toBe('Germany');
    expect(countryName('de')).toBe('Germany');
    expect(countryName('QQ')).toBe('QQ');
    expect(countryName('ZZ')).toBe('ZZ');
    expect(countryName('=cmd')).toBe('=cmd');
    expect(countryName('')).toBe('');
  });

  it('puts the country’s name in a sentence and a citation, and leaves every other text as it is', () => {
    expect(textForPeople('48 stores in AE were active in October 2026.', 'country:AE')).toBe('48 stores in the United Arab Emirates were active in October 2026.');
    expect(textForPeople('Stores in DE: 12.', 'country:DE')).toBe('Stores in Germany: 12.');
    expect(textForPeople('storelens, “Page: Metric” (stores in US), October 2026, https://x/#m-country-us-1a2b3c.', 'country:US')).toBe(
      'storelens, “Page: Metric” (stores in the United States), October 2026, https://x/#m-country-us-1a2b3c.',
    );
    expect(textForPeople('stores in USA', 'country:US')).toBe('stores in USA');
    expect(textForPeople('stores in QQ', 'country:QQ')).toBe('stores in QQ');
    expect(textForPeople('stores on the US plan', 'plan:US')).toBe('stores on the US plan');
  });
});
