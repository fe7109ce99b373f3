/**
 * The attacks of issue 8, each reproduced by a reader who has only the published JSON of every
 * month (test/stats/attacker.ts): on the statistics as they were built before the interval audit
 * (buildMonth alone) the attack recovers hidden figures; on what publish writes it bounds no
 * hidden store count inside its protection interval (below 30, or within ±30% of the truth) and
 * pins no hidden cohort or numerator, zero included.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { aggregateMonths, registerMacros } from '../../src/panel/aggregate.js';
import { openDuck } from '../../src/panel/duck.js';
import { listPanel, loadPanel } from '../../src/panel/read.js';
import { buildMonth, type BuiltMonth } from '../../src/stats/build.js';
import { SLUGS, type Stat } from '../../src/stats/types.js';
import { generate, publishPanel } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';
import { readPanel, type Panel } from '../panel/panel-rows.js';
import { attack, breaches, type Bound, type PublishedStats } from '../stats/attacker.js';
import { stores, writePanel } from '../stats/hand-panel.js';
import { trueCells, type Dim } from '../stats/reference-cells.js';

const dirs = tempDirs('storelens-attacks-');
afterAll(() => dirs.removeAll());

const [J, F, M] = ['2026-01', '2026-02', '2026-03'];
/** Rare features: their hidden numerators are the ones a reader could recover as zero. */
const RARE = ['mcp_server_share', 'agent_checkout_share', 'agent_ready_share', 'llms_txt_share'];

/** Every published month's stats, from the JSON files only. */
async function readPublished(out: string, months: string[]): Promise<PublishedStats> {
  const published: PublishedStats = new Map();
  for (const month of months) {
    const byId = new Map<string, Stat>();
    for (const slug of SLUGS) {
      const doc = JSON.parse(await readFile(path.join(out, 'api/data', slug, `${month}.json`), 'utf8'));
      for (const s of doc.stats as Stat[]) byId.set(s.id, s);
    }
    published.set(month, byId);
  }
  return published;
}

/** The statistics before the interval audit: buildMonth alone, month after month. */
async function builtWithoutAudit(input: string): Promise<PublishedStats> {
  const duck = await openDuck();
  try {
    const files = await listPanel(input);
    await loadPanel(duck, files, () => {});
    await registerMacros(duck);
    const aggs = await aggregateMonths(duck, files.map((f) => f.month));
    const out: PublishedStats = new Map();
    let prior: BuiltMonth | undefined;
    for (const [month, agg] of [...aggs].sort(([a], [b]) => (a < b ? -1 : 1))) {
      prior = buildMonth(agg, prior, 'https://stats.example.com');
      out.set(month, new Map([...prior.stats.values()].flat().map((s) => [s.id, s])));
    }
    return out;
  } finally {
    duck.close();
  }
}

function truthOf(panel: Panel, dim: Dim): (b: Bound) => number {
  return (b) => {
    const key = b.figure === 'stores' || b.figure === 'cohort' ? 'active_stores' : b.figure;
    // A cell listed in a month it holds no stores (it has some in another month) counts 0.
    const cell = trueCells(panel, b.month, key, dim).get(b.value);
    if (!cell) return 0;
    return b.figure === 'stores' ? cell.e : b.figure === 'cohort' ? cell.cohort : cell.sum;
  };
}

async function breachesOf(published: PublishedStats, panel: Panel, dims: Dim[] = ['country', 'category']): Promise<string[]> {
  const out: string[] = [];
  for (const dim of dims) out.push(...breaches(await attack(published, dim, RARE, true), truthOf(panel, dim)).map((b) => `${dim} ${b}`));
  return out;
}

