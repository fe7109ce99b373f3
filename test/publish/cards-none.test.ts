/**
 * `--cards none` as a CI job meets it: every published stat's page carries an embed snippet whose
 * image is the stat's share card (SPEC: each published stat has one). A run that leaves the
 * latest month's cards out says so on stderr, with how many, instead of publishing snippets that
 * point at nothing without a word; a run that renders them says nothing.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SLUGS } from '../../src/stats/types.js';
import { generate, readDocument, runCli } from '../helpers/cli.js';
import { narrowPanel } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';
import { ensureRenderBuilt } from '../render/build-dist.js';

const [AUG, SEP] = ['2026-08', '2026-09'];
const dirs = tempDirs('storelens-cards-none-');
afterAll(() => dirs.removeAll());

let input: string;
let out: string;
let runs: string;
const publishArgs = (cards: string) => ['publish', '--input', input, '--out', out, '--runs', runs, '--all', '--cards', cards];

beforeAll(async () => {
  await ensureRenderBuilt();
  const root = await dirs.make();
  input = path.join(root, 'panel');
  out = path.join(root, 'out');
  runs = path.join(root, 'runs');
  await generate(input, { stores: 120, seed: 'cards-none', from: AUG, to: SEP });
  await narrowPanel(input, ['US', 'DE']);
}, 120_000);

describe('publish --cards none', () => {
  it('warns that the latest month\'s stats have no share card, and how many', async () => {
    const run = await runCli(publishArgs('none'));
    expect(run.code, run.stderr).toBe(0);
    let stats = 0;
    for (const slug of SLUGS) stats += (await readDocument(out, slug, SEP)).stats.length;
    expect(stats).toBeGreaterThan(0);
    expect(run.stderr).toContain(`warning: ${stats} stat(s) of ${SEP} have no share card (--cards none)`);
  });

  it('says nothing once the cards are rendered', async () => {
    const run = await runCli(publishArgs('latest'));
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).not.toContain('share card');
  }, 300_000);
});
