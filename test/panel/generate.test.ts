/**
 * `storelens generate`: a deterministic synthetic panel in the input contract, holding what
 * makes publishing hard (hostile ids and categories, nulls everywhere optional, small cells).
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContactsFile } from '../../src/contacts/source.js';
import { PANEL_COLUMNS } from '../../src/core/panel-contract.js';
import { main } from '../../src/cli.js';
import { capturedEnv, FIXED_NOW, runCli } from '../helpers/cli.js';
import { copyTree, exists, snapshotTree, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-generate-');
const ARGS = ['--stores', '3000', '--from', '2026-01', '--to', '2026-02'];
const MONTH_FILES = ['2026-01.csv', '2026-02.csv'];
const FILES = { csv: [...MONTH_FILES, 'contacts.csv'], parquet: ['2026-01.parquet', '2026-02.parquet', 'contacts.csv'] };

/** Generates into a fresh folder; returns it. */
async function generated(seed: string, format: 'csv' | 'parquet' = 'csv'): Promise<string> {
  const out = path.join(await dirs.make(), 'panel');
  const r = await runCli(['generate', '--out', out, ...ARGS, '--seed', seed, '--format', format]);
  expect(r.code, r.stderr).toBe(0);
  return out;
}
const bytesOf = async (dir: string) => Promise.all((await readdir(dir)).sort().map((f) => readFile(path.join(dir, f))));

let rows: Array<Record<string, string>>;
let csvA: string;

beforeAll(async () => {
  csvA = await generated('62');
  rows = [];
  for (const f of MONTH_FILES) rows.push(...(parse(await readFile(path.join(csvA, f)), { columns: true }) as Array<Record<string, string>>));
});
afterAll(() => dirs.removeAll());

