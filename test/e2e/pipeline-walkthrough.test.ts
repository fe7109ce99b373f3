/**
 * Issue 10's acceptance: the pipeline walk-through of docs/getting-started.md, run as written. The
 * test reads the fenced block of its "Pipeline" section, runs its `storelens …` lines through the CLI
 * and each `curl …` as the same request against `storelens api` (the real command, over a socket,
 * on a database filled by `storelens ingest` from a runs folder with a contact source), with
 * `jq -r` picking ids out of the answers as the guide does. Each step's status and key facts are
 * checked, every step the issue names must be there in order, and another workspace's key gets
 * 404 for the walk-through's deal, contact and watch. SQLite always; PostgreSQL with DATABASE_URL.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../src/cli.js';
import { runApi } from '../../src/commands/api.js';
import { contactsData, writeContactsRun } from '../../src/contacts/source.js';
import type { StoreContact } from '../../src/contacts/store.js';
import { switchRunsIndex } from '../../src/panel/runs.js';
import { capturedEnv } from '../helpers/cli.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { type FixtureSignal, manyStores, writeRuns } from '../helpers/runs-fixture.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

// The server's clock: the walk-through's data is for 2025-11 and 2025-12, current in January.
const NOW = new Date('2026-01-12T09:00:00.000Z');
const SCOPES = ['read:accounts', 'write:deals', 'write:contacts', 'read:watch', 'write:watch'];

// ---------------------------------------------------------------------------------------------
// Reading the walk-through out of docs/getting-started.md

const GUIDE = readFileSync(new URL('../../docs/getting-started.md', import.meta.url), 'utf8');

/** The first ```sh block of the guide's section headed `heading`. */
function sectionBlock(heading: string): string {
  const start = GUIDE.indexOf(`\n## ${heading}\n`);
  if (start < 0) throw new Error(`docs/getting-started.md has no "## ${heading}" section`);
  const end = GUIDE.indexOf('\n## ', start + 1);
  const section = GUIDE.slice(start, end < 0 ? undefined : end);
  const m = /```sh\n([\s\S]*?)```/.exec(section);
  if (!m) throw new Error(`docs/getting-started.md's "${heading}" section has no \`\`\`sh block`);
  return m[1]!;
}

/** The block's statements: continuation lines joined, comment-only and blank lines left out. */
function statements(block: string): string[] {
  return block
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
}

type Vars = Record<string, string>;

/**
 * A shell pipeline split into commands and words, as sh would: single quotes literal, double
 * quotes and bare words expanding $NAME and ${NAME}, adjacent pieces joined into one word, `|`
 * between commands, `#` at a word's start ending the line. An unset variable is an error (set -u).
 */
function shellWords(line: string, vars: Vars): string[][] {
  const commands: string[][] = [[]];
  let word: string | null = null;
  const push = (s: string) => (word = (word ?? '') + s);
  const end = () => {
    if (word !== null) commands[commands.length - 1]!.push(word);
    word = null;
  };
  const expand = (i: number): [string, number] => {
    const m = /^\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))/.exec(line.slice(i));
    if (!m) return ['$', i + 1];
    const name = (m[1] ?? m[2])!;
    if (!(name in vars)) throw new Error(`the walk-through uses $${name} before setting it: ${line}`);
    return [vars[name]!, i + m[0].length];
  };
  let i = 0;
  while (i < line.length) {
    const c = line[i]!;
    if (/\s/.test(c)) {
      end();
      i++;
    } else if (c === '#' && word === null) {
      break;
    } else if (c === '|') {
      end();
      commands.push([]);
      i++;
    } else if (c === "'") {
      const close = line.indexOf("'", i + 1);
      if (close < 0) throw new Error(`unclosed ' in: ${line}`);
      push(line.slice(i + 1, close));
      i = close + 1;
    } else if (c === '"') {
      push('');
      i++;
      while (line[i] !== '"') {
        if (i >= line.length) throw new Error(`unclosed " in: ${line}`);
        if (line[i] === '\\' && '"\\$`'.includes(line[i + 1] ?? '')) {
          push(line[i + 1]!);
          i += 2;
        } else if (line[i] === '$') {
          const [v, next] = expand(i);
          push(v);
          i = next;
        } else push(line[i++]!);
      }
      i++;
    } else if (c === '$') {
      const [v, next] = expand(i);
      push(v);
      i = next;
    } else if (c === '\\') {
      push(line[i + 1] ?? '');
      i += 2;
    } else if ('`;&<>()'.includes(c)) {
      throw new Error(`the walk-through's lines are one command or pipeline each; "${c}" in: ${line}`);
    } else push(line[i++]!);
  }
  end();
  if (commands.some((cmd) => cmd.length === 0)) throw new Error(`empty command in: ${line}`);
  return commands;
}

