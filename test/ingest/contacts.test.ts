/**
 * The contact source end to end: generate writes contacts.csv beside the panel, publish carries
 * it into the private runs folder (never the public output), ingest loads it into
 * store_contacts; a changed source replaces the load whole, the same one changes nothing, a
 * removed one empties it, and a bad one stops publish naming file, row and column.
 */
import { readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readContactsFile } from '../../src/contacts/source.js';
import type { StoreContact } from '../../src/contacts/store.js';
import { ingestRuns } from '../../src/ingest/ingest.js';
import { openDuck, lit } from '../../src/panel/duck.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { FIXED_NOW, generate, publishPanel } from '../helpers/cli.js';
import { copyTree, tempDirs } from '../helpers/tmp.js';

const dirs = tempDirs('storelens-contacts-');
afterAll(() => dirs.removeAll());

const sorted = (rows: readonly StoreContact[]) => [...rows].sort((a, b) => (a.store_id + '\0' + a.email < b.store_id + '\0' + b.email ? -1 : 1));
const index = async (runs: string) => JSON.parse(await readFile(path.join(runs, 'index.json'), 'utf8')) as { months: Record<string, string>; contacts?: string };

/**
 * A second, small publication (200 stores, contacts included) for the tests that break a panel or
 * a runs folder of their own: generated and published once for the file, each test working on its
 * own copy (links and mtimes kept), in a new folder holding panel/, out/ and runs/.
 */
let small: Promise<string> | undefined;
async function smallPublication(): Promise<string> {
  small ??= (async () => {
    const dir = await dirs.make();
    await generate(path.join(dir, 'panel'), { stores: 200, from: '2026-01', to: '2026-02', seed: 'small' });
    await publishPanel(path.join(dir, 'panel'), path.join(dir, 'out'), { runs: path.join(dir, 'runs') });
    return dir;
  })();
  const copy = await dirs.make();
  await copyTree(`${await small}/.`, copy);
  return copy;
}

/**
 * The generated panel (400 stores, contacts included), generated once for the file: each dialect's
 * suite changes its panel, so each works on its own copy (links and mtimes kept).
 */
