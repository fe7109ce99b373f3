/**
 * The log of a serving process after a walk-through an operator's users make — an API key
 * created with the CLI and used, outcomes recorded, a webhook endpoint registered (its signing
 * secret) and its test event delivered signed, a member signing in with a password (a session
 * cookie), an assistant connecting over MCP with OAuth (a code, its verifier, access and refresh
 * tokens) — at the most verbose level: every line parses as JSON, each request is one line
 * naming its id, operation, status, duration, workspace and key id, and not one secret the
 * walk-through used appears anywhere in the log. `X-Request-Id` is taken when safe, made when
 * not, and named in problem bodies.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport, UnauthorizedError } from '@modelcontextprotocol/client';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { runApi } from '../../src/commands/api.js';
import { openDatabase } from '../../src/compose/database.js';
import { hashPassword } from '../../src/members/passwords.js';
import { setPasswordHash } from '../../src/members/store.js';
import { call, freshIdem, workspace } from '../helpers/api.js';
import { HttpBrowser, MemoryProvider } from '../helpers/oauth.js';
import { adminCli, capturedEnv } from '../helpers/cli.js';
import { spawnStorelens } from '../helpers/api-processes.js';
import { startReceiver, verify } from '../helpers/receiver.js';
import { tempDirs } from '../helpers/tmp.js';
import { until } from '../helpers/wait.js';

const dirs = tempDirs('storelens-logs-');
afterAll(() => dirs.removeAll());

const PASSWORD = 'correct horse battery staple 7';

describe('the log of a walk-through', () => {
  it('is JSON lines, one per request with its fields, and holds none of the secrets used', async () => {
    const dir = await dirs.make();
    const file = join(dir, 'api.db');
    const seed = await openDatabase({ dbPath: file });
    const ws = await workspace(seed);
    await setPasswordHash(seed.kysely, 'owner@example.com', await hashPassword(PASSWORD), new Date());
    await seed.close();
    const admin = adminCli(() => ({ dbPath: file }));
    const created = await admin('keys', 'create', '--workspace', ws.id, '--as', 'owner@example.com', '--name', 'walk', '--access', 'read,write-outcomes', '--scopes', 'manage:webhooks', '--json');
    expect(created.code, created.stderr).toBe(0);
    const key: string = created.json.key;
    const secrets: string[] = [key, PASSWORD];

    const env = capturedEnv(new Date(), {});
    const api = await runApi({ port: 0, host: '127.0.0.1', db: file, webhooksAllowLocal: true, logLevel: 'trace', logFormat: 'json', runs: join(dir, 'runs'), out: join(dir, 'out') }, env.env, false);
    const receiver = await startReceiver({ tls: false, host: '127.0.0.1' });
    const origin = new URL(api.url).origin;
    try {
      // Keys and outcomes.
      expect((await call(api.url, 'GET', '/accounts?limit=2', { key, headers: { 'x-request-id': 'walk-1' } })).headers.get('x-request-id')).toBe('walk-1');
      expect((await call(api.url, 'POST', '/outcomes', { key, idem: freshIdem(), body: { store_id: 'store-1', action: 'won', value: 1200 } })).status).toBeLessThan(300);
      // Webhooks with their signing secret.
      const hook = await call(api.url, 'POST', '/webhooks', { key, idem: freshIdem(), body: { url: receiver.url('/hook') } });
      expect(hook.status, JSON.stringify(hook.body)).toBe(201);
      secrets.push(hook.body.secret);
      expect((await call(api.url, 'POST', `/webhooks/${hook.body.id}/test`, { key, idem: freshIdem() })).status).toBeLessThan(300);
      await until(() => receiver.received.length > 0);
      expect(verify(hook.body.secret, receiver.received[0]!)).toBeTruthy();
      secrets.push(receiver.received[0]!.signature);
      // Sign-in: a password, a session cookie.
      const browser = new HttpBrowser(origin);
      const signin = await fetch(`${origin}/signin`);
      const csrf = /name="csrf" value="([^"]*)"/.exec(await signin.text())![1]!;
      const cookie = signin.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const signed = await fetch(`${origin}/signin`, { method: 'POST', redirect: 'manual', headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', origin }, body: new URLSearchParams({ csrf, email: 'owner@example.com', password: PASSWORD, next: '/integrations' }).toString() });
      expect(signed.status).toBe(303);
      for (const c of signed.headers.getSetCookie()) secrets.push(c.split(';')[0]!.split('=').slice(1).join('='));
      // MCP with OAuth: a code, its verifier, an access and a refresh token.
      const provider = new MemoryProvider('Walk-through assistant');
      const transport = () => new StreamableHTTPClientTransport(new URL(`${api.url}/mcp`), { authProvider: provider });
      await expect(new Client({ name: 'walk', version: '1.0.0' }).connect(transport())).rejects.toBeInstanceOf(UnauthorizedError);
      const params = await browser.authorize(provider.authorizationUrl!, { email: 'owner@example.com', password: PASSWORD, workspaceId: ws.id });
      secrets.push(params.get('code')!, provider.codeVerifier());
      await transport().finishAuth(params.get('code')!, params.get('iss')!);
      secrets.push(provider.tokens().access_token, provider.tokens().refresh_token);
      const client = new Client({ name: 'walk', version: '1.0.0' });
      await client.connect(transport());
      const tools = await client.listTools();
      expect(tools.tools.length).toBeGreaterThan(0);
      expect((await client.callTool({ name: 'list_accounts', arguments: { limit: 1 } })).isError).toBeFalsy();
      await client.close();
      // X-Request-Id: an unsafe one is replaced; a problem body names the request.
      const unsafe = await fetch(`${api.url}/accounts`, { headers: { 'x-request-id': 'bad id\twith "quotes"' } });
      const made = unsafe.headers.get('x-request-id')!;
      expect(made).toMatch(/^[0-9a-f-]{36}$/);
      expect(await unsafe.json()).toMatchObject({ status: 401, request_id: made });
      const tooLong = await fetch(`${api.url}/accounts`, { headers: { 'x-request-id': 'x'.repeat(129) } });
      expect(tooLong.headers.get('x-request-id')).not.toBe('x'.repeat(129));
    } finally {
      await api.close();
      await receiver.close();
    }

    const text = env.stderr();
    const lines = text.split('\n').filter((l) => l !== '');
    expect(lines.length).toBeGreaterThan(10);
    const entries = lines.map((l) => {
      try {
        return JSON.parse(l) as Record<string, any>;
      } catch {
        throw new Error(`not a JSON line: ${l}`);
      }
    });
    for (const s of secrets) {
      expect(s.length).toBeGreaterThan(8);
      expect(text, 'a secret of the walk-through is in the log').not.toContain(s);
    }
    const requests = entries.filter((e) => e.msg === 'request');
    const first = requests.find((e) => e.reqId === 'walk-1');
    expect(first).toMatchObject({ level: 'info', operation: 'list_accounts', method: 'GET', status: 200, workspace: ws.id, key_id: created.json.id });
    expect(typeof first!.duration_ms).toBe('number');
    expect(requests.map((r) => r.operation)).toEqual(expect.arrayContaining(['record_outcome', 'register_webhook', 'test_webhook', '/signin', '/oauth/*', '/oauth/interaction/:uid', 'mcp']));
    // An MCP request is named by the tool it called (an operation id), with the caller and the tool's own status.
    expect(requests.find((e) => e.operation === 'mcp:list_accounts')).toMatchObject({ status: 200, tool_status: 200, workspace: ws.id, key_id: expect.any(String) });
    expect(requests.filter((e) => e.operation === '/api/v1/mcp')).toEqual([]);
    // Background work is logged too, as JSON.
    expect(entries.some((e) => e.process === 'storelens api' && /re-ranked|ingest|applied migrations/.test(e.msg))).toBe(true);
  }, 60_000);

  it('loses no line on SIGTERM: every request answered before the signal is in the log of the stopped process', async () => {
    const dir = await dirs.make();
    // The command line writes its log through a buffered destination on stderr (ops/logger.ts).
    const p = spawnStorelens({ dbPath: join(dir, 'api.db') }, ['api', '--port', '0', '--host', '127.0.0.1', '--requests-only', '--log-format', 'json']);
    const api = (await p.waitFor(/storelens api: (http:\/\/\S+\/api\/v1)/))[1]!;
    const ids = Array.from({ length: 200 }, (_, i) => `before-sigterm-${i}`);
    const answered = await Promise.all(ids.map((id) => fetch(`${api}/accounts`, { headers: { 'x-request-id': id } }).then((r) => r.status)));
    expect(new Set(answered)).toEqual(new Set([401]));
    p.child.kill('SIGTERM');
    expect(await p.exited).toEqual({ code: 0, signal: null });
    // Every line is JSON: before, Node 20 also got oidc-provider's console warning about the runtime as plain text.
    const lines = p.stderr().split('\n').filter((l) => l !== '');
    expect(lines.filter((l) => !l.startsWith('{'))).toEqual([]);
    const entries = lines.map((l) => JSON.parse(l) as Record<string, any>);
    const logged = new Set(entries.filter((e) => e.msg === 'request').map((e) => e.reqId));
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
    expect(entries.at(-1)!.msg).toBe('storelens api: stopped (SIGTERM)');
  }, 60_000);

  it('tells failures of the background work at warn, so `--log-level warn` (no request lines) still shows them', async () => {
    const dir = await dirs.make();
    const file = join(dir, 'w.db');
    await (await openDatabase({ dbPath: file })).close();
    // A runs folder whose index publish never wrote: every ingest fails.
    mkdirSync(join(dir, 'runs'));
    writeFileSync(join(dir, 'runs', 'index.json'), 'not json');
    const p = spawnStorelens({ dbPath: file }, ['worker', '--log-level', 'warn', '--log-format', 'json', '--runs', join(dir, 'runs'), '--out', join(dir, 'out')]);
    try {
      const warned = (re: RegExp) => until(() => p.stderr().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l) as Record<string, any>).find((e) => re.test(e.msg)));
      expect(await warned(/^storelens worker: ingest: /)).toMatchObject({ level: 'warn', process: 'storelens worker' });
      // A table the delivery reads is gone (another process broke the database): every turn of the task fails.
      const db = await openDatabase({ dbPath: file });
      await db.write((trx) => sql`alter table outbox_sequences rename to outbox_sequences_gone`.execute(trx));
      await db.close();
      // Before: both lines were written at info, so at `--log-level warn` the log said nothing.
      expect(await warned(/^storelens worker: deliver failed \(will retry\): /)).toMatchObject({ level: 'warn' });
    } finally {
      await p.stop();
    }
  }, 60_000);
});