describe('storelens generate', () => {
  it('writes one file per month with the contract columns in order', async () => {
    expect((await readdir(csvA)).sort()).toEqual(FILES.csv);
    const header = (await readFile(path.join(csvA, '2026-01.csv'), 'utf8')).split('\n')[0];
    expect(header).toBe(PANEL_COLUMNS.map((c) => c.name).join(','));
  });

  it.each(['csv', 'parquet'] as const)('writes byte-identical %s files for the same seed', async (format) => {
    const a = format === 'csv' ? csvA : await generated('62', format);
    const b = await generated('62', format);
    expect((await readdir(b)).sort()).toEqual(FILES[format]);
    const [x, y] = [await bytesOf(a), await bytesOf(b)];
    x.forEach((buf, i) => expect(buf.equals(y[i]), FILES[format][i]).toBe(true));
  });

  it('writes different files for a different seed', async () => {
    const otherDir = await generated('63');
    expect((await readdir(otherDir)).sort()).toEqual(FILES.csv);
    const other = await bytesOf(otherDir);
    const mine = await bytesOf(csvA);
    const header = (b: Buffer) => b.toString('utf8').split('\n')[0];
    mine.forEach((buf, i) => {
      expect(header(other[i]!), FILES.csv[i]).toBe(FILES.csv[i] === 'contacts.csv' ? 'store_id,name,email,role,source' : PANEL_COLUMNS.map((c) => c.name).join(','));
      expect(buf.equals(other[i]!), FILES.csv[i]).toBe(false);
    });
  });

  it('holds hostile store ids: formula starts, commas and quotes, newlines, tabs, non-ASCII', () => {
    const ids = rows.map((r) => r.store_id);
    for (const start of ['=', '+', '-', '@', '\t']) expect(ids.some((id) => id.startsWith(start)), `an id starting with ${JSON.stringify(start)}`).toBe(true);
    expect(ids.some((id) => id.includes(',') && id.includes('"'))).toBe(true);
    expect(ids.some((id) => id.includes('\n'))).toBe(true);
    expect(ids.some((id) => /[^\x00-\x7f]/.test(id))).toBe(true);
  });

  it('holds hostile categories: formula starts, commas and quotes, newlines, non-ASCII, untrimmed', () => {
    const cats = new Set(rows.map((r) => r.category));
    for (const start of ['=', '+', '-', '@']) expect([...cats].some((c) => c.startsWith(start)), `a category starting with ${start}`).toBe(true);
    expect([...cats].some((c) => c.includes(',') && c.includes('"'))).toBe(true);
    expect([...cats].some((c) => c.includes('\n'))).toBe(true);
    expect([...cats].some((c) => /[^\x00-\x7f]/.test(c))).toBe(true);
    expect([...cats].some((c) => c !== c.trim())).toBe(true);
  });

  it('leaves values unknown in every optional column, and never in store_id', () => {
    for (const col of PANEL_COLUMNS) {
      const empty = rows.filter((r) => r[col.name] === '').length;
      if (col.name === 'store_id') expect(empty, col.name).toBe(0);
      else expect(empty, col.name).toBeGreaterThan(0);
    }
  });

  it('keeps store ids unique within a month and mostly stable across months', async () => {
    const [jan, feb] = await Promise.all(
      MONTH_FILES.map(async (f) => (parse(await readFile(path.join(csvA, f)), { columns: true }) as Array<Record<string, string>>).map((r) => r.store_id)),
    );
    expect(new Set(jan).size).toBe(jan.length);
    expect(new Set(feb).size).toBe(feb.length);
    const kept = new Set(feb);
    expect(jan.filter((id) => kept.has(id)).length / jan.length).toBeGreaterThan(0.8);
  });

  it('prints a summary with --json', async () => {
    const out = path.join(await dirs.make(), 'panel');
    const r = await runCli(['generate', '--out', out, '--stores', '50', '--from', '2025-12', '--to', '2026-01', '--seed', '1', '--json']);
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ out, stores: 50, files: [path.join(out, '2025-12.csv'), path.join(out, '2026-01.csv')] });
  });

  it.each([
    ['a malformed option', ['--from', '2026-5', '--to', '2026-06'], /'--from <YYYY-MM>' argument '2026-5' is invalid. "2026-5" is not a month/],
    ['a malformed option', ['--from', '2026-05', '--to', '2026-06', '--stores', '0'], /'--stores <n>' argument '0' is invalid. "0" is not a positive integer/],
    ['a panel past the bounds', ['--stores', '1000000000000', '--from', '2026-01', '--to', '2026-02'], /'--stores <n>' argument '1000000000000' is invalid\. "1000000000000" is more than 20,000,000/],
    ['a panel past the bounds', ['--stores', '20000001', '--from', '2026-01', '--to', '2026-01'], /'--stores <n>' argument '20000001' is invalid\. "20000001" is more than 20,000,000/],
    ['a panel past the bounds', ['--stores', '10', '--from', '0001-01', '--to', '9999-12'], /--from 0001-01 to --to 9999-12 is 119,988 months: generate makes at most 240 \(20 years\)/],
    ['a panel past the bounds', ['--stores', '10', '--from', '2000-01', '--to', '2020-01'], /--from 2000-01 to --to 2020-01 is 241 months: generate makes at most 240 \(20 years\)/],
    ['a panel past the bounds', ['--stores', '20000000', '--from', '2026-01', '--to', '2027-02'], /--stores 20,000,000 over 14 months \(--from 2026-01 to --to 2027-02\) is 280,000,000 store-months: generate makes at most 260,000,000/],
    ['--from after --to', ['--from', '2026-05', '--to', '2026-03'], /--from 2026-05 is after --to 2026-03/],
  ])('exits 2 at once, saying what is wrong and writing nothing, for %s: %s', async (_what, args, message) => {
    const out = path.join(await dirs.make(), 'panel');
    const r = await runCli(['generate', '--out', out, ...(args as string[])]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(await exists(out)).toBe(false);
  });

  it('writes a contact source beside the panel: a few contacts for a fraction of the stores, every one readable and checked', async () => {
    const contacts = await readContactsFile(path.join(csvA, 'contacts.csv'));
    const stores = new Set(rows.map((r) => r.store_id));
    const withContacts = new Set(contacts.map((c) => c.store_id));
    expect(withContacts.size).toBeGreaterThan(stores.size * 0.08);
    expect(withContacts.size).toBeLessThan(stores.size * 0.3);
    for (const c of contacts) expect(stores.has(c.store_id), c.store_id).toBe(true);
    const perStore = new Map<string, number>();
    for (const c of contacts) perStore.set(c.store_id, (perStore.get(c.store_id) ?? 0) + 1);
    expect(Math.max(...perStore.values())).toBeLessThanOrEqual(3);
    // Hostile text survives the round trip; a domain written in capitals arrives lower-cased.
    expect(contacts.some((c) => c.name?.startsWith('=HYPERLINK('))).toBe(true);
    expect(contacts.some((c) => c.role === '=Ops, "Lead"' || c.source === '+imported, "legacy"')).toBe(true);
    expect(contacts.some((c) => c.name === null)).toBe(true);
    for (const c of contacts) expect(c.email.slice(c.email.indexOf('@'))).toBe(c.email.slice(c.email.indexOf('@')).toLowerCase());
    const raw = await readFile(path.join(csvA, 'contacts.csv'), 'utf8');
    expect(raw).toMatch(/@[^,\n]*[A-Z]/);
  });

  /**
   * `generate` stopped by a signal once the first month is written (the progress line of the
   * second month raises it: a terminal's stderr, as a person at a terminal has).
   */
  async function stoppedGenerate(out: string, signal: NodeJS.Signals, seed: string) {
    const c = capturedEnv(FIXED_NOW, {});
    Object.assign(c.env.stderr, { isTTY: true });
    const write = c.env.stderr.write.bind(c.env.stderr);
    c.env.stderr.write = ((chunk: string, ...rest: never[]) => {
      if (String(chunk).includes('month 2026-02')) process.emit(signal, signal);
      return write(chunk, ...rest);
    }) as typeof c.env.stderr.write;
    const listeners = process.listenerCount(signal);
    const code = await main(['node', 'storelens', 'generate', '--out', out, ...ARGS, '--seed', seed], c.env);
    expect(process.listenerCount(signal)).toBe(listeners);
    return { code, stderr: c.stderr() };
  }

  it('stopped by Ctrl-C half way, leaves a panel it was writing over as it was, with nothing of its own', async () => {
    const out = path.join(await dirs.make(), 'panel');
    await copyTree(csvA, out);
    const before = await snapshotTree(out);
    const r = await stoppedGenerate(out, 'SIGINT', '63');
    expect(r.code).toBe(130);
    expect(r.stderr).toContain(`storelens: generate stopped by SIGINT: ${out} is left as it was`);
    // Not the first month of seed 63 beside the second month of seed 62, nor a .tmp of either.
    expect(await snapshotTree(out)).toEqual(before);
  });

  it('stopped by SIGTERM half way, removes the folders it made', async () => {
    const parent = await dirs.make();
    const r = await stoppedGenerate(path.join(parent, 'new', 'panel'), 'SIGTERM', '62');
    expect(r.code).toBe(143);
    expect(r.stderr).toContain('generate stopped by SIGTERM');
    expect(await readdir(parent)).toEqual([]);
  });
});
