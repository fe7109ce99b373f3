/**
 * The base URL of a publication as a correction job meets it: the monthly run publishes with
 * `--base-url https://stats.example.com`, and a CI job re-running one corrected month with
 * `--month` and no `--base-url` must not rebuild that month (and the months after it) at the
 * default `http://localhost:8080` beside the months it leaves as they were. Without the flag,
 * publish keeps the publication's own base URL; a different one with `--month` is refused (exit
 * 2, naming both, nothing written); with `--all` it moves every document together.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { BASE_URL, generate, readDocument, runCli } from '../helpers/cli.js';
import { flipColumn, liveRelease } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';

const [JAN, FEB, MAR] = ['2026-01', '2026-02', '2026-03'];
const OTHER = 'https://elsewhere.example.org/stats';

const dirs = tempDirs('storelens-base-url-');
let input: string;
let out: string;
let runs: string;
afterAll(() => dirs.removeAll());

const publishArgs = (...more: string[]) => ['publish', '--input', input, '--out', out, '--runs', runs, '--cards', 'none', ...more];

/** The base URL of every published month document, by "slug month". */
async function baseUrls(): Promise<Set<string>> {
  const bases = new Set<string>();
  for (const slug of SLUGS) {
    for (const m of [JAN, FEB, MAR]) {
      const doc = await readDocument(out, slug, m);
      for (const s of doc.stats) bases.add(s.canonical_url.slice(0, s.canonical_url.lastIndexOf(`/data/${slug}#`)));
    }
  }
  return bases;
}

beforeAll(async () => {
  const root = await dirs.make();
  input = path.join(root, 'panel');
  out = path.join(root, 'out');
  runs = path.join(root, 'runs');
  await generate(input, { stores: 300, seed: 'base-url', from: JAN, to: MAR });
  const first = await runCli(publishArgs('--all', '--base-url', BASE_URL));
  expect(first.code, first.stderr).toBe(0);
}, 120_000);

describe('the base URL of a publication', () => {
  it('is kept by a --month correction run without --base-url', async () => {
    await flipColumn(path.join(input, `${FEB}.csv`), 'llms_txt', 40);
    const run = await runCli(publishArgs('--month', FEB, '--json'));
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout).corrections).toContain(FEB);
    expect([...(await baseUrls())]).toEqual([BASE_URL]);
  });

  it('refuses a --month run at another base URL, naming both, and writes nothing', async () => {
    const before = await liveRelease(out);
    await flipColumn(path.join(input, `${MAR}.csv`), 'mcp_server', 40);
    const run = await runCli(publishArgs('--month', MAR, '--base-url', OTHER));
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(OTHER);
    expect(run.stderr).toContain(BASE_URL);
    expect(run.stderr).toContain('--all');
    expect((await liveRelease(out)).id).toBe(before.id);
    expect([...(await baseUrls())]).toEqual([BASE_URL]);
  });

  it('moves every month together with --all', async () => {
    const run = await runCli(publishArgs('--all', '--base-url', `${OTHER}/`));
    expect(run.code, run.stderr).toBe(0);
    expect([...(await baseUrls())]).toEqual([OTHER]);
    // and the next run without the flag keeps it
    const again = await runCli(publishArgs('--month', MAR, '--json'));
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout).changed).toBe(false);
  });
});
