/**
 * The private runs folder publish writes (src/panel/runs.ts): the contract's layout and Parquet
 * schemas, run ids that make identical input a no-op and a correction rewrite exactly the month
 * and the next one, runs written even when the statistics are already published, and a runs
 * folder that overlaps the public output refused before anything is written.
 */
import { createHash } from 'node:crypto';
import { copyFile, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lit, openDuck } from '../../src/panel/duck.js';
import { readRunsIndex, runDir, signalsRunId, writeRun } from '../../src/panel/runs.js';
import { checkRun } from '../../src/ingest/runs-folder.js';
import { hashPanel } from '../../src/publish/run-id.js';
import { listPanel } from '../../src/panel/read.js';
import { SIGNALS_VERSION } from '../../src/panel/signals.js';
import { publishPanel, runCli } from '../helpers/cli.js';
import { FEB, JAN, MAR, PANEL, base, writePanel } from '../helpers/signals-panel.js';
import { PANEL_COLUMNS } from '../../src/core/panel-contract.js';
import { exists, snapshotTree, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-runs-');
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
afterAll(() => dirs.removeAll());

/** A fresh panel folder, output folder and runs folder. */
async function setup() {
  const root = await dirs.make();
  const input = path.join(root, 'panel');
  await writePanel(input);
  return { root, input, out: path.join(root, 'out'), runs: path.join(root, 'runs') };
}

const describeParquet = async (file: string) => {
  const duck = await openDuck();
  try {
    return (await duck.all<{ column_name: string; column_type: string }>(`DESCRIBE SELECT * FROM read_parquet(${lit(file)})`)).map(
      (c) => `${c.column_name} ${c.column_type}`,
    );
  } finally {
    duck.close();
  }
};

describe('the runs folder of a first publish', () => {
  let s: Awaited<ReturnType<typeof setup>>;
  beforeAll(async () => {
    s = await setup();
    await publishPanel(s.input, s.out, { runs: s.runs });
  });

  it('indexes one run per month, named by the run id of the contract', async () => {
    const hashes = await hashPanel(await listPanel(s.input));
    const index = await readRunsIndex(s.runs);
    const [first] = (JSON.parse(await readFile(path.join(s.out, '.releases', 'current', 'releases.json'), 'utf8')) as { releases: Array<{ id: string }> }).releases;
    expect(index).toEqual({ runs_version: 1, months: Object.fromEntries([JAN, FEB, MAR].map((m) => [m, signalsRunId(m, hashes)])), publication: first.id });
    // sha256 of {signals_version, month, panel: [previous month's file hash or null, this month's]}
    const expected = createHash('sha256').update(JSON.stringify({ signals_version: SIGNALS_VERSION, month: JAN, panel: [null, hashes.get(JAN)] })).digest('hex');
    expect(index.months[JAN]).toBe(expected);
    for (const m of [JAN, FEB, MAR]) {
      expect((await readdir(path.join(s.runs, m))).sort()).toEqual([index.months[m]]);
      expect((await readdir(path.join(s.runs, m, index.months[m]))).sort()).toEqual(['run.json', 'signals.parquet', 'stores.csv']);
    }
  });

  it('describes each run in run.json', async () => {
    const index = await readRunsIndex(s.runs);
    const info = JSON.parse(await readFile(path.join(s.runs, FEB, index.months[FEB], 'run.json'), 'utf8'));
    const hashes = await hashPanel(await listPanel(s.input));
    expect(info).toEqual({
      month: FEB, run_id: index.months[FEB], stores: PANEL[FEB].length, signals: 14, signals_version: SIGNALS_VERSION,
      stores_file: 'stores.csv', stores_sha256: hashes.get(FEB),
      signals_sha256: createHash('sha256').update(await readFile(path.join(s.runs, FEB, index.months[FEB], 'signals.parquet'))).digest('hex'),
    });
  });

  it("keeps the month's panel file, byte for byte, as the run's stores, and writes signals.parquet with exactly the columns and types of the contract", async () => {
    const dir = path.join(s.runs, FEB, (await readRunsIndex(s.runs)).months[FEB]);
    const panelFile = (await listPanel(s.input)).find((f) => f.month === FEB)!;
    expect(await readFile(path.join(dir, 'stores.csv'))).toEqual(await readFile(panelFile.file));
    expect(await describeParquet(path.join(dir, 'signals.parquet'))).toEqual([
      'id VARCHAR', 'month VARCHAR', 'store_id VARCHAR', 'type VARCHAR', 'subject VARCHAR', 'strength DOUBLE', 'detail VARCHAR',
    ]);
  });
});

describe('a month file changed while publish runs', () => {
  it('stops naming the file, and leaves no run of that month behind', async () => {
    const s = await setup();
    const feb = (await listPanel(s.input)).find((f) => f.month === FEB)!;
    const duck = await openDuck();
    try {
      // The hash publish took when it started is not the file's any more.
      const o = { runsDir: s.runs, months: [FEB], hashes: new Map([[FEB, '0'.repeat(64)]]) };
      await expect(writeRun(duck, feb, PANEL[FEB].length, '(SELECT 1)', null, o)).rejects.toThrow(`${feb.file}: changed while publish was running`);
    } finally {
      duck.close();
    }
    expect(await readdir(path.join(s.runs, FEB))).toEqual([]);
  });
});

describe('publishing again', () => {
  it('rewrites no run when the input is identical', async () => {
    const s = await setup();
    await publishPanel(s.input, s.out, { runs: s.runs });
    const before = await snapshotTree(s.runs);
    const again = await publishPanel(s.input, s.out, { runs: s.runs });
    expect(again).toMatchObject({ changed: false, runs: [] });
    expect(await snapshotTree(s.runs)).toEqual(before);
  });

  it('writes the runs into a fresh runs folder even when the statistics are already published', async () => {
    const s = await setup();
    await publishPanel(s.input, s.out);
    expect(await exists(s.runs)).toBe(false);
    const published = await snapshotTree(s.out);
    const again = await publishPanel(s.input, s.out, { runs: s.runs });
    expect(again).toMatchObject({ changed: false, months: [], runs: [JAN, FEB, MAR] });
    expect(Object.keys((await readRunsIndex(s.runs)).months)).toEqual([JAN, FEB, MAR]);
    expect(await snapshotTree(s.out)).toEqual(published);
  });

  it('rewrites the run of a corrected month and of the next one, removes the runs they replace, and keeps the month before', async () => {
    const s = await setup();
    await publishPanel(s.input, s.out, { runs: s.runs });
    const before = await readRunsIndex(s.runs);
    const janTree = await snapshotTree(path.join(s.runs, JAN));

    // The correction: a store of February had far more visits than first reported.
    const corrected = { ...PANEL, [FEB]: PANEL[FEB].map((r) => (r.store_id === 'old-in-first-month' ? base('old-in-first-month', { monthly_visits: '9000' }) : r)) };
    await writePanel(s.input, corrected);
    const summary = await publishPanel(s.input, s.out, { runs: s.runs, months: FEB });
    expect(summary.runs).toEqual([FEB, MAR]);

    const after = await readRunsIndex(s.runs);
    expect(after.months[JAN]).toBe(before.months[JAN]);
    for (const m of [FEB, MAR]) {
      expect(after.months[m]).not.toBe(before.months[m]);
      expect(await readdir(path.join(s.runs, m))).toEqual([after.months[m]]);
    }
    expect(await snapshotTree(path.join(s.runs, JAN))).toEqual(janTree);

    const duck = await openDuck();
    try {
      const file = (m: string) => lit(path.join(s.runs, m, after.months[m], 'signals.parquet'));
      const feb = await duck.all<{ type: string }>(`SELECT type FROM read_parquet(${file(FEB)}) WHERE store_id = 'old-in-first-month'`);
      expect(feb.map((r) => r.type)).toEqual(['traffic_up']);
      const mar = await duck.all<{ type: string; detail: string }>(`SELECT type, detail FROM read_parquet(${file(MAR)}) WHERE store_id = 'old-in-first-month'`);
      expect(mar).toEqual([{ type: 'traffic_down', detail: 'Monthly visits down 44% (9,000 → 5,000)' }]);
    } finally {
      duck.close();
    }
  });

  it("has ingest refuse a run whose signals are not the ones run.json names, with the way out, and writes the folder anew once it is removed", async () => {
    const t = await setup();
    await publishPanel(t.input, t.out, { runs: t.runs });
    const index = await readRunsIndex(t.runs);
    const dir = (m: string) => runDir(t.runs, m, index.months[m]!);
    const check = async (m: string) => {
      const duck = await openDuck();
      try {
        return await checkRun(duck, { month: m, runId: index.months[m]!, dir: dir(m) });
      } finally {
        duck.close();
      }
    };
    // Another month's signals in place of the run's (refused without the way out before: publish then said "no changes").
    await copyFile(path.join(dir(MAR), 'signals.parquet'), path.join(dir(FEB), 'signals.parquet'));
    await expect(check(FEB)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(new RegExp(`^${escape(path.join(dir(FEB), 'signals.parquet'))}: its content does not match run.json \\(sha256 [0-9a-f]{12}…, run\\.json says [0-9a-f]{12}…\\); remove its folder \\(${escape(dir(FEB))}\\) and publish again, which writes the folder anew$`)),
    });
    // Publish keeps a run folder whose run.json is there ("no changes"), and writes a removed one anew.
    await publishPanel(t.input, t.out, { runs: t.runs });
    await expect(check(FEB)).rejects.toThrow('its content does not match run.json');
    await rm(dir(FEB), { recursive: true });
    await publishPanel(t.input, t.out, { runs: t.runs });
    expect((await check(FEB)).signals_count).toBe(14);
  });

  it('has ingest refuse a run folder that lost its run.json with the way out, which works (publish stopped on it in a system error before)', async () => {
    const t = await setup();
    await publishPanel(t.input, t.out, { runs: t.runs });
    const index = await readRunsIndex(t.runs);
    const dir = runDir(t.runs, FEB, index.months[FEB]!);
    const check = async () => {
      const duck = await openDuck();
      try {
        return await checkRun(duck, { month: FEB, runId: index.months[FEB]!, dir });
      } finally {
        duck.close();
      }
    };
    // A copy of the runs folder that stopped before run.json: the stores and signals are there.
    await rm(path.join(dir, 'run.json'));
    const wayOut = `remove its folder (${dir}) and publish again, which writes the folder anew`;
    await expect(check()).rejects.toMatchObject({ exitCode: 2, message: `${path.join(dir, 'run.json')}: missing (index.json names this run, but its folder is incomplete or gone); ${wayOut}` });
    // Publish finds the run to write, and the folder in its way: "ENOTEMPTY: directory not empty, rename …".
    await expect(publishPanel(t.input, t.out, { runs: t.runs })).rejects.toMatchObject({ exitCode: 2, message: `${dir}: a run folder without its run.json (incomplete: a copy that stopped?); ${wayOut}` });
    await rm(dir, { recursive: true });
    await publishPanel(t.input, t.out, { runs: t.runs });
    expect((await check()).signals_count).toBe(14);
  });

  it('takes over a complete run folder left by a publish that stopped before switching the index', async () => {
    const s = await setup();
    await publishPanel(s.input, s.out, { runs: s.runs });
    const index = await readRunsIndex(s.runs);
    await writeFile(path.join(s.runs, 'index.json'), JSON.stringify({ runs_version: 1, months: { [JAN]: index.months[JAN] } }));
    const again = await publishPanel(s.input, s.out, { runs: s.runs });
    expect(again.runs).toEqual([FEB, MAR]);
    expect(await readRunsIndex(s.runs)).toEqual(index);
  });
});

