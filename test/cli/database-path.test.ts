/**
 * A mistyped `--db` is refused, not quietly made into a new empty database: the commands that
 * work on an existing database exit 2 naming the path and how a database is created; the ones
 * that start an installation (`workspaces create`, `api`) still create the file, but not its
 * folder. DATABASE_URL (PostgreSQL) ignores `--db` as before. The built CLI (`npm run build`).
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spawnStorelens } from '../helpers/api-processes.js';
import { freshDb, pgUrl } from '../helpers/db.js';
import { runBin } from '../helpers/published.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-db-path-');
afterAll(() => dirs.removeAll());

/** `storelens …args` as a child process; on SQLite unless `databaseUrl` is given. */
const bin = (args: string[], databaseUrl?: string) => runBin(args, { databaseUrl: databaseUrl ?? null });

describe('--db naming no database', () => {
  it('is refused by a command on an existing database (exit 2 naming the path and how to create one, no file created) until workspaces create makes it', async () => {
    const dir = await dirs.make();
    const typo = path.join(dir, 'typo.db');
    for (const args of [
      ['keys', 'list', '--workspace', 'acme'],
      ['members', 'list', 'acme'],
      ['workspaces', 'pilot', 'on', '--workspace', 'acme'],
      ['oauth', 'register', 'my-assistant', '--redirect-uri', 'https://assistant.example/cb'],
    ]) {
      const r = await bin([...args, '--db', typo, '--json']);
      expect(r.code, `${args.join(' ')}: ${r.stderr}`).toBe(2);
      expect(r.stdout).toBe('');
      expect(r.stderr).toContain(`storelens: --db ${typo}: no database there`);
      expect(r.stderr).toContain('storelens workspaces create NAME');
      expect(r.stderr).not.toContain('no workspace');
      expect(existsSync(typo), args.join(' ')).toBe(false);
    }
    // The first command of an installation creates it; the others then find it.
    const created = await bin(['workspaces', 'create', 'acme', '--db', typo, '--json']);
    expect(created.code, created.stderr).toBe(0);
    expect(JSON.parse(created.stdout)).toMatchObject({ name: 'acme' });
    const listed = await bin(['keys', 'list', '--workspace', 'acme', '--db', typo]);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).toBe('No keys in acme.\n');
    // Under DATABASE_URL, --db is ignored as before: the same command line works on PostgreSQL.
    if (pgUrl) {
      const t = await freshDb('PostgreSQL');
      try {
        const elsewhere = path.join(dir, 'elsewhere.db');
        expect((await bin(['workspaces', 'create', 'acme', '--db', elsewhere], t.databaseUrl)).code).toBe(0);
        const onPg = await bin(['keys', 'list', '--workspace', 'acme', '--db', elsewhere], t.databaseUrl);
        expect(onPg.code, onPg.stderr).toBe(0);
        expect(onPg.stdout).toBe('No keys in acme.\n');
        expect(existsSync(elsewhere)).toBe(false);
      } finally {
        await t.cleanup();
      }
    }
  });

  it('is refused with exit 2 naming the path when its folder does not exist, also by the commands that create the file', async () => {
    const dir = await dirs.make();
    const nowhere = path.join(dir, 'no', 'such', 'folder', 'x.db');
    const serving = ['--port', '0', '--host', '127.0.0.1', '--runs', path.join(dir, 'runs'), '--out', path.join(dir, 'out')];
    const refused = await bin(['keys', 'list', '--workspace', 'acme', '--db', nowhere]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`storelens: --db ${nowhere}: no database there`);
    for (const args of [['workspaces', 'create', 'acme'], ['api', ...serving]]) {
      const r = await bin([...args, '--db', nowhere]);
      expect(r.code, `${args[0]}: ${r.stderr}`).toBe(2);
      expect(r.stderr).toContain(`--db ${nowhere}: the folder ${path.dirname(nowhere)} does not exist`);
      expect(r.stderr).not.toContain('Cannot open database');
    }
    expect(existsSync(path.join(dir, 'no'))).toBe(false);
    // In a folder that exists, api (a serving process, maybe the first of an installation) creates it.
    const served = path.join(dir, 'served.db');
    const api = spawnStorelens({ dbPath: served }, ['api', ...serving]);
    try {
      await api.waitFor(/storelens api: http:\/\/\S+\/api\/v1/);
    } finally {
      await api.stop();
    }
    expect(existsSync(served)).toBe(true);
  });

  it('is refused with exit 2 when it names a folder', async () => {
    const dir = await dirs.make();
    const r = await bin(['workspaces', 'create', 'acme', '--db', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toBe(`storelens: --db ${dir}: is a folder, not a SQLite database file\n`);
  });

  it('ingest checks --runs before the database: a missing runs folder is named, and no database is created', async () => {
    const dir = await dirs.make();
    const db = path.join(dir, 'typo.db');
    const runs = path.join(dir, 'no-runs');
    const r = await bin(['ingest', '--runs', runs, '--db', db, '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toBe(`storelens: ${runs}: no runs folder (publish writes it; give another with --runs DIR)\n`);
    expect(existsSync(db)).toBe(false);
  });
});
