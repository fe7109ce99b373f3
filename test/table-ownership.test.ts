/**
 * Each table belongs to the folder whose tables.ts lists it. Kysely's table types are one
 * database-wide type (db/database.ts), so the typecheck cannot keep a module off another's
 * tables; this test reads the source instead: every table a file names in a query (Kysely's
 * selectFrom, insertInto, updateTable, deleteFrom, joins, lockRows; raw SQL's from, join, into,
 * update; a bulk insert's `table:`) must be its own folder's, the platform's (the kernel's and the workspaces row every
 * table hangs from), or one of the few reads listed below with their reason. Another module's
 * table is otherwise reached through that module's public function (its index.ts).
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = 'src';
/** The composition roots read what they report on (backlog gauges, benchmarks' fixtures). */
const ROOTS = new Set(['compose', 'bench', 'commands']);
/** Tables every module may name: the kernel's (settings, leases) and the tenant row. */
const PLATFORM = new Set(['db', 'workspaces']);

/** `file → table`: each a read across a wall kept in one statement on purpose. */
const CROSSINGS: Record<string, string> = {
  'src/api/keys-store.ts → members': "a key works only while its creator is a member: the key lookup joins the membership in its one query (the hot path of every call)",
  'src/web/plugin.ts → members': 'the sign-in page reads the member rows of the person signing in',
  'src/oauth/store.ts → members': "recording a grant locks the member's row, as removing the member does, so a removal and a grant never cross",
  'src/oauth/store.ts → member_sessions': 'a grant is recorded only while the browser session that consented still exists, checked under that lock',
  'src/accounts/ranking-reads.ts → store_signals': "the in-market filters join the loaded panel's signals in the ranking's query",
  'src/accounts/ranking-reads.ts → ingested_months': "the in-market filters join the loaded panel's months in the ranking's query",
  'src/contacts/store.ts → store_months': "ingest's warning of contacts whose store no ingested month holds joins the loaded panel's stores in one query",
  'src/contacts/store.ts → ingested_months': "ingest's warning of contacts whose store no ingested month holds joins the loaded panel's months in one query",
  'src/wallet/statements.ts → accounts': "a month's statement counts the accounts delivered in it, in the billing transaction",
};

function tableOwners(): Map<string, string> {
  const owners = new Map<string, string>();
  for (const folder of readdirSync(SRC)) {
    const file = path.join(SRC, folder, 'tables.ts');
    if (!existsSync(file)) continue;
    const listing = /export interface \w+Tables \{([^}]*)\}/.exec(readFileSync(file, 'utf8'));
    for (const m of listing?.[1].matchAll(/^\s*(\w+):/gm) ?? []) owners.set(m[1], folder);
  }
  return owners;
}

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? (e.name === 'migrations' ? [] : sources(path.join(dir, e.name))) : e.name.endsWith('.ts') && e.name !== 'tables.ts' ? [path.join(dir, e.name)] : [],
  );

function crossings(owners: Map<string, string>): string[] {
  const names = [...owners.keys()].sort((a, b) => b.length - a.length).join('|');
  const named = new RegExp(
    `(?:selectFrom|insertInto|updateTable|deleteFrom|innerJoin|leftJoin|rightJoin|lockRows\\(\\s*\\w+,)\\s*\\(?\\s*'(${names})(?: as \\w+)?'|\\b(?:from|join|into|update)\\s+(${names})\\b|\\btable:\\s*'(${names})'`,
    'g',
  );
  const found = new Set<string>();
  for (const folder of readdirSync(SRC)) {
    if (ROOTS.has(folder) || !statSync(path.join(SRC, folder)).isDirectory()) continue;
    for (const file of sources(path.join(SRC, folder))) {
      for (const m of readFileSync(file, 'utf8').matchAll(named)) {
        const table = m[1] ?? m[2] ?? m[3];
        const owner = owners.get(table)!;
        if (owner !== folder && !PLATFORM.has(owner)) found.add(`${file} → ${table}`);
      }
    }
  }
  return [...found].sort();
}

describe('table ownership', () => {
  const owners = tableOwners();

  it("finds every module's tables (a listing the scan cannot read would make the test vacuous)", () => {
    for (const [table, folder] of [['deals', 'deals'], ['outcomes', 'accounts'], ['outreach_enrollments', 'outreach'], ['members', 'members'], ['outbox', 'webhooks']]) expect(owners.get(table), table).toBe(folder);
  });

  it("lets a module name only its own tables, the platform's and the listed crossings", () => {
    expect(crossings(owners).filter((c) => !(c in CROSSINGS)), 'reach another module\'s table through its public function (its index.ts)').toEqual([]);
  });

  it('lists no crossing that no longer happens', () => {
    const seen = new Set(crossings(owners));
    expect(Object.keys(CROSSINGS).filter((c) => !seen.has(c))).toEqual([]);
  });
});
