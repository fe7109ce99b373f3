import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { adminCli, seedAcme } from '../helpers/cli.js';
import { buildApiApp } from '../../src/compose/api-app.js';
import { countAccounts } from '../../src/accounts/store.js';
import { dialects, freshDb, type TestDb } from '../helpers/db.js';
import { suiteTempDir } from '../helpers/tmp.js';

for (const d of dialects) {
  describe.skipIf(d.skip)(`admin CLI on ${d.label}`, () => {
    let t: TestDb;
    let app: FastifyInstance;
    let base: string;
    let acmeId: string;
    const dir = suiteTempDir('storelens-cli-');

    const run = adminCli(() => t);

    beforeAll(async () => {
      t = await freshDb(d.name);
      app = await buildApiApp({ db: t.db });
      await app.listen({ port: 0, host: '127.0.0.1' });
      base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/api/v1`;
      acmeId = await seedAcme(run);
    });
    afterAll(async () => {
      await app?.close();
      await t?.cleanup();
    });

    it('creates a workspace and prints {id, name}; a duplicate name is bad input', async () => {
      const r = await run('workspaces', 'create', 'globex', '--json');
      expect(r.code).toBe(0);
      expect(r.json).toEqual({ id: expect.stringMatching(/^ws_/), name: 'globex' });
      const dup = await run('workspaces', 'create', 'globex', '--json');
      expect(dup.code).toBe(2);
      expect(dup.stderr).toMatch(/already exists/);
      // Names that differ only in case are one name: refused, and found either way.
      const cased = await run('workspaces', 'create', 'Globex', '--json');
      expect(cased.code).toBe(2);
      expect(cased.stderr).toBe('storelens: a workspace named "globex" already exists (names that differ only in case are one name)\n');
      expect((await run('members', 'list', 'GLOBEX', '--json')).json).toMatchObject({ workspace_id: r.json.id });
      const byId = await run('workspaces', 'create', r.json.id);
      expect(byId.code).toBe(2);
      expect(byId.stderr).toMatch(/is the id of workspace "globex"/);
    });

    it('records an activation named after the workspace or with --workspace, and refuses two different workspaces', async () => {
      const activations = async () => JSON.parse((await t.db.kysely.selectFrom('workspaces').select('activations').where('name', '=', 'acme').executeTakeFirstOrThrow()).activations) as string[];
      const a = await run('workspaces', 'activate', 'acme', 'growth_reports', '--json');
      expect(a.code).toBe(0);
      expect(a.json).toEqual({ workspace_id: expect.stringMatching(/^ws_/), activation: 'growth_reports' });
      expect(a.stderr).not.toMatch(/warning/);
      expect((await run('workspaces', 'activate', 'request_growth_report', '--workspace', 'acme')).stderr).not.toMatch(/warning/);
      // A name no operation needs is recorded (a later manifest may name it), saying so on stderr: most likely a typo.
      const typo = await run('workspaces', 'activate', 'growth_report', '--workspace', 'acme', '--json');
      expect(typo.code).toBe(0);
      expect(typo.json).toEqual({ workspace_id: expect.stringMatching(/^ws_/), activation: 'growth_report' });
      expect(typo.stderr).toContain('storelens: warning: no operation needs the activation "growth_report" now (named: growth_reports; or an operation id); recorded all the same\n');
      expect(await activations()).toEqual(expect.arrayContaining(['growth_reports', 'growth_report']));
      const both = await run('workspaces', 'activate', 'acme', 'x', '--workspace', 'globex');
      expect(both.code).toBe(2);
      expect(both.stderr).toMatch(/two workspaces/);
      const none = await run('workspaces', 'activate', 'growth_reports');
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(/name the workspace/);
    });

    // Each command that has always taken the workspace as its first argument, with arguments and
    // options that act: the same line with --workspace acme instead must do the same.
    it.each([
      ['workspaces activate', ['growth_reports'], []],
      ['workspaces profile', [], ['--as', 'owner@acme.test', '--countries', 'US,GB']],
      ['workspaces wallet-visibility', ['all'], ['--as', 'owner@acme.test']],
      ['members list', [], []],
      ['members remove', ['leaver@acme.test'], []],
      ['wallet credit', ['5'], ['--as', 'owner@acme.test', '--reason', 'top-up', '--idempotency-key', 'one-credit']],
      ['wallet rules', [], ['--as', 'owner@acme.test', '--monthly-cap', '200']],
      ['outreach sender', [], ['--as', 'owner@acme.test']],
    ])('%s: --workspace acme and acme as the first argument do the same; globex beside acme, or no workspace, is refused (exit 2)', async (name, rest, options) => {
      const words = name.split(' ');
      const leaver = async () => expect((await run('members', 'add', '--workspace', 'acme', '--email', 'leaver@acme.test', '--role', 'member')).code).toBe(0);
      const members = async () => ((await run('members', 'list', '--workspace', 'acme', '--json')).json as { members: { email: string }[] }).members.map((m) => m.email);
      if (name === 'members remove') await leaver();
      const withFlag = await run(...words, '--workspace', 'acme', ...rest, ...options, '--json');
      expect(withFlag.code, withFlag.stderr).toBe(0);
      expect(withFlag.json).toMatchObject({ workspace_id: acmeId });
      if (name === 'members remove') {
        expect(await members()).not.toContain('leaver@acme.test');
        await leaver();
      }
      const withArgument = await run(...words, 'acme', ...rest, ...options, '--json');
      expect(withArgument.code, withArgument.stderr).toBe(0);
      // The profile written again: its updated_at one millisecond past the first write's (the clock is fixed).
      expect(withArgument.json).toEqual(name === 'workspaces profile' ? { ...withFlag.json, updated_at: '2026-02-01T09:00:00.001Z' } : withFlag.json);
      if (name === 'members remove') {
        expect(await members()).not.toContain('leaver@acme.test');
        await leaver();
      }
      const conflict = await run(...words, 'acme', ...rest, '--workspace', 'globex', ...options);
      expect(conflict.code).toBe(2);
      expect(conflict.stderr).toMatch(/^storelens: two workspaces named: "acme" \(the first argument\) and "globex" \(--workspace\): give one\nUsage: /);
      const none = await run(...words, ...(name === 'workspaces wallet-visibility' ? [] : rest), ...options);
      expect(none.code).toBe(2);
      expect(none.stderr).toMatch(new RegExp(`^storelens: name the workspace: --workspace <w>, or as the first argument(?: and the [a-z]+)*\nUsage: storelens ${name} \\[options\\] \\(--workspace <w> \\| <workspace>\\)`));
      // Neither refusal changed anything.
      if (name === 'members remove') expect(await members()).toContain('leaver@acme.test');
    });

    it('still removes a member named after the workspace as its first argument: members remove W E', async () => {
      expect((await run('members', 'add', '--workspace', 'acme', '--email', 'old-script@acme.test', '--role', 'member')).code).toBe(0);
      const r = await run('members', 'remove', 'acme', 'old-script@acme.test', '--json');
      expect(r.code, r.stderr).toBe(0);
      expect(r.json).toMatchObject({ workspace_id: acmeId, email: 'old-script@acme.test', role: 'member' });
      expect((await run('members', 'list', 'acme')).stdout).not.toContain('old-script@acme.test');
    });

    it('lists every workspace, one a line, oldest first: name, id, date created, pilot access, activations', async () => {
      expect((await run('workspaces', 'pilot', 'on', '--workspace', 'globex')).code).toBe(0);
      const r = await run('workspaces', 'list', '--json');
      expect(r.code).toBe(0);
      const rows = await t.db.kysely.selectFrom('workspaces').select(['id', 'name', 'created_at']).execute();
      const byName = new Map(rows.map((w) => [w.name, w]));
      expect(r.json.workspaces).toHaveLength(rows.length);
      expect(r.json.workspaces).toEqual(
        expect.arrayContaining([
          { id: byName.get('acme')!.id, name: 'acme', created_at: byName.get('acme')!.created_at, pilot_access: false, activations: ['growth_report', 'growth_reports', 'request_growth_report'] },
          { id: byName.get('globex')!.id, name: 'globex', created_at: byName.get('globex')!.created_at, pilot_access: true, activations: [] },
        ]),
      );
      const order = (w: { created_at: string; id: string }) => `${w.created_at} ${w.id}`;
      const listed = r.json.workspaces.map(order);
      expect(listed).toEqual([...listed].sort());
      const text = await run('workspaces', 'list');
      expect(text.code).toBe(0);
      const lines = text.stdout.trimEnd().split('\n');
      expect(lines).toEqual(r.json.workspaces.map((w: { name: string; id: string; created_at: string }) => expect.stringMatching(new RegExp(`^${w.name}  ${w.id}  created ${w.created_at}  `))));
      expect(lines.find((l) => l.startsWith('acme '))).toMatch(/pilot off  activations growth_report,growth_reports,request_growth_report$/);
      expect(lines.find((l) => l.startsWith('globex '))).toMatch(/pilot on  activations none$/);
      // Nothing secret: no key, hash or member is printed.
      expect(text.stdout).not.toMatch(/slk_|@/);
    });

    it('lists no workspace in a new database, saying how to create one', async () => {
      const empty = await freshDb(d.name);
      try {
        const list = adminCli(() => empty);
        expect(await list('workspaces', 'list')).toMatchObject({ code: 0, stdout: 'No workspaces yet (create one with: storelens workspaces create NAME).\n' });
        expect((await list('workspaces', 'list', '--json')).json).toEqual({ workspaces: [] });
      } finally {
        await empty.cleanup();
      }
    });

    it('adds members with a role and prints {workspace_id, email, role}', async () => {
      const r = await run('members', 'add', '--workspace', 'acme', '--email', 'New@Acme.test', '--role', 'admin', '--json');
      expect(r.json).toEqual({ workspace_id: expect.stringMatching(/^ws_/), email: 'new@acme.test', role: 'admin' });
      expect((await run('members', 'add', '--workspace', 'acme', '--email', 'x@acme.test', '--role', 'king')).code).toBe(2);
      expect((await run('members', 'add', '--workspace', 'nope', '--email', 'x@acme.test', '--role', 'member')).code).toBe(2);
    });

    it('creates a key once, stored only as a hash, that works against the API', async () => {
      const r = await run('keys', 'create', '--workspace', 'acme', '--as', 'owner@acme.test', '--name', 'ci', '--access', 'read,write-outcomes', '--json');
      expect(r.code).toBe(0);
      expect(r.json).toEqual({
        id: expect.stringMatching(/^key_/),
        key: expect.stringMatching(/^slk_[0-9a-f]{12}_/),
        prefix: expect.stringMatching(/^slk_[0-9a-f]{12}$/),
        name: 'ci',
        scopes: ['read:accounts', 'read:watch', 'write:outcomes'],
        created_by: 'owner@acme.test',
      });
      expect(r.json.key.startsWith(r.json.prefix)).toBe(true);
      const stored = await t.db.kysely.selectFrom('api_keys').selectAll().where('id', '=', r.json.id).executeTakeFirstOrThrow();
      expect(JSON.stringify(stored)).not.toContain(r.json.key);
      const res = await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${r.json.key}` } });
      expect(res.status).toBe(200);
      const list = await run('keys', 'list', '--workspace', 'acme', '--json');
      expect(JSON.stringify(list.json)).not.toContain(r.json.key);
      expect(list.json.keys.find((k: any) => k.id === r.json.id)).toMatchObject({ prefix: r.json.prefix, last_used_at: expect.any(String), revoked_at: null });
    });

    it('refuses key creation and revocation by a plain member', async () => {
      const c = await run('keys', 'create', '--workspace', 'acme', '--as', 'member@acme.test', '--name', 'x', '--access', 'read');
      expect(c.code).toBe(2);
      expect(c.stderr).toMatch(/only an owner or admin/);
      const k = await run('keys', 'create', '--workspace', 'acme', '--as', 'admin@acme.test', '--name', 'y', '--access', 'reports', '--json');
      const rv = await run('keys', 'revoke', '--workspace', 'acme', '--as', 'member@acme.test', k.json.id);
      expect(rv.code).toBe(2);
      expect((await run('keys', 'create', '--workspace', 'acme', '--as', 'stranger@acme.test', '--name', 'x', '--access', 'read')).code).toBe(2);
    });

    it.each([
      ['no choice', ['--access', '']],
      ['an unknown choice', ['--access', 'read,admin']],
      ['an unknown scope', ['--access', 'read', '--scopes', 'root']],
    ])('rejects %s', async (_n, extra) => {
      const r = await run('keys', 'create', '--workspace', 'acme', '--as', 'owner@acme.test', '--name', 'x', ...extra);
      expect(r.code).toBe(2);
    });

    it('names both ways to give a key its scopes when neither is given, and the scopes there are when one is unknown', async () => {
      const none = await run('keys', 'create', '--workspace', 'acme', '--as', 'owner@acme.test', '--name', 'x');
      expect(none.code).toBe(2);
      expect(none.stderr).toContain('a key needs --access (one or more of read, write-outcomes, reports, comma-separated) or --scopes (e.g. manage:webhooks), or both');
      const unknown = await run('keys', 'create', '--workspace', 'acme', '--as', 'owner@acme.test', '--name', 'x', '--scopes', 'manage:everything');
      expect(unknown.code).toBe(2);
      expect(unknown.stderr).toContain('--scopes: "manage:everything" is not a scope of the API (read:accounts, ');
      expect(unknown.stderr).toContain('manage:webhooks');
    });

    it('grants further scopes only through --scopes', async () => {
      const r = await run('keys', 'create', '--workspace', 'acme', '--as', 'admin@acme.test', '--name', 'hooks', '--scopes', 'manage:webhooks', '--json');
      expect(r.json.scopes).toEqual(['manage:webhooks']);
      const all = await run('keys', 'create', '--workspace', 'acme', '--as', 'owner@acme.test', '--name', 'all', '--access', 'read,write-outcomes,reports', '--json');
      expect(all.json.scopes).toEqual(['read:accounts', 'read:watch', 'write:outcomes', 'generate:reports']);
    });

    it('revokes a key, after which the API answers 401', async () => {
      const k = await run('keys', 'create', '--workspace', 'acme', '--as', 'owner@acme.test', '--name', 'tmp', '--access', 'read', '--json');
      const rv = await run('keys', 'revoke', '--workspace', 'acme', '--as', 'admin@acme.test', k.json.id, '--json');
      expect(rv.code).toBe(0);
      expect(rv.json).toMatchObject({ id: k.json.id, revoked: true });
      const res = await fetch(`${base}/accounts`, { headers: { authorization: `Bearer ${k.json.key}` } });
      expect(res.status).toBe(401);
      expect((await run('keys', 'revoke', '--workspace', 'acme', '--as', 'admin@acme.test', 'key_unknown')).code).toBe(2);
    });

    it('imports NDJSON accounts, and writes nothing from a file with a bad line', async () => {
      const ws = await run('workspaces', 'create', 'importer', '--json');
      const good = join(dir, 'good.ndjson');
      writeFileSync(good, ['{"store_id":"s1","score":0.9,"domain":"a.example"}', '', '{"store_id":"s2","score":0.1,"in_market":false}'].join('\n'));
      const r = await run('accounts', 'import', good, '--workspace', ws.json.id, '--json');
      expect(r.json).toEqual({ workspace_id: ws.json.id, imported: 2, inserted: 2, updated: 0 });
      const bad = join(dir, 'bad.ndjson');
      writeFileSync(bad, '{"store_id":"s3","score":1}\n{"store_id":"s4"}\n');
      const b = await run('accounts', 'import', bad, '--workspace', 'importer');
      expect(b.code).toBe(2);
      expect(b.stderr).toContain('bad.ndjson: line 2: field score');
      expect(await countAccounts(t.db.kysely, ws.json.id)).toBe(2);
    });
  });
}