/**
 * What bash makes of a pipeline: it runs the line with curl, storelens and jq replaced by
 * functions recording their arguments, so the test reads the guide as a shell does.
 */
function bashWords(line: string, vars: Vars): string[][] {
  const dir = mkdtempSync(path.join(tmpdir(), 'storelens-sh-'));
  try {
    const stub = (name: string) => `${name}() { printf '%s\\0' "$@" > "$OUT/${name}"; ${name === 'jq' ? 'cat >/dev/null; ' : ''}}`;
    execFileSync('bash', ['-c', `set -eu\n${['curl', 'storelens', 'jq'].map(stub).join('\n')}\n${line}`], { env: { ...vars, OUT: dir, PATH: process.env.PATH } });
    return shellWords(line, vars).map(([name]) => {
      const recorded = readFileSync(path.join(dir, name!), 'utf8').split('\0');
      return [name!, ...recorded.slice(0, -1)];
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `jq -r FILTER` for paths like `.id` and `.data[0].store_id`. */
function jq(filter: string, input: string): string {
  if (!/^(\.[A-Za-z_][A-Za-z0-9_]*|\[\d+\])+$/.test(filter)) throw new Error(`jq filter "${filter}" is not a plain path`);
  let v: unknown = JSON.parse(input);
  for (const [, key, index] of filter.matchAll(/\.([A-Za-z_][A-Za-z0-9_]*)|\[(\d+)\]/g)) {
    v = v === null || v === undefined ? null : key !== undefined ? (v as Record<string, unknown>)[key] : (v as unknown[])[Number(index)];
  }
  if (v === undefined || v === null) return 'null';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

interface CurlRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** The request a curl command line makes (the options the walk-through may use). */
function curlRequest(args: string[]): CurlRequest {
  let method: string | undefined;
  let url: string | undefined;
  let body: string | undefined;
  const headers: Record<string, string> = {};
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-s' || a === '--silent') continue;
    const value = () => {
      if (i + 1 >= args.length) throw new Error(`curl ${a} needs a value`);
      return args[++i]!;
    };
    if (a === '-X' || a === '--request') method = value();
    else if (a === '-H' || a === '--header') {
      const h = value();
      const colon = h.indexOf(':');
      if (colon <= 0) throw new Error(`curl header "${h}" has no name`);
      headers[h.slice(0, colon).trim().toLowerCase()] = h.slice(colon + 1).trim();
    } else if (a === '-d' || a === '--data' || a === '--data-raw') body = value();
    else if (a.startsWith('-')) throw new Error(`curl option ${a} is not one the test knows`);
    else if (url === undefined) url = a;
    else throw new Error(`curl with two URLs: ${url} and ${a}`);
  }
  if (url === undefined) throw new Error('curl without a URL');
  // As curl does: -d makes a POST, with a form content type unless one is given.
  if (body !== undefined && headers['content-type'] === undefined) headers['content-type'] = 'application/x-www-form-urlencoded';
  return { method: method ?? (body !== undefined ? 'POST' : 'GET'), url, headers, body };
}

// ---------------------------------------------------------------------------------------------
// The data the walk-through runs on

const MONTHS = ['2025-11', '2025-12'] as const;
const stores = manyStores(30);
// Every store has a recent signal (so the ranking may put it in market); some lost traffic.
const signals: FixtureSignal[] = stores.map((s, i) =>
  i % 4 === 0 ? { store_id: s.store_id, type: 'traffic_down', strength: 0.6, detail: 'Monthly visits down 40%' } : { store_id: s.store_id, type: 'app_installed', subject: 'klaviyo', strength: 0.5, detail: 'Installed klaviyo' },
);
// The data team's contact source: two people for every store.
const source: StoreContact[] = stores.flatMap((s) => [
  { store_id: s.store_id, email: `owner@${s.domain}`, name: `Owner of ${s.domain}`, role: 'Founder', source: 'company site' },
  { store_id: s.store_id, email: `ops@${s.domain}`, name: null, role: 'Operations', source: 'trade fair 2025' },
]);

const dirs = tempDirs('storelens-walkthrough-');
let runsDir: string;
beforeAll(async () => {
  runsDir = path.join(await dirs.make(), 'runs');
  await writeRuns(runsDir, {
    [MONTHS[0]]: { stores },
    [MONTHS[1]]: { stores, signals },
  });
  const data = contactsData(source);
  await writeContactsRun(runsDir, data);
  await switchRunsIndex(runsDir, new Map(), data.id);
}, 240_000);
afterAll(() => dirs.removeAll());

// ---------------------------------------------------------------------------------------------

interface Step {
  method: string;
  /** The path under $BASE with the walk-through's ids as {NAME}, without the query. */
  path: string;
  query: string;
  status: number;
  contentType: string;
  text: string;
  json: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

for (const d of dialects) {
  describe.skipIf(d.skip)(`the getting-started pipeline walk-through on ${d.label}`, () => {
    let t: TestDb;
    let api: { url: string; close(): Promise<void> };

    const cli = async (args: string[]): Promise<string> => {
      const c = capturedEnv(NOW, t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {});
      const code = await main(['node', 'storelens', ...args, ...(t.dbPath ? ['--db', t.dbPath] : [])], c.env);
      if (code !== 0) throw new Error(`storelens ${args.join(' ')} exited ${code}: ${c.stderr()}`);
      return c.stdout();
    };

    afterAll(async () => {
      await api?.close();
      await t?.cleanup();
    });

    it('runs end to end with a key granted by `keys create --scopes`; another workspace gets 404 for its deal, contact and watch', async () => {
      t = await freshDb(d.name);
      const ingested = JSON.parse(await cli(['ingest', '--runs', runsDir, '--json'])) as { months: string[]; contacts?: number };
      expect(ingested.months).toEqual([...MONTHS]);
      expect(ingested.contacts).toBe(source.length);

      const walk = statements(sectionBlock('Pipeline'));
      const keyLine = walk.find((l) => /\bstorelens keys create\b/.test(l));
      if (!keyLine) throw new Error('the walk-through does not create its key with storelens keys create');
      const keyArgs = shellWords(keyLine.replace(/^[A-Z_]+=\$\((.*)\)$/, '$1'), {})[0]!;
      const opt = (name: string) => keyArgs[keyArgs.indexOf(name) + 1]!;
      const [wsName, owner] = [opt('--workspace'), opt('--as')];
      // The guide's administration block sets up that workspace and its owner; run those lines.
      for (const line of statements(sectionBlock('A workspace, its members and keys')).filter((l) => /^storelens (workspaces create|members add) /.test(l))) {
        await cli(shellWords(line, {})[0]!.slice(1));
      }
      // Another workspace seeing the same stores, with a key holding the same scopes.
      await cli(['workspaces', 'create', 'rival']);
      await cli(['members', 'add', '--workspace', 'rival', '--email', 'rob@rival.example', '--role', 'owner']);
      const rival = (JSON.parse(await cli(['keys', 'create', '--workspace', 'rival', '--as', 'rob@rival.example', '--name', 'rival', '--scopes', SCOPES.join(','), '--json'])) as { key: string }).key;

      const env = capturedEnv(NOW, t.databaseUrl ? { DATABASE_URL: t.databaseUrl } : {});
      api = await runApi({ port: 0, host: '127.0.0.1', db: t.dbPath!, databaseUrl: t.databaseUrl }, env.env, false);
      const base = `${api.url}`;
      expect(base).toMatch(/\/api\/v1$/);

      // ---- run the walk-through
      const vars: Vars = {};
      const steps: Step[] = [];
      const ids = () => Object.entries(vars).filter(([k]) => k !== 'KEY' && k !== 'BASE');
      let watchChecked = false;

      const curl = async (args: string[]): Promise<string> => {
        const r = curlRequest(args);
        expect(r.url.startsWith(`${vars.BASE}/`), `${r.url} is under $BASE`).toBe(true);
        const [rawPath, query = ''] = r.url.slice(vars.BASE!.length).split('?');
        let p = rawPath!;
        for (const [k, v] of ids().sort((a, b) => b[1].length - a[1].length)) p = p.split(encodeURIComponent(v)).join(`{${k}}`).split(v).join(`{${k}}`);
        if (r.method === 'GET' && p.startsWith('/watches/{WATCH}') && !watchChecked) {
          // The server checks a watch right after its stores change; the reads follow that check.
          // Each look is a read of the key's 120 a minute (a 429's body has no checked_at either):
          // every 250 ms, at most 80 in until()'s 20 s.
          await until(async () => {
            const w = await fetch(`${base}/watches/${vars.WATCH}`, { headers: { authorization: `Bearer ${vars.KEY}` } });
            expect(w.status).toBe(200);
            return typeof ((await w.json()) as { checked_at: string | null }).checked_at === 'string';
          }, undefined, 250);
          watchChecked = true;
        }
        const res = await fetch(base + r.url.slice(vars.BASE!.length), { method: r.method, headers: r.headers, body: r.body });
        const text = await res.text();
        const contentType = res.headers.get('content-type') ?? '';
        const step: Step = { method: r.method, path: p, query, status: res.status, contentType, text, json: contentType.includes('json') ? JSON.parse(text) : undefined };
        steps.push(step);
        expect(res.status, `${r.method} ${p}: ${text}`).toBeLessThan(300);
        return text;
      };
      const run = async (line: string): Promise<string> => {
        const pipeline = shellWords(line, vars);
        // The test's reading of the line is the shell's.
        expect(pipeline, `bash reads: ${line}`).toEqual(bashWords(line, vars));
        let out = '';
        for (const [cmd, ...args] of pipeline) {
          if (cmd === 'storelens') out = await cli(args);
          else if (cmd === 'curl') out = await curl(args);
          else if (cmd === 'jq') {
            expect(args[0], 'jq -r FILTER').toBe('-r');
            out = jq(args[1]!, out) + '\n';
          } else throw new Error(`the walk-through runs "${cmd}", which the test does not know`);
        }
        return out;
      };

      for (const line of walk) {
        const sub = /^([A-Z_][A-Z0-9_]*)=\$\((.*)\)$/.exec(line);
        const plain = /^([A-Z_][A-Z0-9_]*)=(\S+)$/.exec(line);
        if (sub) {
          vars[sub[1]!] = (await run(sub[2]!)).replace(/\n$/, '');
          expect(vars[sub[1]!], `${sub[1]} is set`).not.toMatch(/^(null|)$/);
        } else if (plain) {
          const value = shellWords(plain[2]!, vars)[0]![0]!;
          if (plain[1] === 'BASE') {
            // The server the guide means, on this test's port.
            expect(value).toMatch(/^http:\/\/localhost:8081\/api\/v1$/);
            vars.BASE = value;
          } else vars[plain[1]!] = value;
        } else await run(line);
      }

      // ---- what each step answered
      const want: [string, (s: Step) => void][] = [
        ['GET /accounts', (s) => {
          expect(s.query).toBe('limit=1');
          expect(s.json.data).toHaveLength(1);
          expect(s.json.data[0]).toMatchObject({ store_id: vars.STORE, in_market: true });
        }],
        ['POST /deals', (s) => {
          expect(s.status).toBe(201);
          expect(s.json).toMatchObject({ object: 'deal', id: vars.DEAL, store_id: vars.STORE, stage: 'discovery', version: 1 });
        }],
        ['PATCH /deals/{DEAL}', (s) => {
          expect(s.status).toBe(200);
          expect(s.json).toMatchObject({ id: vars.DEAL, stage: 'discovery', version: 2 });
        }],
        ['POST /deals/{DEAL}/stage', (s) => {
          expect(s.status).toBe(200);
          expect(s.json).toMatchObject({ id: vars.DEAL, stage: 'proposal', version: 3 });
        }],
        ['POST /deals/{DEAL}/notes', (s) => {
          expect(s.status).toBe(201);
          expect(s.json.deal_id).toBe(vars.DEAL);
        }],
        ['GET /deals/{DEAL}/history', (s) => {
          expect(s.status).toBe(200);
          const h = s.json.data as { kind: string; field: string | null; from: unknown; to: unknown; version: number; actor: string; changed_at: string }[];
          expect(h.map((c) => [c.kind, c.field, c.version])).toEqual([
            ['created', 'stage', 1],
            ['field_changed', 'value', 2],
            ['stage_changed', 'stage', 3],
          ]);
          expect(h[2]).toMatchObject({ from: 'discovery', to: 'proposal' });
          expect(h[1]!.to).not.toEqual(h[1]!.from);
          for (const c of h) {
            expect(c.actor).toMatch(/^key:key_/);
            expect(Number.isNaN(Date.parse(c.changed_at))).toBe(false);
          }
        }],
        ['POST /contacts', (s) => {
          expect(s.status).toBe(201);
          expect(s.json).toMatchObject({ object: 'contact', id: vars.CONTACT, store_id: vars.STORE, source: 'manual' });
          // Normalised: trimmed, the domain lower-cased.
          expect(s.json.email).toBe(s.json.email.trim());
          expect(s.json.email.split('@')[1]).toBe(s.json.email.split('@')[1].toLowerCase());
        }],
        ['POST /contacts/discover', (s) => {
          expect(s.status).toBe(200);
          const suggested = (s.json.data as { email: string; source: string | null }[]).map((x) => [x.email, x.source]).sort();
          const expected = source.filter((c) => c.store_id === vars.STORE).map((c) => [c.email, c.source]).sort();
          expect(expected).toHaveLength(2);
          expect(suggested).toEqual(expected);
        }],
        ['POST /watches', (s) => {
          expect(s.status).toBe(201);
          expect(s.json).toMatchObject({ object: 'watch', id: vars.WATCH, type: 'self_directed', store_count: 1 });
        }],
        ['GET /watches/{WATCH}', (s) => {
          expect(s.status).toBe(200);
          expect(s.json).toMatchObject({ id: vars.WATCH, store_count: 1, checked_month: MONTHS[1] });
          expect(['healthy', 'degraded', 'failing']).toContain(s.json.health);
        }],
        ['GET /watches/{WATCH}/stores', (s) => {
          expect(s.status).toBe(200);
          expect(s.json.data.map((x: { store_id: string }) => x.store_id)).toEqual([vars.STORE]);
        }],
        ['GET /watches/{WATCH}/brief', (s) => {
          expect(s.status).toBe(200);
          expect(s.contentType).toMatch(/^text\/markdown/);
          const domain = stores.find((x) => x.store_id === vars.STORE)!.domain!;
          expect(s.text).toContain(MONTHS[1]);
          expect(s.text).toContain(domain);
        }],
      ];
      const seen = steps.map((s) => `${s.method} ${s.path}`);
      const order = want.map(([k]) => seen.indexOf(k));
      expect(order.every((i) => i >= 0), `the walk-through's steps ${JSON.stringify(seen)} include ${JSON.stringify(want.map(([k]) => k))}`).toBe(true);
      expect([...order].sort((a, b) => a - b), 'in that order').toEqual(order);
      for (const [k, check] of want) check(steps[seen.indexOf(k)]!);

      // The key the guide created (the history's actor) holds exactly the five scopes, granted by its owner.
      const actor = steps.find((s) => s.path === '/deals/{DEAL}/history')!.json.data[0].actor as string;
      const keys = JSON.parse(await cli(['keys', 'list', '--workspace', wsName, '--json'])) as { keys: { id: string; prefix: string; scopes: string[]; created_by: string }[] };
      const made = keys.keys.find((k) => `key:${k.id}` === actor);
      expect(made).toBeDefined();
      expect(vars.KEY!.startsWith(made!.prefix)).toBe(true);
      expect([...made!.scopes].sort()).toEqual([...SCOPES].sort());
      expect(made!.created_by).toBe(owner);

      // ---- what the guide promises beside the steps
      const call = (method: string, p: string, key: string, body?: unknown, headers: Record<string, string> = {}) =>
        fetch(base + p, {
          method,
          headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json', 'idempotency-key': `check-${Math.random()}` }), ...headers },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const json = async (r: Promise<Response>): Promise<any> => (await r).json(); // eslint-disable-line @typescript-eslint/no-explicit-any
      // A stale If-Match ⇒ 409, nothing written.
      const stale = await call('PATCH', `/deals/${vars.DEAL}`, vars.KEY!, { value: 1 }, { 'if-match': '1' });
      expect(stale.status).toBe(409);
      expect((await json(call('GET', `/deals/${vars.DEAL}`, vars.KEY!))).version).toBe(3);
      // The same contact email again ⇒ 409 naming the existing contact.
      const email = steps.find((s) => s.path === '/contacts' && s.method === 'POST')!.json.email as string;
      const [local, domain] = email.split('@') as [string, string];
      const dup = await call('POST', '/contacts', vars.KEY!, { store_id: vars.STORE, email: `  ${local}@${domain.toUpperCase()} ` });
      expect(dup.status).toBe(409);
      expect(await dup.text()).toContain(vars.CONTACT!);
      // Discovery created nothing: the store has the one contact added.
      const found = (await (await call('GET', `/contacts?store_id=${encodeURIComponent(vars.STORE!)}`, vars.KEY!)).json()) as { data: { id: string }[] };
      expect(found.data.map((c) => c.id)).toEqual([vars.CONTACT]);
      // The account's detail lists its deal and its contact.
      const account = (await (await call('GET', `/accounts/${encodeURIComponent(vars.STORE!)}`, vars.KEY!)).json()) as { deals: { id: string }[]; contacts: { id: string }[] };
      expect(account.deals.map((x) => x.id)).toEqual([vars.DEAL]);
      expect(account.contacts.map((x) => x.id)).toEqual([vars.CONTACT]);

      // ---- another workspace's key: the same ids ⇒ 404, though it sees the same store
      expect((await call('GET', `/accounts/${encodeURIComponent(vars.STORE!)}`, rival)).status).toBe(200);
      const foreign: [string, string, unknown?, Record<string, string>?][] = [
        ['GET', `/deals/${vars.DEAL}`],
        ['PATCH', `/deals/${vars.DEAL}`, { value: 1 }, { 'if-match': '3' }],
        ['POST', `/deals/${vars.DEAL}/stage`, { stage: 'won' }],
        ['POST', `/deals/${vars.DEAL}/notes`, { body: 'mine now' }],
        ['GET', `/deals/${vars.DEAL}/notes`],
        ['GET', `/deals/${vars.DEAL}/history`],
        ['GET', `/contacts/${vars.CONTACT}`],
        ['PATCH', `/contacts/${vars.CONTACT}`, { name: 'Someone else' }],
        ['GET', `/watches/${vars.WATCH}`],
        ['GET', `/watches/${vars.WATCH}/stores`],
        ['GET', `/watches/${vars.WATCH}/events`],
        ['GET', `/watches/${vars.WATCH}/receipts`],
        ['GET', `/watches/${vars.WATCH}/brief?format=markdown`],
        ['POST', `/watches/${vars.WATCH}/stores`, { store_ids: [vars.STORE] }],
        ['DELETE', `/watches/${vars.WATCH}/stores/${encodeURIComponent(vars.STORE!)}`, undefined, { 'idempotency-key': 'rival-delete-store' }],
        ['DELETE', `/watches/${vars.WATCH}`, undefined, { 'idempotency-key': 'rival-delete-watch' }],
      ];
      for (const [method, p, body, headers] of foreign) {
        const r = await call(method, p, rival, body, headers);
        expect(r.status, `${method} ${p} with another workspace's key`).toBe(404);
        expect(r.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      }
      // The rival's own lists do not show them; its key can write (the 404s are not its scopes).
      expect(((await (await call('GET', '/deals', rival)).json()) as { data: unknown[] }).data).toEqual([]);
      expect(((await (await call('GET', `/contacts?store_id=${encodeURIComponent(vars.STORE!)}`, rival)).json()) as { data: unknown[] }).data).toEqual([]);
      expect(((await (await call('GET', '/watches', rival)).json()) as { data: unknown[] }).data).toEqual([]);
      expect((await call('POST', '/deals', rival, { store_id: vars.STORE, title: 'Their own deal' })).status).toBe(201);
      // Nothing the rival tried changed the walk-through's deal, contact or watch.
      expect((await json(call('GET', `/deals/${vars.DEAL}`, vars.KEY!))).version).toBe(3);
      expect((await json(call('GET', `/contacts/${vars.CONTACT}`, vars.KEY!))).name).not.toBe('Someone else');
      expect((await json(call('GET', `/watches/${vars.WATCH}`, vars.KEY!))).store_count).toBe(1);
    }, 240_000);
  });
}
