import { beforeAll, describe, expect, it } from 'vitest';
import { CARD_RENDERER_VERSION, cardHash, cardWorkerPath, pageCardInputs, renderCards } from '../../src/render/card.js';
import { cleanCardText, renderCard } from '../../src/render/card-render.js';
import type { CardInput } from '../../src/render/page.js';
import { ensureRenderBuilt } from './build-dist.js';
import { fixturePage } from './fixture-page.js';

const base: CardInput = {
  slug: 'agentic-commerce',
  pageTitle: 'Agentic commerce readiness',
  month: '2026-10',
  anchor: 'llms-txt-all-fb32b7',
  valueText: '42.1%',
  sentence: '42.1% of stores had an llms.txt file in October 2026, up 1.2 points on September.',
  n: 12345,
  suppressed: false,
  attribution: 'storelens · stats.example.com/data/agentic-commerce · CC BY 4.0',
  metricTitle: 'Stores with an llms.txt file',
  dimensionLabel: 'All stores',
};
const suppressed: CardInput = { ...base, anchor: 'x-plus', valueText: null, n: null, suppressed: true, dimensionLabel: 'Plan: plus' };

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function expectPng1200x630(png: Buffer): void {
  expect(png.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(png.subarray(12, 16).toString('latin1')).toBe('IHDR');
  expect(png.readUInt32BE(16)).toBe(1200);
  expect(png.readUInt32BE(20)).toBe(630);
}

describe('renderCard', () => {
  let first: Buffer;
  beforeAll(async () => {
    first = await renderCard(base);
  });

  it('renders a 1200×630 PNG', () => {
    expectPng1200x630(first);
  });

  it('gives the same bytes for the same input', async () => {
    expect((await renderCard({ ...base })).equals(first)).toBe(true);
  });

  it('gives different bytes for different inputs', async () => {
    const other = await renderCard({ ...base, valueText: '42.2%' });
    expectPng1200x630(other);
    expect(other.equals(first)).toBe(false);
  });

  it('draws the change vs the previous month when the card has one', async () => {
    const png = await renderCard({ ...base, changeText: '+1.2 pts vs September 2026' });
    expectPng1200x630(png);
    expect(png.equals(first)).toBe(false);
  });

  it('renders a suppressed card', async () => {
    const png = await renderCard(suppressed);
    expectPng1200x630(png);
    expect(png.equals(first)).toBe(false);
  });

  it('renders hostile text without failing', async () => {
    const png = await renderCard({
      ...base,
      sentence: `${'x'.repeat(400)} "=cmd|calc" <script> \n\t 日本 ✓ \u202e ${'long '.repeat(80)}`,
      dimensionLabel: 'Category: multi\nline',
      pageTitle: 'P'.repeat(200),
    });
    expectPng1200x630(png);
  });
});

describe('cardHash', () => {
  it('changes when any visible field changes', () => {
    const h = cardHash(base);
    const changes: Partial<CardInput>[] = [
      { slug: 'platform-stores' },
      { pageTitle: 'Other' },
      { month: '2026-09' },
      { anchor: 'other' },
      { valueText: '42.2%' },
      { valueText: null },
      { sentence: 'Other sentence.' },
      { n: 12346 },
      { n: null },
      { suppressed: true },
      { attribution: 'other' },
      { metricTitle: 'Other' },
      { dimensionLabel: 'Country: United States' },
      { changeText: '+1.2 pts vs September 2026' },
    ];
    const hashes = changes.map((c) => cardHash({ ...base, ...c }));
    for (const other of hashes) expect(other).not.toBe(h);
    expect(new Set(hashes).size).toBe(changes.length);
  });

  it('ignores key order and absent optional fields, and includes the renderer version', () => {
    const reversed = Object.fromEntries(Object.entries(base).reverse()) as unknown as CardInput;
    expect(cardHash(reversed)).toBe(cardHash(base));
    const { metricTitle: _m, ...withoutTitle } = base;
    expect(cardHash({ ...withoutTitle, metricTitle: undefined })).toBe(cardHash(withoutTitle));
    expect(cardHash(base)).toMatch(/^[0-9a-f]{64}$/);
    expect(CARD_RENDERER_VERSION).toMatch(/^card-v\d+$/);
  });
});

describe('pageCardInputs', () => {
  it('makes one card per stat, with the value formatted or suppressed', () => {
    const page = fixturePage();
    const cards = pageCardInputs(page);
    expect(cards).toHaveLength(page.sections.reduce((n, s) => n + s.stats.length, 0));
    expect(cards[0]).toMatchObject({ valueText: '42.1%', n: 12345, suppressed: false, dimensionLabel: 'All stores', month: '2026-10' });
    expect(cards[0]!.attribution).toBe('storelens · stats.example.com/data/agentic-commerce · CC BY 4.0');
    const plus = cards.find((c) => c.dimensionLabel === 'Plan: plus')!;
    expect(plus).toMatchObject({ valueText: null, n: null, suppressed: true });
    expect(cards.find((c) => c.metricTitle === 'Average monthly revenue')!.valueText).toBe('$1,234.56');
  });

  it('carries the change vs last month when it is published, nothing when it is hidden, and countries by name', () => {
    const cards = pageCardInputs(fixturePage());
    expect(cards[0]!.changeText).toBe('+1.2 pts vs September 2026');
    const ae = cards.find((c) => c.dimensionLabel === 'Country: United Arab Emirates')!;
    expect(ae).toMatchObject({ valueText: '48', sentence: '48 stores in the United Arab Emirates were active in October 2026.' });
    expect(ae).not.toHaveProperty('changeText');
    expect(cards.find((c) => c.dimensionLabel === 'Plan: plus')).not.toHaveProperty('changeText');
    expect(cards.find((c) => c.dimensionLabel === 'Plan: basic')).not.toHaveProperty('changeText');
    expect(cards.find((c) => c.dimensionLabel === 'Country: Austria')).toMatchObject({ suppressed: true, n: null });
    expect(cards.find((c) => c.dimensionLabel === 'Country: QQ')).toBeDefined();
  });
});

describe('cleanCardText', () => {
  it('flattens breaks, drops controls and bidi overrides, marks undrawable runs with one "?"', () => {
    const covers = (cp: number) => cp < 0x250;
    expect(cleanCardText('a\nb\tc\u0007d\u202ee', covers)).toBe('a b cde');
    expect(cleanCardText('日本 ✓ x', covers)).toBe('? ? x');
  });
});

describe('renderCards', () => {
  beforeAll(() => ensureRenderBuilt(), 180_000);

  it('resolves the built worker file from source and from dist', () => {
    expect(cardWorkerPath('file:///repo/src/render/card-pool.ts')).toBe('/repo/dist/render/card-worker.js');
    expect(cardWorkerPath('file:///repo/dist/render/card-pool.js')).toBe('/repo/dist/render/card-worker.js');
  });

  it('renders on worker threads the same bytes as in process, in input order, with progress', async () => {
    const cards = [base, suppressed, { ...base, valueText: '7.0%', anchor: 'b' }, { ...base, valueText: '$1,234.56', anchor: 'c' }];
    const progress: Array<[number, number]> = [];
    const pooled = await renderCards(cards, { threads: 2, onProgress: (done, total) => progress.push([done, total]) });
    expect(pooled).toHaveLength(cards.length);
    for (const [i, card] of cards.entries()) expect(pooled[i]!.equals(await renderCard(card))).toBe(true);
    expect(progress).toEqual([[1, 4], [2, 4], [3, 4], [4, 4]]);
  });

  it('renders in process with one thread and returns nothing for no cards', async () => {
    expect(await renderCards([])).toEqual([]);
    const [one] = await renderCards([base], { threads: 1 });
    expect(one!.equals(await renderCard(base))).toBe(true);
  });
});
