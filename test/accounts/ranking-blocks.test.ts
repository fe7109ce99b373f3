/**
 * A ranking version's rows are kept in blocks of BLOCK_ROWS positions, each column packed
 * (accounts/blocks.ts). What a block is decoded to is what was encoded, and SQL reads each value
 * of a block exactly as written (db/binary.ts: f64_at, i32_at, u8_at), on either database: the
 * row an outcome keeps and the account's row are read that way.
 */
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { BLOCK_ROWS, decodeBlock, encodeBlock } from '../../src/accounts/blocks.js';
import { migration as packedReadersPlpgsql } from '../../src/accounts/migrations/0031-packed-readers-plpgsql.js';
import { insertOutcome } from '../../src/accounts/outcomes-store.js';
import { getAccount, importAccounts } from '../../src/accounts/store.js';
import { workspace } from '../helpers/api.js';
import { dialects, useFreshDb } from '../helpers/db.js';

/** Doubles of every kind a block may hold: scores, logits either side of 0, tiny and huge ones, subnormals, NaN (an unknown sd). */
function doubles(n: number, seed: number): Float64Array {
  const out = new Float64Array(n);
  const words = new Uint32Array(out.buffer);
  let s = seed >>> 0;
  const next = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0), s);
  for (let j = 0; j < n; j++) {
    if (j % 4 === 0) out[j] = next() / 2 ** 32;
    else if (j % 4 === 1) out[j] = (next() / 2 ** 32 - 0.5) * 40;
    else {
      words[2 * j] = next();
      words[2 * j + 1] = next();
    }
  }
  out.set([0, 1, -1, Number.MIN_VALUE, -Number.MIN_VALUE, 2.2250738585072014e-308, Number.MAX_VALUE, -Number.MAX_VALUE, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY]);
  return out;
}

const block = (n: number, seed: number) => {
  const f = doubles(3 * n, seed);
  const ids = Array.from({ length: n }, (_, j) => (j % 7 === 0 ? `é-"store"\\${j}` : `s${j}`));
  const mv = Int32Array.from({ length: n }, (_, j) => (j % 3 === 0 ? -j : j * 65_537));
  return {
    ids,
    f,
    mv,
    rows: {
      storeIds: ids,
      score: f.slice(0, n),
      logit: f.slice(n, 2 * n),
      logitSd: f.slice(2 * n),
      modelVersion: mv,
      flags: Uint8Array.from({ length: n }, (_, j) => j % 4),
    },
  };
};

describe('a ranking block', () => {
  it('decodes to what was encoded, bit for bit', () => {
    const b = block(1024, 7);
    const d = decodeBlock(encodeBlock(b.rows));
    expect(d.storeIds).toEqual(b.ids);
    expect([...d.score]).toEqual([...b.f.subarray(0, 1024)]);
    expect([...d.logit]).toEqual([...b.f.subarray(1024, 2048)]);
    expect([...d.logitSd]).toEqual([...b.f.subarray(2048)]);
    expect([...d.modelVersion]).toEqual([...b.mv]);
    expect([...d.flags]).toEqual(Array.from({ length: 1024 }, (_, j) => j % 4));
  });
});

