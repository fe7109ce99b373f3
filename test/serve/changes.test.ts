/**
 * What a release changed (issue 24, item 1), over HTTP: a release that only adds a month names
 * it and lists no figure; after a correction of one store's revenue and features in one month,
 * the change list names exactly the figures of which anything published differs between the
 * two releases' served month documents (diffed here, independently), with both sides, and none
 * hidden in both; the feed's correction item and the release's entry in /releases.json link to
 * it, and it is cached as every release artifact is.
 */
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import Parser from 'rss-parser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/serve/server.js';
import { SLUGS } from '../../src/stats/types.js';
import { BASE_URL, generate, publishPanel } from '../helpers/cli.js';
import { editRows, narrowPanel } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';
import { raw } from './http.js';

const [AUG, SEP, OCT] = ['2026-08', '2026-09', '2026-10'];
const T1 = new Date('2026-11-02T09:30:00.000Z');
const T2 = new Date('2026-11-09T14:00:00.000Z');
const T3 = new Date('2026-11-16T08:15:00.000Z');
const IMMUTABLE = 'public, max-age=31536000, immutable';

interface Delta { value: number | null; cohort_n: number | null; suppressed: boolean; prior_month: string }
interface Figure { value: number | null; numerator: number | null; n: number | null; null_rate: number | null; suppressed: boolean; delta: Delta | null }
interface Change { slug: string; month: string; id: string; before: Figure | null; after: Figure | null }
interface ChangeList { changes_version: 1; completed_at: string; previous_completed_at: string | null; months_added: string[]; changes: Change[] }

const dirs = tempDirs('storelens-changes-');
let server: RunningServer;
let first: string;
let added: string;
let corrected: string;
let correctedMonths: string[];

beforeAll(async () => {
  const root = await dirs.make();
  const all = path.join(root, 'all');
  const input = path.join(root, 'panel');
  const out = path.join(root, 'out');
  await generate(all, { stores: 300, seed: '24c', from: AUG, to: OCT });
  // Three countries of about 100 stores, nothing else broken down: the listed values never change.
  await narrowPanel(all, ['US', 'DE', 'GB']);
  await mkdir(input);
  for (const m of [AUG, SEP]) await copyFile(path.join(all, `${m}.csv`), path.join(input, `${m}.csv`));
  first = (await publishPanel(input, out, { now: () => T1 })).release!;

  await copyFile(path.join(all, `${OCT}.csv`), path.join(input, `${OCT}.csv`));
  const adding = await publishPanel(input, out, { months: OCT, now: () => T2 });
  expect(adding.releases).toEqual([OCT]);
  expect(adding.corrections).toEqual([]);
  added = adding.release!;

  // One store's revenue and features, in September.
  await editRows(path.join(input, `${SEP}.csv`), 1, (r) => ({
    ...r,
    est_monthly_revenue_usd: String(Number(r.est_monthly_revenue_usd || '0') * 10 + 1000),
    llms_txt: r.llms_txt === 'true' ? 'false' : 'true',
    mcp_server: r.mcp_server === 'true' ? 'false' : 'true',
  }));
  const correction = await publishPanel(input, out, { months: SEP, now: () => T3 });
  expect(correction.corrections).toContain(SEP);
  correctedMonths = correction.corrections;
  corrected = correction.release!;
  server = await startServer({ out, port: 0, host: '127.0.0.1', live: { pollMs: 0 } });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await dirs.removeAll();
});

const changesOf = async (release: string): Promise<ChangeList> => {
  const res = await raw(server.url, `/releases/${release}/api/data/changes`);
  expect(res.status).toBe(200);
  return JSON.parse(res.text) as ChangeList;
};

/** The figures of one month that differ between two releases, from their served documents. */
async function servedDiff(before: string, after: string, slug: string, month: string): Promise<Change[]> {
  const stats = async (release: string) => {
    const res = await raw(server.url, `/releases/${release}/api/data/${slug}/${month}`);
    const doc = JSON.parse(res.text) as { stats: Array<Figure & { id: string }> };
    return new Map(doc.stats.map((s) => [s.id, { value: s.value, numerator: s.numerator, n: s.n, null_rate: s.null_rate, suppressed: s.suppressed, delta: s.delta }]));
  };
  const [was, now] = [await stats(before), await stats(after)];
  const out: Change[] = [];
  for (const id of new Set([...was.keys(), ...now.keys()])) {
    const b = was.get(id) ?? null;
    const a = now.get(id) ?? null;
    if ((!b || b.suppressed) && (!a || a.suppressed)) continue;
    if (JSON.stringify(b) !== JSON.stringify(a)) out.push({ slug, month, id, before: b, after: a });
  }
  return out;
}