describe('a hand-built panel with countries of 29, 30 and 31 stores', () => {
  it('no longer lets next month’s returning stores pin countries hidden at 29 (attack 1), nor hidden cells at zero (attack 3)', async () => {
    const input = await dirs.make();
    const out = await dirs.make();
    const all = [J, F, M];
    await writePanel(input, [
      ...stores('us', 290, 'US', 'apparel', all),
      // Some churn, as in any real month: stores that leave, stores that open.
      ...stores('us-left', 8, 'US', 'apparel', [J, F]),
      ...stores('us-new', 8, 'US', 'apparel', [F, M]),
      ...stores('us-mcp', 2, 'US', 'apparel', all, ['mcp_server']),
      ...stores('gb', 118, 'GB', 'apparel', all),
      ...stores('gb-left', 2, 'GB', 'apparel', [J, F]),
      ...stores('gb-new', 2, 'GB', 'apparel', [F, M]),
      ...stores('ca', 57, 'CA', 'beauty', all),
      ...stores('ca-left', 2, 'CA', 'beauty', [J, F]),
      ...stores('ca-new', 2, 'CA', 'beauty', [F, M]),
      ...stores('ca-mcp', 1, 'CA', 'beauty', all, ['mcp_server']),
      ...stores('se', 29, 'SE', 'beauty', all),
      ...stores('se-mcp', 1, 'SE', 'beauty', all, ['mcp_server']),
      ...stores('fi', 31, 'FI', 'beauty', all),
      // Hidden at 29 in January and February, published at 31 in March with 29 returning.
      ...stores('dk', 29, 'DK', 'beauty', all),
      ...stores('dk-new', 2, 'DK', 'beauty', [M]),
      ...stores('no', 29, 'NO', 'beauty', all),
      ...stores('no-new', 2, 'NO', 'beauty', [M]),
      ...stores('is', 3, 'IS', 'beauty', all),
    ]);
    const panel = readPanel(input);

    const before = await builtWithoutAudit(input);
    const old = await breachesOf(before, panel);
    expect(old).toContain('country 2026-02 DK stores: true 29, bounded to [27, 31]');
    expect(old.some((b) => /mcp_server_share: true 0, bounded to \[0, 0\]/.test(b)), old.join('\n')).toBe(true);

    await publishPanel(input, out);
    const published = await readPublished(out, all);
    expect(await breachesOf(published, panel)).toEqual([]);
    // Still published: the big countries.
    expect(published.get(M)!.get('active_stores:country:US')!.n).toBe(300);
    expect(published.get(F)!.get('active_stores:country:GB')!.n).toBe(122);
  }, 60_000);
});

describe.each([
  { name: '3,000 stores, seed 7', stores: 3000, seed: '7' },
  { name: '400 stores, seed 11', stores: 400, seed: '11' },
])('the generated panel of $name', ({ stores: size, seed }) => {
  // One panel and one publish of it for both attacks: neither changes the panel or the output.
  let published: Promise<{ input: string; out: string }> | undefined;
  const generatedAndPublished = () =>
    (published ??= (async () => {
      const input = await dirs.make();
      const out = await dirs.make();
      await generate(input, { stores: size, seed, from: J, to: M });
      await publishPanel(input, out);
      return { input, out };
    })());

  it('publishes no figure that bounds a hidden store count inside its protection interval or pins a hidden cohort or numerator (attacks 1, 3 and 4)', async () => {
    const { input, out } = await generatedAndPublished();
    const panel = readPanel(input);
    if (size === 3000) expect((await breachesOf(await builtWithoutAudit(input), panel)).length).toBeGreaterThan(0);
    expect(await breachesOf(await readPublished(out, [J, F, M]), panel)).toEqual([]);
  }, 180_000);

  it('publishes no count, and no numerator of stores present in both months, below 30 (attack 2)', async () => {
    const { out } = await generatedAndPublished();
    const small: string[] = [];
    for (const [month, stats] of await readPublished(out, [J, F, M])) {
      for (const s of stats.values()) {
        if (s.suppressed) continue;
        if (['active_stores', 'new_stores', 'panel_stores', 'returning_store_share'].includes(s.metric_key) && s.numerator! < 30) small.push(`${month} ${s.id}: ${s.numerator}`);
        if (s.delta && !s.delta.suppressed && s.delta.cohort_n! < 30) small.push(`${month} ${s.id}: cohort ${s.delta.cohort_n}`);
      }
    }
    expect(small).toEqual([]);
  }, 120_000);
});
