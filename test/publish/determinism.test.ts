/**
 * Same input ⇒ the same bytes (DESIGN.md "Statistics rules"): two publishes of one panel into two
 * folders differ only in completed_at; the same panel as CSV, Parquet and NDJSON publishes the
 * same statistics.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { generate, publishPanel, type GenerateSpec } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const SPEC: GenerateSpec = { stores: 800, seed: '31', from: '2026-02', to: '2026-04' };
const MONTHS = ['2026-02', '2026-03', '2026-04'];
const dirs = tempDirs('storelens-determinism-');
const outs: Record<'first' | 'second' | 'parquet' | 'ndjson', string> = { first: '', second: '', parquet: '', ndjson: '' };

beforeAll(async () => {
  const csv = await dirs.make();
  const parquet = await dirs.make();
  const ndjson = await dirs.make();
  await generate(csv, SPEC);
  await generate(parquet, { ...SPEC, format: 'parquet' });
  await generate(ndjson, { ...SPEC, format: 'ndjson' });
  for (const k of Object.keys(outs) as Array<keyof typeof outs>) outs[k] = await dirs.make();
  await publishPanel(csv, outs.first, { now: () => new Date('2026-05-01T08:00:00.000Z') });
  await publishPanel(csv, outs.second, { now: () => new Date('2026-05-03T17:45:12.345Z') });
  await publishPanel(parquet, outs.parquet);
  await publishPanel(ndjson, outs.ndjson);
});
afterAll(() => dirs.removeAll());

const read = (out: string, rel: string) => readFile(path.join(out, rel), 'utf8');
const withoutCompletedAt = (text: string) => text.replace(/\n  "completed_at": "[^"]*",\n/, '\n');
const documents = SLUGS.flatMap((slug) => [`api/data/${slug}.json`, ...MONTHS.map((m) => `api/data/${slug}/${m}.json`)]);

describe('publishing the same panel twice', () => {
  it('writes JSON documents identical byte for byte except completed_at', async () => {
    for (const rel of documents) {
      const [a, b] = [await read(outs.first, rel), await read(outs.second, rel)];
      expect(JSON.parse(a).completed_at).toBe('2026-05-01T08:00:00.000Z');
      expect(JSON.parse(b).completed_at).toBe('2026-05-03T17:45:12.345Z');
      expect(withoutCompletedAt(a), rel).toBe(withoutCompletedAt(b));
      expect(withoutCompletedAt(a)).not.toContain('completed_at');
    }
  });

  it('writes identical CSV bytes', async () => {
    for (const slug of SLUGS) {
      const [a, b] = await Promise.all([outs.first, outs.second].map((o) => readFile(path.join(o, `api/data/${slug}.csv`))));
      expect(a.equals(b), slug).toBe(true);
    }
  });
});

describe('the same panel in another file format', () => {
  it.each(['parquet', 'ndjson'] as const)('publishes from %s the statistics it publishes from CSV', async (format) => {
    for (const rel of documents) {
      expect(withoutCompletedAt(await read(outs[format], rel)), rel).toBe(withoutCompletedAt(await read(outs.first, rel)));
    }
    for (const slug of SLUGS) expect(await read(outs[format], `api/data/${slug}.csv`)).toBe(await read(outs.first, `api/data/${slug}.csv`));
  });
});