for (const d of dialects) {
  describe.skipIf(d.skip)(`a ranking block read in SQL on ${d.label}`, () => {
    const db = useFreshDb(d.name);

    it('gives each value exactly as written (null for NaN)', async () => {
      const ws = await workspace(db());
      const n = 500;
      const b = block(n, 11);
      await db().write((trx) => trx.insertInto('ranking_blocks').values({ workspace_id: ws.id, version: 99, block: 0, ...encodeBlock(b.rows) }).execute());
      const rows = await sql<{ j: number; score: number | null; logit: number | null; sd: number | null; mv: number; flags: number }>`
        with recursive js(j) as (select 0 union all select j + 1 from js where j < ${n - 1})
        select js.j, f64_at(k.scores, js.j) as score, f64_at(k.logits, js.j) as logit, f64_at(k.logit_sds, js.j) as sd,
          i32_at(k.model_versions, js.j) as mv, u8_at(k.flags, js.j) as flags
        from js join ranking_blocks k on k.workspace_id = ${ws.id} and k.version = 99 and k.block = 0 order by js.j`.execute(db().kysely);
      const value = (x: number | null) => (x === null ? null : Number(x));
      const expected = (x: number) => (Number.isNaN(x) ? null : x);
      expect(rows.rows.map((r) => [value(r.score), value(r.logit), value(r.sd)])).toEqual(Array.from({ length: n }, (_, j) => [expected(b.f[j]), expected(b.f[n + j]), expected(b.f[2 * n + j])]));
      expect(rows.rows.map((r) => [Number(r.mv), Number(r.flags)])).toEqual(Array.from({ length: n }, (_, j) => [b.mv[j], j % 4]));
    });

    it.skipIf(d.name !== 'PostgreSQL')('has PostgreSQL plan the readers once per connection (PL/pgSQL, or inlined), not again at every statement; 0031 makes them so on a database migrated before it', async () => {
      const languages = async () =>
        (await sql<{ proname: string; lang: string }>`select p.proname, l.lanname as lang from pg_proc p join pg_language l on l.oid = p.prolang
          where p.proname in ('f64_at', 'i32_at', 'u8_at') and p.pronamespace = current_schema()::regnamespace order by p.proname`.execute(db().kysely)).rows;
      const planned = [{ proname: 'f64_at', lang: 'plpgsql' }, { proname: 'i32_at', lang: 'plpgsql' }, { proname: 'u8_at', lang: 'sql' }];
      expect(await languages()).toEqual(planned);
      // As 0029 made them: SQL bodies with a FROM clause, which PostgreSQL neither inlines nor keeps planned.
      await sql`create or replace function f64_at(b bytea, j integer) returns double precision language sql immutable strict parallel safe as 'select x from (select 0::double precision as x) y'`.execute(db().kysely);
      await sql`create or replace function i32_at(b bytea, j integer) returns integer language sql immutable strict parallel safe as 'select x from (select 0 as x) y'`.execute(db().kysely);
      await packedReadersPlpgsql.up(db().kysely);
      expect(await languages()).toEqual(planned);
      const [v] = (await sql<{ f: number; i: number }>`select f64_at(${Buffer.from(new Float64Array([-2.5]).buffer)}::bytea, 0) as f, i32_at(${Buffer.from(new Int32Array([-7]).buffer)}::bytea, 0) as i`.execute(db().kysely)).rows;
      expect([Number(v.f), Number(v.i)]).toEqual([-2.5, -7]);
    });

    it("reads each account's row, and keeps the row an outcome was recorded against, from whichever block holds it", async () => {
      const ws = await workspace(db());
      const n = 2 * BLOCK_ROWS + 500;
      // Distinct scores in store order: position i + 1 holds store i.
      const accounts = Array.from({ length: n }, (_, i) => ({ store_id: `store-${String(i).padStart(5, '0')}`, score: 0.9 - i / (3 * n) + 1e-13 * (i % 7), in_market: i % 3 === 0, explore: i % 5 === 0, model_version: i % 4 }));
      await importAccounts(db(), ws.id, accounts, new Date());
      for (let i = 0; i < n; i += 97) {
        const row = await getAccount(db().kysely, ws.id, accounts[i].store_id);
        const a = accounts[i];
        expect(row && { pos: Number(row.pos), score: Number(row.score), in_market: Number(row.in_market), explore: Number(row.explore), model_version: Number(row.model_version), logit_sd: row.logit_sd }).toEqual({
          pos: i + 1, score: a.score, in_market: a.in_market ? 1 : 0, explore: a.explore ? 1 : 0, model_version: a.model_version, logit_sd: null,
        });
      }
      for (const i of [0, BLOCK_ROWS - 1, BLOCK_ROWS, 2 * BLOCK_ROWS + 499]) {
        const store_id = accounts[i].store_id;
        await db().write((trx) =>
          insertOutcome(trx, {
            id: `out-${ws.id}-${i}`, workspace_id: ws.id, api_key_id: 'k', store_id, action: 'won', value: null,
            occurred_at: null, note: null, lost_reason: null, lost_reason_other: null, recorded_at: new Date().toISOString(),
          }),
        );
        const o = await db().kysely.selectFrom('outcomes').select(['ranked_score', 'ranked_model_version']).where('id', '=', `out-${ws.id}-${i}`).executeTakeFirstOrThrow();
        expect([Number(o.ranked_score), Number(o.ranked_model_version)]).toEqual([accounts[i].score, accounts[i].model_version]);
      }
    });
  });
}
