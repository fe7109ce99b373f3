/**
 * A first scoring packs each account's evidence straight from the term matrix (packTerms), leaving
 * out what follows from an item's key or the store's size; reading it back gives exactly the items
 * describeTerm makes (storedEvidence), in order, field for field.
 */
import { describe, expect, it } from 'vitest';
import { packEvidence, packTerms, unpackEvidence } from '../../src/accounts/evidence.js';
import { inputSpace, SIZE_DECIMALS, storedEvidence, termMatrix, type StoreSnapshot } from '../../src/accounts/model.js';
import type { SignalType } from '../../src/core/signals.js';

const LATEST = '2026-10';
const TYPES: SignalType[] = ['ad_channel_started', 'app_installed', 'traffic_up'];

/** 300 stores of varied inputs: nulls, sizes of every magnitude (0, negative, fractional, huge), apps, ads, agentic features, signals of several months. */
function stores(): StoreSnapshot[] {
  return Array.from({ length: 300 }, (_, i): StoreSnapshot => {
    const signals: StoreSnapshot['signals'] = [];
    for (let j = 0; j < i % 4; j++) {
      const type = TYPES[(i + j) % TYPES.length];
      signals.push({ id: `g${i}-${j}`, month: ['2026-10', '2026-09', '2026-07'][j % 3], type, subject: j % 2 ? 'tiktok' : null, strength: 0.3 + j / 10, detail: `Detail "${i}" ${j} → é` });
    }
    const size = (k: number) => (i % 7 === 0 ? null : [0, -5, 12.5, 1e12, 999_999, 1234.5678][(i + k) % 6] * (1 + (i % 3)));
    return {
      store_id: `s${String(i).padStart(4, '0')}`,
      month: i % 5 === 0 ? '2026-09' : LATEST,
      domain: `s${i}.example`,
      country: i % 11 === 0 ? null : ['US', 'GB', 'DE'][i % 3],
      category: i % 13 === 0 ? null : ['apparel', 'toys', 'beauty'][i % 3],
      plan: i % 17 === 0 ? null : ['grow', 'plus'][i % 2],
      created_month: '2025-01',
      product_count: size(0),
      monthly_visits: size(1),
      est_monthly_revenue_usd: size(2),
      apps: i % 2 ? ['klaviyo', 'yotpo'] : ['klaviyo'],
      ads: i % 3 ? ['tiktok'] : [],
      agentic: i % 4 === 0 ? ['llms_txt', 'mcp_server'] : [],
      signals,
    } as StoreSnapshot;
  });
}

describe('packed evidence', () => {
  it('reads back exactly as the items describeTerm makes, and shorter than packEvidence', () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const m = termMatrix(space, s);
    let packed = 0;
    let full = 0;
    s.forEach((store, k) => {
      const items = storedEvidence(space, store);
      const text = packTerms(space, store, m, k);
      expect(JSON.stringify(unpackEvidence(text))).toBe(JSON.stringify(items));
      expect(unpackEvidence(text)).toEqual(unpackEvidence(packEvidence(items)));
      packed += text.length;
      full += packEvidence(items).length;
    });
    expect(packed).toBeLessThan(full * 0.67);
  });

  it('writes a key-only item of x 1 as its key alone, and still reads the forms written before', () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const text = packTerms(space, s[1], termMatrix(space, s), 1);
    expect(text.startsWith('["intercept","country:GB",')).toBe(true);
    const before = text.replace(/"(intercept|country:GB)"/g, '["$1",1]');
    expect(unpackEvidence(before)).toEqual(unpackEvidence(text));
  });

  it('keeps a size to SIZE_DECIMALS decimals, the value the model scores', () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const sizes = s.flatMap((store) => storedEvidence(space, store)).filter((e) => e.key.startsWith('size:'));
    expect(sizes.length).toBeGreaterThan(300);
    for (const e of sizes) expect(Math.abs(e.x * 10 ** SIZE_DECIMALS - Math.round(e.x * 10 ** SIZE_DECIMALS))).toBeLessThan(1e-6);
    expect(sizes.some((e) => String(e.x).split('.')[1]?.length === SIZE_DECIMALS)).toBe(true);
  });
});
