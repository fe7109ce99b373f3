/**
 * `storelens generate --truth FILE`: the hidden propensity of every store of the panel's last
 * month, written beside a panel that is byte-for-byte the panel generated without it.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-truth-');
afterAll(() => dirs.removeAll());
const ARGS = ['--stores', '1500', '--from', '2026-01', '--to', '2026-03', '--seed', 'truth'];

async function generate(extra: string[] = []): Promise<string> {
  const out = path.join(await dirs.make(), 'panel');
  const r = await runCli(['generate', '--out', out, ...ARGS, ...extra]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}

describe('storelens generate --truth', () => {
  it('writes p for exactly the last month\'s stores, in (0, 1), and leaves the panel files byte-identical', async () => {
    const plain = await generate();
    const truthFile = path.join(await dirs.make(), 'truth.csv');
    const withTruth = await generate(['--truth', truthFile]);
    const files = (await readdir(plain)).sort();
    expect((await readdir(withTruth)).sort()).toEqual(files);
    for (const f of files) expect((await readFile(path.join(withTruth, f))).equals(await readFile(path.join(plain, f))), f).toBe(true);

    const truth = parse(await readFile(truthFile), { columns: true }) as Array<{ store_id: string; p: string }>;
    const last = parse(await readFile(path.join(plain, '2026-03.csv')), { columns: true }) as Array<{ store_id: string }>;
    expect(truth.map((t) => t.store_id)).toEqual(last.map((s) => s.store_id));
    const ps = truth.map((t) => Number(t.p));
    expect(ps.every((p) => p > 0 && p < 1)).toBe(true);
    // Something to learn: the propensities spread widely around a modest base rate.
    const mean = ps.reduce((a, b) => a + b, 0) / ps.length;
    expect(mean).toBeGreaterThan(0.05);
    expect(mean).toBeLessThan(0.4);
    expect(ps.filter((p) => p > 0.6).length).toBeGreaterThan(20);
  });

  it('writes NDJSON {store_id, p} when the file ends in .ndjson', async () => {
    const truthFile = path.join(await dirs.make(), 'truth.ndjson');
    await generate(['--truth', truthFile]);
    const rows = (await readFile(truthFile, 'utf8')).trim().split('\n').map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(rows.length).toBeGreaterThan(1000);
    expect(Object.keys(rows[0])).toEqual(['store_id', 'p']);
    expect(typeof rows[0].p).toBe('number');
  });
});
