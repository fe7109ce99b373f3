/**
 * Issue 12's acceptance, end to end through the product: a small generated panel is published
 * with its runs folder and ingested; a workspace gets an owner, and the "Growth reports and the
 * wallet" block of docs/getting-started.md is run as written through the CLI (the activation, a credit of 50.00, a
 * Generate-reports key and a key that reads the wallet). `storelens api` (the real command,
 * citing the publication in its --out folder) serves it over a socket. A report request ⇒ 202
 * with a Location that reads `done` within seconds; the report is the store's, cites the
 * published month and only unsuppressed published figures of the store's cells (checked against
 * the published JSON files); GET /wallet/usage shows the debit naming the operation and the
 * Idempotency-Key, and the balance moved by the price. Four more requests are accepted and the
 * sixth within the minute ⇒ 429 with Retry-After, debiting nothing; the next minute the same
 * request goes through. SQLite always; PostgreSQL with DATABASE_URL.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { runApi } from '../../src/commands/api.js';
import type { Env } from '../../src/core/env.js';
import { resolveConfig } from '../../src/settings/config.js';
import type { PeerFigure } from '../../src/reports/growth.js';
import type { StatsDocument } from '../../src/stats/types.js';
import { capturedEnv } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const SLUGS = ['platform-stores', 'agentic-commerce', 'platform-advertising', 'platform-apps', 'platform-trends'] as const;

const dirs = tempDirs('storelens-reports-e2e-');
let out: string;
let runs: string;
let latestMonth: string;

/** storelens as a person runs it; `vars` are its environment. */
async function storelens(args: string[], vars: Record<string, string> = {}): Promise<string> {
  const c = capturedEnv(new Date(), vars);
  const code = await main(['node', 'storelens', ...args], c.env);
  if (code !== 0) throw new Error(`storelens ${args.join(' ')} exited ${code}: ${c.stderr()}`);
  return c.stdout();
}

beforeAll(async () => {
  const dir = await dirs.make();
  const panel = path.join(dir, 'panel');
  [out, runs] = [path.join(dir, 'out'), path.join(dir, 'runs')];
  // Two recent months, so the accounts are current for the ranking.
  const d = new Date();
  const month = (back: number) => new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1)).toISOString().slice(0, 7);
  await storelens(['generate', '--out', panel, '--stores', '400', '--from', month(2), '--to', month(1), '--seed', 'reports-e2e', '--format', 'parquet']);
  const published = JSON.parse(await storelens(['publish', '--input', panel, '--out', out, '--all', '--cards', 'none', '--runs', runs, '--json'])) as { latest_month: string; suppressed: number };
  latestMonth = published.latest_month;
  expect(latestMonth).toBe(month(1));
  // Small cells are suppressed: the report has something to leave out.
  expect(published.suppressed).toBeGreaterThan(0);
}, 120_000);
afterAll(() => dirs.removeAll());

// ---------------------------------------------------------------------------------------------
// The guide's block

/** The ```sh block of the docs/getting-started.md section "Growth reports and the wallet". */
function guideBlock(): string {
  const guide = readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8');
  const start = guide.indexOf('\n## Growth reports and the wallet\n');
  expect(start, 'docs/getting-started.md has a "Growth reports and the wallet" section').toBeGreaterThanOrEqual(0);
  const end = guide.indexOf('\n## ', start + 1);
  const block = /```sh\n([\s\S]*?)```/.exec(guide.slice(start, end < 0 ? undefined : end))?.[1];
  if (!block) throw new Error('the reports section of docs/getting-started.md has no ```sh block');
  return block;
}

/** Words of a command line without variables: single and double quotes, as sh splits them. */
function words(line: string): string[] {
  const result: string[] = [];
  let word: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i]!;
    if (ch === ' ') {
      if (word !== null) result.push(word);
      word = null;
    } else if (ch === "'" || ch === '"') {
      const close = line.indexOf(ch, i + 1);
      if (close < 0) throw new Error(`unclosed quote in: ${line}`);
      word = (word ?? '') + line.slice(i + 1, close);
      i = close;
    } else if (ch === '$' || ch === '`' || ch === '|') {
      throw new Error(`the test runs plain storelens lines only: ${line}`);
    } else word = (word ?? '') + ch;
  }
  if (word !== null) result.push(word);
  return result;
}