let generatedPanel: Promise<string> | undefined;
async function panelCopy(to: string): Promise<void> {
  generatedPanel ??= (async () => {
    const panel = path.join(await dirs.make(), 'panel');
    await generate(panel, { stores: 400, from: '2026-01', to: '2026-02', seed: 'contacts' });
    return panel;
  })();
  await copyTree(await generatedPanel, to);
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  for (const name of await readdir(dir)) {
    const p = path.join(dir, name);
    // stat, not the entry: a publication is switched in through a symlink.
    if ((await stat(p)).isDirectory()) out.push(...(await filesUnder(p)));
    else out.push(p);
  }
  return out;
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the contact source through generate, publish and ingest on ${d.label}`, () => {
    let t: TestDb;
    let panel: string;
    let out: string;
    let runs: string;
    let generated: StoreContact[];
    const opts = { now: () => FIXED_NOW };
    const loaded = async () => sorted(await t.db.kysely.selectFrom('store_contacts').selectAll().execute());

    beforeAll(async () => {
      const dir = await dirs.make();
      panel = path.join(dir, 'panel');
      out = path.join(dir, 'out');
      runs = path.join(dir, 'runs');
      await panelCopy(panel);
      generated = await readContactsFile(path.join(panel, 'contacts.csv'));
      t = await freshDb(d.name);
    });
    afterAll(async () => t?.cleanup());

    it('carries the generated contacts into the runs folder and ingest loads exactly them', async () => {
      await publishPanel(panel, out, { runs });
      const idx = await index(runs);
      expect(idx.contacts).toMatch(/^[0-9a-f]{64}$/);
      expect(await stat(path.join(runs, 'contacts', idx.contacts!, 'contacts.ndjson')).then((s) => s.isFile())).toBe(true);
      const s = await ingestRuns(t.db, runs, opts);
      expect(s.months).toEqual(['2026-01', '2026-02']);
      expect(s.contacts).toBe(generated.length);
      expect(await loaded()).toEqual(sorted(generated));
      expect(generated.length).toBeGreaterThan(20);
    });

    it('never writes a contact into the public output', async () => {
      const files = await filesUnder(out);
      expect(files.filter((f) => /contact/i.test(path.relative(out, f)))).toEqual([]);
      const sample = generated.slice(0, 40).map((c) => c.email);
      // Every (email, file) where the email is found: none (one assertion over them all, rather
      // than one per pair: some thousands of expect() calls were most of this case's CPU).
      const found: string[] = [];
      for (const f of files) {
        const text = await readFile(f, 'latin1');
        for (const email of sample) if (text.includes(email)) found.push(`${email} in ${f}`);
      }
      expect(found).toEqual([]);
      expect(files.length * sample.length).toBeGreaterThan(0);
    });

    it('changes nothing when the same source is published and ingested again, in any format', async () => {
      const before = await index(runs);
      const file = path.join(runs, 'contacts', before.contacts!, 'contacts.ndjson');
      const mtime = (await stat(file)).mtimeMs;
      // The same contacts as Parquet, in another order: the same content id.
      const duck = await openDuck();
      try {
        await duck.run(`COPY (SELECT * FROM read_csv(${lit(path.join(panel, 'contacts.csv'))}, all_varchar = true) ORDER BY email DESC) TO ${lit(path.join(panel, 'contacts.parquet'))} (FORMAT parquet)`);
      } finally {
        duck.close();
      }
      await rm(path.join(panel, 'contacts.csv'));
      await publishPanel(panel, out, { runs });
      expect(await index(runs)).toEqual(before);
      expect((await stat(file)).mtimeMs).toBe(mtime);
      const s = await ingestRuns(t.db, runs, opts);
      expect(s).toEqual({ months: [], stores: 0, signals: 0 });
      expect(await loaded()).toEqual(sorted(generated));
    });

    it('replaces the whole load with a changed source, and removes the superseded one from the runs folder', async () => {
      const old = (await index(runs)).contacts!;
      await rm(path.join(panel, 'contacts.parquet'));
      const next: StoreContact[] = [
        { store_id: generated[0]!.store_id, email: 'new.person@Fresh.Example', name: 'New Person', role: 'CEO', source: 'company site' },
        { store_id: generated[1]!.store_id, email: 'x@y.example', name: '=cmd|"/c calc"!A1', role: null, source: null },
      ];
      await writeFile(
        path.join(panel, 'contacts.ndjson'),
        next.map((c) => JSON.stringify(c)).join('\n') + '\n',
      );
      await publishPanel(panel, out, { runs });
      const idx = await index(runs);
      expect(idx.contacts).not.toBe(old);
      expect(await readdir(path.join(runs, 'contacts'))).toEqual([idx.contacts]);
      expect((await ingestRuns(t.db, runs, opts)).contacts).toBe(2);
      expect(await loaded()).toEqual(sorted([{ ...next[0]!, email: 'new.person@fresh.example' }, next[1]!]));
    });

    it('stops publish naming the file, row and column of a bad contact, and leaves the runs folder as it was', async () => {
      const before = await index(runs);
      const file = path.join(panel, 'contacts.ndjson');
      await writeFile(file, ['{"store_id":"a","email":"a@b.example"}', '', '{"store_id":"b","email":"not-an-email"}'].join('\n') + '\n');
      await expect(publishPanel(panel, out, { runs })).rejects.toThrow(`${file}: row 2, column email: expected an email address, got "not-an-email"`);
      await writeFile(file, '{"store_id":"a","email":"a@B.example"}\n{"store_id":"a","email":"a@b.EXAMPLE"}\n');
      await expect(publishPanel(panel, out, { runs })).rejects.toThrow(`${file}: row 2, column email: "a@b.example" is listed twice for store "a" (first at row 1)`);
      await writeFile(file, '{"store_id":"","email":"a@b.example"}\n');
      await expect(publishPanel(panel, out, { runs })).rejects.toThrow(`${file}: row 1, column store_id: must not be empty or only spaces`);
      const csv = path.join(panel, 'contacts.csv');
      await rm(file);
      await writeFile(csv, 'store_id,name\na,Ann\n');
      await expect(publishPanel(panel, out, { runs })).rejects.toThrow(`${csv}: row 1, column email: the required column email is missing`);
      await rm(csv);
      expect(await index(runs)).toEqual(before);
    });

    it('stops a publish that writes runs at a bad contact before any run is written, and says so before a bad month file', async () => {
      // The small publication's panel, into a runs folder and an output folder that do not exist yet.
      const dir = await smallPublication();
      const fresh = path.join(dir, 'panel');
      const freshRuns = path.join(dir, 'runs-new');
      const file = path.join(fresh, 'contacts.csv');
      await writeFile(file, 'store_id,email\na,a@b.example\nb,not-an-email\n');
      const bad = `${file}: row 3, column email: expected an email address, got "not-an-email"`;
      await expect(publishPanel(fresh, path.join(dir, 'out-new'), { runs: freshRuns })).rejects.toThrow(bad);
      expect(await readdir(freshRuns).catch(() => [])).not.toContain('2026-01');
      // A store listed twice in a month file: the month's check (as the panel is read) would refuse it too.
      const month = path.join(fresh, '2026-02.csv');
      const rows = (await readFile(month, 'utf8')).trimEnd().split('\n');
      await writeFile(month, [...rows, rows[1]].join('\n') + '\n');
      await expect(publishPanel(fresh, path.join(dir, 'out-new'), { runs: freshRuns })).rejects.toThrow(bad);
      await writeFile(file, 'store_id,email\na,a@b.example\n');
      await expect(publishPanel(fresh, path.join(dir, 'out-new'), { runs: freshRuns })).rejects.toThrow(`${month}: row`);
    });

    it('loads nothing, the contact source included, when a run of the same publication is refused', async () => {
      // The contacts were loaded first, then a month was refused: exit 2 with the contacts of a
      // publication whose months the database did not take.
      const dir = await smallPublication();
      const fresh = path.join(dir, 'runs');
      const idx = await index(fresh);
      expect(idx.contacts).toMatch(/^[0-9a-f]{64}$/);
      const stores = path.join(fresh, '2026-02', idx.months['2026-02']!, 'stores.csv');
      await writeFile(stores, (await readFile(stores, 'utf8')).replace(/\n[^\n]*\n$/, '\n'));
      const other = await freshDb(d.name);
      try {
        await expect(ingestRuns(other.db, fresh, opts)).rejects.toThrow('stores.csv: its content does not match run.json');
        expect(await other.db.kysely.selectFrom('store_contacts').select('store_id').execute()).toEqual([]);
        expect(await other.db.kysely.selectFrom('store_months').select('store_id').execute()).toEqual([]);
      } finally {
        await other.cleanup();
      }
    });

    it('refuses a contact source whose file was changed or is gone with the way out, which works: publish writes its folder anew once removed', async () => {
      const dir = await smallPublication();
      const fresh = path.join(dir, 'runs');
      const id = (await index(fresh)).contacts!;
      const folder = path.join(fresh, 'contacts', id);
      const file = path.join(folder, 'contacts.ndjson');
      await writeFile(file, (await readFile(file, 'utf8')).replace(/\n[^\n]*\n$/, '\n'));
      // Publish keeps the folder it finds ("no changes"): "publish again to rewrite it" was no way out.
      await publishPanel(path.join(dir, 'panel'), path.join(dir, 'out'), { runs: fresh });
      const other = await freshDb(d.name);
      try {
        await expect(ingestRuns(other.db, fresh, opts)).rejects.toThrow(`${file}: its content does not match its id (sha256 `);
        await expect(ingestRuns(other.db, fresh, opts)).rejects.toThrow(`…); remove its folder (${folder}) and publish again, which writes the folder anew`);
        await rm(folder, { recursive: true });
        await publishPanel(path.join(dir, 'panel'), path.join(dir, 'out'), { runs: fresh });
        expect((await ingestRuns(other.db, fresh, opts)).contacts).toBeGreaterThan(0);
      } finally {
        await other.cleanup();
      }
      // Its file gone, the folder left: the same way out.
      await rm(file);
      const third = await freshDb(d.name);
      try {
        await expect(ingestRuns(third.db, fresh, opts)).rejects.toThrow(`${file}: missing (index.json names this contact source, but its folder is incomplete or gone); remove its folder (${folder}) and publish again, which writes the folder anew`);
        await rm(folder, { recursive: true });
        await publishPanel(path.join(dir, 'panel'), path.join(dir, 'out'), { runs: fresh });
        expect((await ingestRuns(third.db, fresh, opts)).contacts).toBeGreaterThan(0);
      } finally {
        await third.cleanup();
      }
    });

    it('empties store_contacts once the panel has no contacts file', async () => {
      await publishPanel(panel, out, { runs });
      expect((await index(runs)).contacts).toBeUndefined();
      expect(await readdir(path.join(runs, 'contacts'))).toEqual([]);
      expect((await ingestRuns(t.db, runs, opts)).contacts).toBe(0);
      expect(await loaded()).toEqual([]);
      expect((await ingestRuns(t.db, runs, opts)).contacts).toBeUndefined();
    });
  });
}
