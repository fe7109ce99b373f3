/**
 * A refresh writes each account's evidence with packedEvidence (accounts/evidence.ts), which
 * makes each input's fixed part once: the text is the same, byte for byte, as packing the
 * account's stored evidence item by item, for every kind of input (the intercept, country,
 * category, plan, sizes above and below the typical account, apps, ads, agentic features,
 * signals of the latest and earlier months, their pairs).
 */
import { describe, expect, it } from 'vitest';
import { packedEvidence, packEvidence, unpackEvidence } from '../../src/accounts/evidence.js';
import { inputSpace, storedEvidence, terms, type StoreSnapshot } from '../../src/accounts/model.js';
import type { SignalType } from '../../src/core/signals.js';

const LATEST = '2026-10';
const TYPES: SignalType[] = ['ad_channel_started', 'app_installed'];

function stores(): StoreSnapshot[] {
  return Array.from({ length: 600 }, (_, i): StoreSnapshot => {
    const signals: StoreSnapshot['signals'] = [];
    for (let j = 0; j < i % 4; j++) {
      const type = TYPES[(i + j) % 2];
      signals.push({ id: `g${i}-${j}`, month: j % 2 ? '2026-09' : LATEST, type, subject: ['tiktok', 'klaviyo', 'meta'][(i + j) % 3], strength: 0.5 + (j % 2) / 2, detail: `Detail "${i}" ${j}` });
    }
    return {
      store_id: `s${String(i).padStart(4, '0')}`,
      month: LATEST,
      domain: `s${i}.example`,
      country: [null, 'US', 'DE', 'FR'][i % 4],
      category: [null, 'apparel', 'toys'][i % 3],
      plan: i % 5 === 0 ? 'plus' : i % 7 === 0 ? null : 'grow',
      created_month: '2025-01',
      product_count: i % 11 === 0 ? null : i * 3,
      monthly_visits: i % 13 === 0 ? null : 1000 + i * i,
      est_monthly_revenue_usd: i % 17 === 0 ? 0 : 5000 + i * 37.5,
      apps: i % 3 ? ['klaviyo', 'yotpo'] : ['klaviyo'],
      ads: i % 4 ? ['meta'] : ['tiktok', 'meta'],
      agentic: i % 6 ? [] : ['llms_txt'],
      signals,
    };
  });
}

describe('packed evidence', () => {
  it('is the same text as packing the stored evidence item by item', () => {
    const s = stores();
    const space = inputSpace(s, LATEST);
    const groups = new Set<string>();
    for (const store of s) {
      const ts = terms(space, store);
      const text = packedEvidence(space, store, ts);
      expect(text).toBe(packEvidence(storedEvidence(space, store, ts)));
      expect(unpackEvidence(text)).toEqual(storedEvidence(space, store, ts));
      for (const t of ts) groups.add(space.inputs[t.i].key.split(':')[0]);
    }
    expect([...groups].sort()).toEqual(expect.arrayContaining(['ads', 'agentic', 'app', 'category', 'country', 'intercept', 'plan', 'signal', 'size', 'subject']));
  });
});
