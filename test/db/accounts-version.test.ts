import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { importAccounts, markDelivered, upsertAccounts } from '../../src/accounts/store.js';
import { currentRanking } from '../../src/accounts/ranking-reads.js';
import { apiKey, call, startApi, workspace, type Harness } from '../helpers/api.js';
import { dialects } from '../helpers/db.js';
import { capturedEnv } from '../helpers/cli.js';
import { suiteTempDir } from '../helpers/tmp.js';

const LIFTED = { read: 100_000, write: 100_000, report: 100_000 };

// Account pages are reused until the workspace's accounts_version moves: every way of writing
// accounts rows must move it, or a client is served a stale page.
for (const d of dialects) {
  describe.skipIf(d.skip)(`accounts_version on ${d.label}`, () => {
    let h: Harness;
    const dir = suiteTempDir('storelens-accounts-');
    beforeAll(async () => {
      h = await startApi(d.name, { rateLimits: LIFTED });
    });
    afterAll(async () => h?.close());

    const version = async (wsId: string) =>
      (await h.db.kysely.selectFrom('workspaces').select('accounts_version').where('id', '=', wsId).executeTakeFirstOrThrow()).accounts_version;
    const domains = async (key: string) => (await call(h.base, 'GET', '/accounts?limit=3', { key })).body.data.map((a: any) => [a.store_id, a.domain]);

    async function seeded() {
      const ws = await workspace(h.db);
      await importAccounts(h.db, ws.id, [{ store_id: 'a', score: 0.3, domain: 'a-old.example' }, { store_id: 'b', score: 0.2 }], new Date());
      const key = await apiKey(h.db, ws.id, ['read:accounts']);
      expect(await domains(key)).toEqual([['a', 'a-old.example'], ['b', null]]);
      return { ws, key };
    }

    it('never lets an import overwrite a ranking another writer made current while it was written: it imports again onto it', async () => {
      const { ws } = await seeded();
      // Another writer's version becomes current just as the import starts writing its own.
      let interposed = false;
      const racing = Object.create(h.db) as typeof h.db;
      racing.write = async (fn) => {
        if (!interposed) {
          interposed = true;
          await importAccounts(h.db, ws.id, [{ store_id: 'c', score: 0.15 }], new Date());
        }
        return h.db.write(fn);
      };
      await importAccounts(racing, ws.id, [{ store_id: 'd', score: 0.4 }], new Date());
      const { rows } = await currentRanking(h.db.kysely, ws.id);
      expect(rows.map((r) => r.store_id)).toEqual(['d', 'a', 'b', 'c']);
    });

    it('moves on an import through the admin CLI, and the next page shows the imported rows', async () => {
      const { ws, key } = await seeded();
      const v = await version(ws.id);
      const file = join(dir, `${ws.id}.ndjson`);
      writeFileSync(file, '{"store_id":"a","score":0.3,"domain":"a-new.example"}\n{"store_id":"c","score":0.9}\n');
      const c = capturedEnv(new Date(), h.t.databaseUrl ? { DATABASE_URL: h.t.databaseUrl } : {});
      const code = await main(['node', 'storelens', 'accounts', 'import', file, '--workspace', ws.id, ...(h.t.dbPath ? ['--db', h.t.dbPath] : [])], c.env);
      expect(code, c.stderr()).toBe(0);
      expect(await version(ws.id)).toBeGreaterThan(v);
      expect(await domains(key)).toEqual([['c', null], ['a', 'a-new.example'], ['b', null]]);
    });

    it('moves on a write through the repository inside a caller’s transaction, and the next page shows it', async () => {
      const { ws, key } = await seeded();
      const v = await version(ws.id);
      await h.db.write((trx) => upsertAccounts(trx, ws.id, [{ store_id: 'b', score: 0.2, domain: 'b.example' }], new Date()));
      expect(await version(ws.id)).toBe(v + 1);
      expect(await domains(key)).toEqual([['a', 'a-old.example'], ['b', 'b.example']]);
    });

    it('is left alone by a delivery mark, which never changes what a page shows', async () => {
      const { ws } = await seeded();
      const v = await version(ws.id);
      await h.db.write((trx) => markDelivered(trx, ws.id, ['a', 'b'], new Date()));
      expect(await version(ws.id)).toBe(v);
    });
  });
}

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
// A bulk insert (db/prepared.ts runBulk) names its table as `table: 'accounts'`.
const ACCOUNTS_WRITE = /(insertInto|updateTable|deleteFrom|replaceInto|mergeInto)\(\s*'accounts'\s*\)|\b(insert\s+into|update|delete\s+from)\s+accounts\b|\btable:\s*'accounts'/i;

describe('writers of the accounts table', () => {
  // accounts/rankings.ts adds the rows of stores new to a ranking before the version that lists them
  // becomes current (and bumps accounts_version then); accounts/store.ts writes everything else.
  it('live only in src/accounts/store.ts and the ranking writer, whose writers keep accounts_version', () => {
    const files = (readdirSync(SRC, { recursive: true }) as string[]).filter((f) => f.endsWith('.ts'));
    const writers = files.filter((f) => ACCOUNTS_WRITE.test(readFileSync(join(SRC, f), 'utf8'))).map((f) => relative(SRC, join(SRC, f)));
    expect(writers.sort()).toEqual(['accounts/rankings.ts', 'accounts/store.ts']);
  });
});
