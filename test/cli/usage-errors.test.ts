/**
 * What an operator who mistyped is told: the flag they got wrong, by name, before anything runs
 * (exit 2), whatever else is also missing; and a folder flag naming a file, or a folder that
 * cannot be written, named with the flag or the folder rather than the system's EEXIST, ENOTDIR
 * or a DuckDB IO error.
 */
import { writeFileSync } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { capturedEnv, runCli } from '../helpers/cli.js';
import { readOnlyMount, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs();
afterEach(() => dirs.removeAll());

describe('a mistyped flag', () => {
  it.each([
    ['publish --inptu panel', "unknown option '--inptu'", '(Did you mean --input?)'],
    ['generate --stors 5 --from 2025-01 --to 2025-02', "unknown option '--stors'", '(Did you mean --stores?)'],
    ['keys revoke k1 --workspace acme --ass ana@acme.example', "unknown option '--ass'", '(Did you mean --as?)'],
  ])('is named, with the flag meant, even when a required option is missing too: %s', async (line, unknown, hint) => {
    const r = await runCli(line.split(' '));
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(unknown);
    expect(r.stderr).toContain(hint);
    expect(r.stderr).not.toContain('not specified');
  });

  it('still leaves a required option left out refused by name', async () => {
    const r = await runCli(['generate', '--out', 'x', '--from', '2025-01']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe("storelens: required option '--to <YYYY-MM>' not specified\n(see: storelens generate --help)\n");
  });

  it('is refused as storelens refuses the same value from its variable, with where to read more', async () => {
    const fromFlag = await runCli(['serve', '--log-level', 'loud']);
    const fromVar = capturedEnv(undefined, { STORELENS_LOG_LEVEL: 'loud' });
    expect(await main(['node', 'storelens', 'serve'], fromVar.env)).toBe(2);
    expect(fromFlag.code).toBe(2);
    expect(fromFlag.stderr).toBe(`storelens: option '--log-level <level>' argument 'loud' is invalid. Allowed choices are fatal, error, warn, info, debug, trace, silent.\n(see: storelens serve --help)\n`);
    expect(fromVar.stderr()).toMatch(/^storelens: STORELENS_LOG_LEVEL: "loud" is not one of/);
  });
});

describe('a folder flag naming a file', () => {
  it.each([
    ['generate --out', (f: string) => ['generate', '--out', f, '--from', '2025-01', '--to', '2025-02', '--stores', '50'], '--out'],
    ['publish --out', (f: string, d: string) => ['publish', '--input', d, '--all', '--out', f, '--runs', path.join(d, 'runs')], '--out'],
    ['publish --runs', (f: string, d: string) => ['publish', '--input', d, '--all', '--out', path.join(d, 'out'), '--runs', f], '--runs'],
    ['serve --out', (f: string) => ['serve', '--out', f, '--port', '0'], '--out'],
    ['ingest --runs', (f: string, d: string) => ['ingest', '--runs', f, '--db', path.join(d, 'x.db')], '--runs'],
  ])('is bad usage naming the flag, before anything runs: %s', async (_, args, flag) => {
    const dir = await dirs.make();
    const file = path.join(dir, 'a-file');
    writeFileSync(file, 'not a folder\n');
    const r = await runCli(args(file, dir));
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`storelens: ${flag} ${file}: is a file, not a folder\n`);
    expect((await readdir(dir)).sort()).toEqual(['a-file']);
  });

  it('is refused when a file stands where a folder of the path should be', async () => {
    const dir = await dirs.make();
    writeFileSync(path.join(dir, 'a-file'), '');
    const out = path.join(dir, 'a-file', 'panel');
    const r = await runCli(['generate', '--out', out, '--from', '2025-01', '--to', '2025-02', '--stores', '50']);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`storelens: --out ${out}: is not a folder: a file is in its path\n`);
  });

  it('is refused from a variable, and as a default, naming where the value came from', async () => {
    const dir = await dirs.make();
    const file = path.join(dir, 'a-file');
    writeFileSync(file, '');
    const fromVar = capturedEnv(undefined, { BENCH_DATA: file });
    expect(await main(['node', 'storelens', 'bench'], fromVar.env)).toBe(2);
    expect(fromVar.stderr()).toBe(`storelens: BENCH_DATA=${file}: is a file, not a folder\n`);
    // serve's default --out is `output`, read from the working folder.
    const cwd = process.cwd();
    writeFileSync(path.join(dir, 'output'), '');
    process.chdir(dir);
    try {
      const r = await runCli(['serve', '--port', '0']);
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('storelens: --out output (the default): is a file, not a folder\n');
    } finally {
      process.chdir(cwd);
    }
  });
});

describe('generate into a folder that cannot be written', () => {
  const { dir: ro, mounted } = readOnlyMount();

  it.skipIf(!mounted).each([
    ['an existing --out', ro],
    ['a new --out', path.join(ro, 'panel')],
  ])('names the folder and why, exit 1: %s', async (_, out) => {
    const r = await runCli(['generate', '--out', out, '--from', '2025-01', '--to', '2025-02', '--stores', '50']);
    expect(r.code).toBe(1);
    expect(r.stderr).toBe(`storelens: ${out}: cannot write in this panel folder: it is on a read-only file system (EROFS); nothing was written\n`);
  });
});
