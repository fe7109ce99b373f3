/**
 * runBulk, the one way many rows go in: on PostgreSQL a COPY from a thousand rows (its text
 * format, with a conflict clause through a temporary table), column arrays below; on SQLite
 * statements of many rows. Every value comes back as it went in, through either path, in the
 * caller's transaction (a rollback leaves nothing), and a failed COPY leaves the pool usable.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { copyValue } from '../../src/db/copy.js';
import { runBulk, type BulkInsert } from '../../src/db/prepared.js';
import { dialects, useFreshDb } from '../helpers/db.js';

const ALL_BYTES = Buffer.from(Array.from({ length: 256 }, (_, k) => k));
const TEXTS = ['plain', '', 'tab\there', 'line\nbreak', 'cr\r\nlf', 'back\\slash', '\\N', '\\x41', 'naïve café ✓ 𝄞', "quote ' and \" both", ' padded '];

/** Row k of a probe: text, number and bytes that exercise every escape. */
const probe = (k: number, tag: string): [string, string | null, number | null, number, Buffer | null] => [
  `${tag}-${String(k).padStart(5, '0')}`,
  k % 13 === 12 ? null : TEXTS[k % TEXTS.length] + k,
  k % 17 === 16 ? null : [0.1 + k, -1e-300 * k, 1.7976931348623157e308, 2 ** 53 - k, Math.PI * k][k % 5],
  k * 1_000_003 - 5_000_000,
  k % 11 === 10 ? null : k % 2 ? ALL_BYTES : Buffer.from(`row ${k}\t\n\\`),
];

const STATEMENT = (ws: string, conflict = false, copyFrom?: number): BulkInsert => ({
  table: 'bulk_probe',
  columns: [['id', 'text'], ['t', 'text'], ['n', 'float8'], ['i', 'bigint'], ['b', 'bytea']],
  same: [['ws', 'text', ws]],
  ...(conflict ? { conflict: 'on conflict (id) do nothing' } : {}),
  ...(copyFrom !== undefined ? { copyFrom } : {}),
});

describe.each(dialects)('runBulk on $label', ({ name, skip }) => {
  const db = useFreshDb(name);
  const postgres = name === 'PostgreSQL';

  const setUp = async () => {
    await sql.raw('drop table if exists bulk_probe').execute(db().kysely);
    await sql
      .raw(`create table bulk_probe (id text primary key, t text, n ${postgres ? 'float8' : 'real'}, i ${postgres ? 'bigint' : 'integer'}, b ${postgres ? 'bytea' : 'blob'}, ws text not null)`)
      .execute(db().kysely);
  };
  const read = async (tag: string) =>
    (await sql<{ id: string; t: string | null; n: number | null; i: number; b: Buffer | null; ws: string }>`select id, t, n, i, b, ws from bulk_probe where id like ${tag + '-%'} order by id`.execute(db().kysely)).rows.map((r) => [
      r.id,
      r.t,
      r.n,
      Number(r.i),
      r.b === null ? null : Buffer.from(r.b),
      r.ws,
    ]);

  it.skipIf(skip)('writes every value as it was, through COPY (1,500 rows, or 7 of a table that asks for it from 1) and through statements (7 rows)', async () => {
    await setUp();
    for (const [tag, n, copyFrom] of [['many', 1_500, undefined], ['few', 7, undefined], ['wide', 7, 1]] as const) {
      const rows = Array.from({ length: n }, (_, k) => probe(k, tag));
      await db().write((trx) => runBulk(trx, STATEMENT('ws_a', false, copyFrom), rows));
      expect(await read(tag)).toEqual(rows.map((r) => [...r, 'ws_a']));
    }
  });

  it.skipIf(skip)('keeps the rows already there under a conflict clause, in a transaction and outside one, twice on one connection', async () => {
    await setUp();
    const first = Array.from({ length: 1_200 }, (_, k) => probe(k * 2, 'c'));
    await db().write((trx) => runBulk(trx, STATEMENT('ws_first', true), first));
    // Half of these ids are taken: those rows keep ws_first.
    const second = Array.from({ length: 1_200 }, (_, k) => probe(k, 'c'));
    await db().write(async (trx) => {
      await runBulk(trx, STATEMENT('ws_second', true), second.slice(0, 600));
      await runBulk(trx, STATEMENT('ws_second', true), second.slice(600));
    });
    const third = Array.from({ length: 1_100 }, (_, k) => probe(3_000 + k, 'c'));
    await runBulk(db().kysely, STATEMENT('ws_third', true), third);
    const got = await read('c');
    const byId = new Map(got.map((r) => [r[0] as string, r[5]]));
    expect(got).toHaveLength(1_200 + 600 + 1_100);
    for (const r of first) expect(byId.get(r[0])).toBe('ws_first');
    for (const r of second) if (!first.some((f) => f[0] === r[0])) expect(byId.get(r[0])).toBe('ws_second');
    for (const r of third) expect(byId.get(r[0])).toBe('ws_third');
  });

  it.skipIf(skip)('writes nothing when the transaction rolls back', async () => {
    await setUp();
    const rows = Array.from({ length: 1_500 }, (_, k) => probe(k, 'gone'));
    await expect(
      db().write(async (trx) => {
        await runBulk(trx, STATEMENT('ws_a'), rows);
        await runBulk(trx, STATEMENT('ws_a', true), rows.slice(0, 1_000));
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await read('gone')).toEqual([]);
  });

  it.skipIf(skip)('fails a COPY that breaks a constraint, and the database answers the next statement', async () => {
    await setUp();
    const rows = Array.from({ length: 1_500 }, (_, k) => probe(k % 1_000, 'dup'));
    await expect(db().write((trx) => runBulk(trx, STATEMENT('ws_a'), rows))).rejects.toThrow(/unique|UNIQUE/);
    expect(await read('dup')).toEqual([]);
    const ok = Array.from({ length: 1_000 }, (_, k) => probe(k, 'dup'));
    await db().write((trx) => runBulk(trx, STATEMENT('ws_a'), ok));
    expect(await read('dup')).toHaveLength(1_000);
  });
});

describe("COPY's text form of a value", () => {
  it('escapes what COPY reads as syntax, spells the special numbers, and writes bytes as hex', () => {
    expect(copyValue(null)).toBe('\\N');
    expect(copyValue('a\tb\nc\rd\\e')).toBe('a\\tb\\nc\\rd\\\\e');
    expect(copyValue('\\N')).toBe('\\\\N');
    expect([NaN, Infinity, -Infinity, 0.1, -0].map(copyValue)).toEqual(['NaN', 'Infinity', '-Infinity', '0.1', '0']);
    expect(copyValue(Buffer.from([0, 255]))).toBe('\\\\x00ff');
    expect(() => copyValue({})).toThrow(/no text form/);
  });
});
