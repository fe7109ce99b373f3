import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { contactsData, writeContactsRun } from '../../src/contacts/source.js';
import { adminCli } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { runBin } from '../helpers/published.js';
import { writeRuns } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-ingest-cli-');
afterAll(() => dirs.removeAll());

/** The built binary (`npm run build` first) on a SQLite file, whatever DATABASE_URL the tests run with. */
const bin = (args: string[]) => runBin(args, { databaseUrl: null });

describe('storelens ingest', () => {
  it('prints exactly {months, stores, signals, contacts} with --json, the same keys when nothing is new', async () => {
    const dir = await dirs.make();
    const runs = path.join(dir, 'runs');
    const db = path.join(dir, 'api.db');
    await writeRuns(runs, {
      '2026-01': { stores: [{ store_id: 'a' }, { store_id: 'b' }] },
      '2026-02': { stores: [{ store_id: 'a' }], signals: [{ store_id: 'b', type: 'store_closed', strength: 1, detail: 'Store closed' }] },
    });
    expect((await bin(['workspaces', 'create', 'acme', '--db', db])).code).toBe(0); // ingest loads into an existing database
    const first = await bin(['ingest', '--runs', runs, '--db', db, '--json']);
    expect(first.code).toBe(0);
    expect(first.stdout).toBe(`${JSON.stringify({ months: ['2026-01', '2026-02'], stores: 3, signals: 1, contacts: 0 })}\n`);
    const again = await bin(['ingest', '--runs', runs, '--db', db, '--json']);
    expect(again.stdout).toBe(`${JSON.stringify({ months: [], stores: 0, signals: 0, contacts: 0 })}\n`);
    const text = await bin(['ingest', '--runs', runs, '--db', db]);
    expect(text.code).toBe(0);
    expect(text.stdout).toBe(`SQLite ${db} is up to date with ${runs}\n`);
  });

  it('exits 2 naming the folder when the runs folder is missing, and writes nothing on stdout', async () => {
    const dir = await dirs.make();
    const r = await bin(['ingest', '--runs', path.join(dir, 'nope'), '--db', path.join(dir, 'api.db'), '--json']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`storelens: ${path.join(dir, 'nope')}: no runs folder`);
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`storelens ingest of a contact source on ${d.label}`, () => {
    let t: TestDb;
    const run = adminCli(() => t);
    afterAll(async () => t?.cleanup());

    it('warns of the contacts whose store no ingested month holds (a source keyed by domain), and loads them as they are', async () => {
      // Loaded without a word: discovery then never suggested them, and nothing said why.
      t = await freshDb(d.name);
      const dir = await dirs.make();
      const runs = path.join(dir, 'runs');
      await writeRuns(runs, { '2026-01': { stores: [{ store_id: 'st-1' }, { store_id: 'st-2' }] } });
      const data = contactsData([
        { store_id: 'st-1', email: 'a@x.example', name: null, role: null, source: null },
        { store_id: 'shop-two.example', email: 'b@x.example', name: null, role: null, source: null },
        { store_id: 'shop-one.example', email: 'c@x.example', name: null, role: null, source: null },
      ]);
      await writeContactsRun(runs, data);
      const index = path.join(runs, 'index.json');
      await writeFile(index, JSON.stringify({ ...JSON.parse(await readFile(index, 'utf8')), contacts: data.id }));
      const r = await run('ingest', '--runs', runs, '--json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ contacts: 3 });
      expect(r.stderr).toContain('warning: 2 of the 3 contacts of the contact source name a store no ingested month holds (the first by store_id: "shop-one.example")');
      const again = await run('ingest', '--runs', runs);
      expect(again.stderr).not.toContain('warning'); // said when the source is loaded, not on every ingest
    });
  });
}