describe('the change list of a release', () => {
  it('names the months a first release and a month-adding release published, and no figure', async () => {
    expect(await changesOf(first)).toEqual({ changes_version: 1, completed_at: T1.toISOString(), previous_completed_at: null, months_added: [AUG, SEP], changes: [] });
    expect(await changesOf(added)).toEqual({ changes_version: 1, completed_at: T2.toISOString(), previous_completed_at: T1.toISOString(), months_added: [OCT], changes: [] });
  });

  it('names exactly the figures a correction changed, with every published figure of the stat before and after', async () => {
    const list = await changesOf(corrected);
    expect(list).toMatchObject({ completed_at: T3.toISOString(), previous_completed_at: T2.toISOString(), months_added: [] });
    const expected: Change[] = [];
    for (const slug of SLUGS) for (const m of [AUG, SEP, OCT]) expected.push(...(await servedDiff(added, corrected, slug, m)));
    const key = (c: Change) => `${c.slug} ${c.month} ${c.id}`;
    expect(list.changes.length).toBeGreaterThan(0);
    expect([...list.changes].sort((a, b) => (key(a) < key(b) ? -1 : 1))).toEqual(expected.sort((a, b) => (key(a) < key(b) ? -1 : 1)));
    // sorted on the wire, only months the release corrected, never a figure hidden on both sides
    expect(list.changes.map(key)).toEqual(list.changes.map(key).sort());
    for (const c of list.changes) {
      expect(correctedMonths).toContain(c.month);
      expect(c.before?.suppressed === false || c.after?.suppressed === false, key(c)).toBe(true);
    }
    // the edited store's features and revenue are among them
    expect(list.changes.some((c) => c.month === SEP && c.id.startsWith('llms_txt'))).toBe(true);
    // every month the feed announces as corrected has its changes listed: the month after the
    // edited one changed only in its month-over-month changes (the edited month is their prior)
    for (const m of correctedMonths) expect(list.changes.some((c) => c.month === m), m).toBe(true);
    expect(list.changes.some((c) => c.month === OCT && c.before?.value === c.after?.value && c.before?.n === c.after?.n)).toBe(true);
  });

  it('is the live release\'s /api/data/changes, with its ETag, and cached for a year under its release', async () => {
    const latest = await raw(server.url, '/api/data/changes');
    const pinned = await raw(server.url, `/releases/${corrected}/api/data/changes`);
    expect(latest.status).toBe(200);
    expect(latest.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(pinned.body.equals(latest.body)).toBe(true);
    expect(pinned.headers.etag).toBe(latest.headers.etag);
    expect(pinned.headers['cache-control']).toBe(IMMUTABLE);
    const again = await raw(server.url, `/releases/${corrected}/api/data/changes`, { headers: { 'If-None-Match': pinned.headers.etag as string } });
    expect(again.status).toBe(304);
    expect((await raw(server.url, '/api/data/changes?v=1')).status).toBe(404);
  });

  it('is linked from the feed\'s correction item and from the release\'s entry in /releases.json', async () => {
    const url = `${BASE_URL}/releases/${corrected}/api/data/changes`;
    const feed = await new Parser().parseString((await raw(server.url, '/data/rss.xml')).text);
    const items = feed.items.filter((i) => i.guid?.startsWith('correction:'));
    expect(items.map((i) => i.guid).sort()).toEqual(correctedMonths.map((m) => `correction:${m}:${T3.toISOString()}`).sort());
    for (const i of items) expect(i.content).toContain(`href="${url}"`);
    const { releases } = JSON.parse((await raw(server.url, '/releases.json')).text) as { releases: Array<{ id: string; changes?: string }> };
    expect(releases.map((r) => [r.id, r.changes])).toEqual([corrected, added, first].map((id) => [id, `${BASE_URL}/releases/${id}/api/data/changes`]));
  });
});