describe('a runs folder that overlaps the output folder', () => {
  it.each([
    ['inside the output folder', (out: string, _runs: string) => ({ out, runs: path.join(out, 'runs') })],
    ['holding the output folder', (_out: string, runs: string) => ({ out: path.join(runs, 'public'), runs })],
    ['equal to the output folder', (out: string) => ({ out, runs: out })],
  ])('is refused with exit 2 when %s, and nothing is written', async (_what, place) => {
    const s = await setup();
    const { out, runs } = place(s.out, s.runs);
    const r = await runCli(['publish', '--input', s.input, '--out', out, '--runs', runs, '--all', '--cards', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--runs ${runs} and --out ${out} overlap`);
    expect(await exists(out)).toBe(false);
    expect(await exists(runs)).toBe(false);
  });

  it('is refused through a symbolic link that leads into the output folder', async () => {
    const s = await setup();
    const { mkdir, symlink } = await import('node:fs/promises');
    await mkdir(s.out);
    await symlink(s.out, path.join(s.root, 'link'));
    const r = await runCli(['publish', '--input', s.input, '--out', s.out, '--runs', path.join(s.root, 'link', 'runs'), '--all', '--cards', 'none']);
    expect(r.code).toBe(2);
    expect(await readdir(s.out)).toEqual([]);
  });
});

describe('a runs folder shared by two output folders', () => {
  it('takes a second output folder of the same panel, which writes nothing into it', async () => {
    const s = await setup();
    await publishPanel(s.input, s.out, { runs: s.runs });
    const before = await snapshotTree(s.runs);
    const other = await publishPanel(s.input, path.join(s.root, 'staging'), { runs: s.runs });
    expect(other).toMatchObject({ changed: true, runs: [] });
    expect(await snapshotTree(s.runs)).toEqual(before);
  });

  it("is refused (exit 2, naming both) for another panel's output folder, before anything is written, where it would have mixed the two panels' runs", async () => {
    const s = await setup();
    await publishPanel(s.input, s.out, { runs: s.runs });
    const before = await snapshotTree(s.runs);
    // A trial panel, published into a trial output folder beside the same (default) runs folder.
    const trial = path.join(s.root, 'trial-panel');
    await writePanel(trial, { ...PANEL, [FEB]: PANEL[FEB].map((r) => (r.store_id === 'old-in-first-month' ? base('old-in-first-month', { monthly_visits: '9000' }) : r)) });
    const trialOut = path.join(s.root, 'trial-out');
    const r = await runCli(['publish', '--input', trial, '--out', trialOut, '--runs', s.runs, '--all', '--cards', 'none']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`--runs ${s.runs} holds the stores and signals of another publication`);
    expect(r.stderr).toContain(`not of --out ${trialOut} (nothing published there yet)`);
    expect(await snapshotTree(s.runs)).toEqual(before);
    expect(await exists(trialOut)).toBe(false);
    // The runs folder's own publication still corrects into it.
    await writePanel(s.input, { ...PANEL, [FEB]: PANEL[FEB].map((r) => (r.store_id === 'old-in-first-month' ? base('old-in-first-month', { monthly_visits: '9000' }) : r)) });
    expect((await publishPanel(s.input, s.out, { runs: s.runs, months: FEB })).runs).toEqual([FEB, MAR]);
  });
});

describe('publish --json', () => {
  it('names the months whose runs were written', async () => {
    const s = await setup();
    const r = await runCli(['publish', '--input', s.input, '--out', s.out, '--runs', s.runs, '--all', '--cards', 'none', '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ runs: [JAN, FEB, MAR] });
  });
});

describe('a month file with a header and no rows', () => {
  it('is refused, named, before any run is written', async () => {
    const root = await dirs.make();
    const empty = path.join(root, 'empty');
    await writePanel(empty, { [JAN]: PANEL[JAN], [MAR]: PANEL[MAR] });
    await writeFile(path.join(empty, `${FEB}.csv`), PANEL_COLUMNS.map((c) => c.name).join(',') + '\n');
    const runs = path.join(root, 'runs-empty');
    await expect(publishPanel(empty, path.join(root, 'out-empty'), { runs })).rejects.toThrow(`${FEB}.csv: month ${FEB} holds no stores`);
    expect(await exists(path.join(runs, JAN))).toBe(false);
  });
});
