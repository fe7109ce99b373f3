/**
 * A ranking version's rows are kept in blocks of BLOCK_ROWS positions, each column packed
 * (accounts/blocks.ts). What a block is decoded to is what was encoded, and SQL reads each value
 * of a block exactly as written (db/binary.ts: f64_at, i32_at, u8_at), on either database: the
 * row an outcome keeps and the account's row are read that way.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeBlock, encodeBlock } from '../../src/accounts/blocks.js';
import type { Db } from '../../src/compose/database.js';
import { workspace } from '../helpers/api.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';

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
    let t: TestDb;
    let db: Db;
    beforeAll(async () => {
      t = await freshDb(d.name);
      db = t.db;
    });
    afterAll(async () => t?.cleanup());

    it('gives each value exactly as written (null for NaN)', async () => {
      const ws = await workspace(db);
      const n = 500;
      const b = block(n, 11);
      await db.write((trx) => trx.insertInto('ranking_blocks').values({ workspace_id: ws.id, version: 99, block: 0, ...encodeBlock(b.rows) }).execute());
      const rows = await sql<{ j: number; score: number | null; logit: number | null; sd: number | null; mv: number; flags: number }>`
        with recursive js(j) as (select 0 union all select j + 1 from js where j < ${n - 1})
        select js.j, f64_at(k.scores, js.j) as score, f64_at(k.logits, js.j) as logit, f64_at(k.logit_sds, js.j) as sd,
          i32_at(k.model_versions, js.j) as mv, u8_at(k.flags, js.j) as flags
        from js join ranking_blocks k on k.workspace_id = ${ws.id} and k.version = 99 and k.block = 0 order by js.j`.execute(db.kysely);
      const value = (x: number | null) => (x === null ? null : Number(x));
      const expected = (x: number) => (Number.isNaN(x) ? null : x);
      expect(rows.rows.map((r) => [value(r.score), value(r.logit), value(r.sd)])).toEqual(Array.from({ length: n }, (_, j) => [expected(b.f[j]), expected(b.f[n + j]), expected(b.f[2 * n + j])]));
      expect(rows.rows.map((r) => [Number(r.mv), Number(r.flags)])).toEqual(Array.from({ length: n }, (_, j) => [b.mv[j], j % 4]));
    });
  });
}