/**
 * The block's `storelens …` statements, each as its arguments and the variable it assigns
 * (`NAME=$(storelens … --json | jq -r .key)`), in order.
 */
function guideStorelens(): { assigns?: string; args: string[] }[] {
  const lines = guideBlock()
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  const steps: { assigns?: string; args: string[] }[] = [];
  for (const l of lines) {
    const captured = /^([A-Z_]+)=\$\(storelens (.*) \| jq -r \.key\)$/.exec(l);
    if (captured) steps.push({ assigns: captured[1]!, args: words(captured[2]!) });
    else if (l.startsWith('storelens ')) steps.push({ args: words(l.slice('storelens '.length)) });
  }
  return steps;
}

// ---------------------------------------------------------------------------------------------

interface Report {
  object: string;
  id: string;
  store_id: string;
  status: string;
  ledger_entry_id: string | null;
  refund_entry_id: string | null;
  requested_at: string;
  finished_at: string | null;
  report: {
    store_id: string;
    month: string;
    store: { country: string | null; category: string | null; plan: string | null } | null;
    peers: PeerFigure[];
    recommendations: { text: string; metric_key: string; dimension: string; citation: string }[];
  } | null;
}

interface Entry {
  id: string;
  kind: string;
  amount: number;
  balance_after: number;
  unit: string | null;
  unit_price: number | null;
  operation_id: string;
  idempotency_key: string;
  actor: string;
}

/** No flag given on the command line: every setting from the environment or its default. */
const noFlags = { value: () => undefined, source: () => undefined };

for (const d of dialects) {
  describe.skipIf(d.skip)(`growth reports end to end on ${d.label}`, () => {
    let t: TestDb;
    let api: { url: string; close(): Promise<void> } | undefined;

    afterAll(async () => {
      await api?.close();
      await t?.cleanup();
    });

    it('an activated, funded workspace gets a finished report in seconds, pays its price once, and the sixth request in a minute ⇒ 429', async () => {
      t = await freshDb(d.name);
      const vars: Record<string, string> = t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {};
      const dbArgs = t.dbPath ? ['--db', t.dbPath] : [];
      const cli = (args: string[]) => storelens([...args, ...dbArgs], vars);

      await cli(['ingest', '--runs', runs]);
      await cli(['workspaces', 'create', 'acme']);
      await cli(['members', 'add', '--workspace', 'acme', '--email', 'ana@acme.example', '--role', 'owner']);

      // The guide's steps, as written.
      const steps = guideStorelens();
      expect(steps.map((s) => s.args.slice(0, 2).join(' '))).toEqual(['workspaces activate', 'wallet credit', 'keys create', 'keys create']);
      const keys: Record<string, string> = {};
      for (const s of steps) {
        const stdout = await cli(s.args);
        if (s.assigns) keys[s.assigns] = (JSON.parse(stdout) as { key: string }).key;
      }
      const { REPORTS: reportsKey, WALLET: walletKey } = keys;
      expect(reportsKey).toBeDefined();
      expect(walletKey).toBeDefined();
      const reportsKeyArgs = steps.find((s) => s.assigns === 'REPORTS')!.args;
      expect(reportsKeyArgs.slice(reportsKeyArgs.indexOf('--access'), reportsKeyArgs.indexOf('--access') + 2), 'a Generate-reports key').toEqual(['--access', 'reports']);
      expect(reportsKeyArgs).not.toContain('--scopes');

      // `storelens api` as the command line builds it, citing publish's --out folder. Its clock
      // is the real one, moved forward to the start of the next minute once the reports begin,
      // and held inside that minute until the test moves it on, so that the six requests share
      // one of the rate limit's minute windows however slowly a loaded machine makes them.
      let shift = 0;
      let windowEnd = Infinity;
      const server = capturedEnv(new Date(), vars);
      const env: Env = { ...server.env, now: () => new Date(Math.min(Date.now() + shift, windowEnd)) };
      const config = resolveConfig('api', noFlags, vars);
      // Reports are generated when a request triggers them, the periodic turn an hour away: a
      // report done at all was started by its request at once (no wall-clock deadline).
      api = await runApi({ ...config, port: 0, host: '127.0.0.1', db: t.dbPath ?? config.db, out, loop: { reportsEveryMs: 3_600_000 } }, env, false);
      const base = api.url;
      const get = async <T>(p: string, key: string): Promise<T> => {
        const res = await fetch(`${base}${p}`, { headers: { authorization: `Bearer ${key}` } });
        const text = await res.text();
        expect(res.status, `GET ${p}: ${text}`).toBe(200);
        return JSON.parse(text) as T;
      };
      const requestReport = (storeId: string, idempotencyKey: string) =>
        fetch(`${base}/reports/growth`, {
          method: 'POST',
          headers: { authorization: `Bearer ${reportsKey}`, 'idempotency-key': idempotencyKey, 'content-type': 'application/json' },
          body: JSON.stringify({ store_id: storeId }),
        });

      const accounts = (await get<{ data: { store_id: string; category: string | null }[] }>('/accounts?limit=5', walletKey!)).data;
      expect(accounts.length).toBe(5);
      const store = accounts[0]!;
      const price = (await get<{ data: { unit: string; unit_price: number; currency: string }[] }>('/wallet/pricing', walletKey!)).data.find((p) => p.unit === 'growth_report')!;
      expect(price.unit_price).toBeGreaterThan(0);
      const before = await get<{ balance: number; currency: string; spent_this_month: number }>('/wallet', walletKey!);
      expect(before).toMatchObject({ balance: 5000, currency: price.currency, spent_this_month: 0 });

      shift = 60_000 - (Date.now() % 60_000) + 250;
      const minute = Date.now() + shift;
      windowEnd = minute - (minute % 60_000) + 59_999;

      // 202 with the report and its Location.
      const accepted = await requestReport(store.store_id, 'report-1');
      const acceptedText = await accepted.text();
      expect(accepted.status, acceptedText).toBe(202);
      const queued = JSON.parse(acceptedText) as Report;
      expect(queued).toMatchObject({ object: 'growth_report', store_id: store.store_id });
      expect(['queued', 'running', 'done']).toContain(queued.status);
      expect(queued.ledger_entry_id).not.toBeNull();
      const location = accepted.headers.get('location');
      expect(location).toBe(`/api/v1/reports/growth/${queued.id}`);

      // Done, started by the request itself (see loop above), read back at its Location.
      const done = await until(
        async () => {
          const r = await get<Report>(location!.replace(/^\/api\/v1/, ''), reportsKey!);
          return r.status === 'done' || r.status === 'failed' ? r : undefined;
        },
        undefined,
        250, // at most 80 reads in until()'s 20 s: within the key's 120 a minute
      );
      expect(done.status, JSON.stringify(done)).toBe('done');
      expect(Date.parse(done.finished_at!)).toBeGreaterThanOrEqual(Date.parse(done.requested_at));
      expect(done.refund_entry_id).toBeNull();

      // The report is the store's, for the latest published month, and cites exactly the
      // published, unsuppressed figures of the store's cells that month.
      const content = done.report!;
      expect(content.store_id).toBe(store.store_id);
      expect(content.month).toBe(latestMonth);
      expect(content.store).not.toBeNull();
      expect(content.store!.category).toBe(store.category);
      const cells = new Set(['all', `category:${content.store!.category}`, `country:${content.store!.country}`, `plan:${content.store!.plan}`]);
      const figures: (PeerFigure & { suppressed: boolean })[] = [];
      for (const slug of SLUGS) {
        const doc = JSON.parse(await readFile(path.join(out, 'api', 'data', slug, `${latestMonth}.json`), 'utf8')) as StatsDocument;
        for (const s of doc.stats) if (cells.has(s.dimension)) figures.push({ ...(s as unknown as PeerFigure), slug, suppressed: s.suppressed });
      }
      const id = (p: { slug: string; metric_key: string; dimension: string }) => `${p.slug} ${p.metric_key} ${p.dimension}`;
      const suppressed = new Set(figures.filter((f) => f.suppressed).map(id));
      expect(suppressed.size, "some of the store's cells are suppressed").toBeGreaterThan(0);
      const unsuppressed = figures.filter((f) => !f.suppressed);
      expect(content.peers.length).toBeGreaterThan(0);
      for (const p of content.peers) expect(suppressed.has(id(p)), `${id(p)} is suppressed`).toBe(false);
      expect(content.peers.map(id).sort()).toEqual(unsuppressed.map(id).sort());
      for (const p of content.peers) {
        const f = unsuppressed.find((x) => id(x) === id(p))!;
        expect(p).toEqual({ slug: f.slug, metric_key: f.metric_key, dimension: f.dimension, value: f.value, n: f.n, month: latestMonth, sentence: f.sentence, citation: f.citation, canonical_url: f.canonical_url });
        expect(p.n).toBeGreaterThanOrEqual(30);
      }
      // Each recommendation rests on one of those cited figures.
      for (const r of content.recommendations) {
        expect(content.peers.some((p) => p.citation === r.citation && p.metric_key === r.metric_key && p.dimension === r.dimension)).toBe(true);
      }
      // As markdown too, citing the month.
      const md = await fetch(`${base}/reports/growth/${done.id}`, { headers: { authorization: `Bearer ${reportsKey}`, accept: 'text/markdown' } });
      expect(md.status).toBe(200);
      expect(md.headers.get('content-type')).toMatch(/^text\/markdown/);
      expect(await md.text()).toContain(`(${latestMonth})`);

      // Its cost in the ledger: one debit naming the operation, the Idempotency-Key and the key.
      const usage = (await get<{ data: Entry[] }>('/wallet/usage?limit=100', walletKey!)).data;
      const debits = usage.filter((e) => e.kind === 'debit');
      expect(debits).toHaveLength(1);
      expect(debits[0]).toMatchObject({
        id: queued.ledger_entry_id,
        amount: -price.unit_price,
        unit: 'growth_report',
        unit_price: price.unit_price,
        operation_id: 'request_growth_report',
        idempotency_key: 'report-1',
        balance_after: 5000 - price.unit_price,
      });
      expect(debits[0]!.actor).toMatch(/^key:/);
      expect(usage.filter((e) => e.kind === 'credit').map((e) => e.amount)).toEqual([5000]);
      expect((await get<{ balance: number }>('/wallet', walletKey!)).balance).toBe(5000 - price.unit_price);

      // Four more are accepted; the sixth in the minute ⇒ 429 with Retry-After, and no debit.
      for (let i = 2; i <= 5; i++) {
        const res = await requestReport(accounts[i - 1]!.store_id, `report-${i}`);
        expect(res.status, await res.text()).toBe(202);
      }
      const sixth = await requestReport(store.store_id, 'report-6');
      const sixthBody = (await sixth.json()) as { type: string; status: number };
      expect(sixth.status).toBe(429);
      expect(sixthBody.status).toBe(429);
      expect(sixthBody.type).toMatch(/rate-limited$/);
      expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThan(0);
      const after = await get<{ balance: number; spent_this_month: number }>('/wallet', walletKey!);
      expect(after.balance).toBe(5000 - 5 * price.unit_price);
      const keysAfter = (await get<{ data: Entry[] }>('/wallet/usage?limit=100', walletKey!)).data.filter((e) => e.kind === 'debit').map((e) => e.idempotency_key);
      expect(keysAfter.sort()).toEqual(['report-1', 'report-2', 'report-3', 'report-4', 'report-5']);

      // Once the minute is over (the server's clock moved on), the refused request goes through
      // with the same Idempotency-Key: a 429 is not kept as its answer.
      windowEnd = Infinity;
      shift += 60_000;
      const retried = await requestReport(store.store_id, 'report-6');
      expect(retried.status, await retried.text()).toBe(202);
      expect((await get<{ balance: number }>('/wallet', walletKey!)).balance).toBe(5000 - 6 * price.unit_price);
    }, 120_000);
  });
}
