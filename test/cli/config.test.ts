/**
 * Each command receives one frozen Config: a flag wins over its environment variable, which wins
 * over the default; a bad environment value is bad usage (exit 2) naming the variable.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main, parseCommandLine } from '../../src/cli.js';
import type { Env } from '../../src/core/env.js';
import { COMMANDS, type CommandDef, type CommandName, argumentUsage, settingsOf } from '../../src/settings/table.js';
import { capturedEnv } from '../helpers/cli.js';

async function parse(args: string[], vars: Env['env'] = {}) {
  const c = capturedEnv(undefined, vars);
  const invocation = await parseCommandLine(['node', 'storelens', ...args], c.env);
  return { invocation, stderr: c.stderr() };
}

describe('the Config of a command', () => {
  it('holds every setting of serve, from the defaults when no flag is given, frozen', async () => {
    const { invocation } = await parse(['serve']);
    expect(invocation).toEqual({
      command: 'serve',
      args: [],
      config: { out: 'output', port: 8080, host: '127.0.0.1', api: false, db: 'storelens.db', opsPort: undefined, opsHost: '127.0.0.1', readinessTimeout: 2, logLevel: 'info', logFormat: undefined, runs: '.storelens/runs', databaseUrl: undefined, webhooksAllowLocal: false, secretKey: undefined, previousSecretKey: undefined, validateResponses: false },
    });
    expect(Object.isFrozen(invocation!.config)).toBe(true);
    expect(() => {
      (invocation!.config as { port: number }).port = 1;
    }).toThrow(TypeError);
  });

  it('takes the flags given, parsed', async () => {
    const { invocation } = await parse(['serve', '--port', '0', '--host', '::1', '--api', '--db', 'x.db', '--out', 'pub', '--runs', 'private/runs', '--readiness-timeout', '0.75']);
    expect(invocation!.config).toEqual({ out: 'pub', port: 0, host: '::1', api: true, db: 'x.db', opsPort: undefined, opsHost: '127.0.0.1', readinessTimeout: 0.75, logLevel: 'info', logFormat: undefined, runs: 'private/runs', databaseUrl: undefined, webhooksAllowLocal: false, secretKey: undefined, previousSecretKey: undefined, validateResponses: false });
  });

  it('listens on 8081 for api alone and 8080 for serve and start', async () => {
    expect((await parse(['api'])).invocation!.config).toMatchObject({ port: 8081 });
    expect((await parse(['start'])).invocation!.config).toMatchObject({ port: 8080 });
  });

  it('reads DATABASE_URL for every command that opens the workspace database', async () => {
    const url = 'postgres://u@127.0.0.1:5432/db';
    for (const args of [['serve', '--api'], ['start'], ['api'], ['keys', 'list', '--workspace', 'w'], ['workspaces', 'create', 'acme']]) {
      expect((await parse(args, { DATABASE_URL: url })).invocation!.config, args.join(' ')).toMatchObject({ databaseUrl: url });
    }
    expect((await parse(['publish', '--input', 'p', '--all'], { DATABASE_URL: url })).invocation!.config).not.toHaveProperty('databaseUrl');
  });

  it.each(['mysql://u@127.0.0.1/db', 'postgres:/127.0.0.1/db', '127.0.0.1:5432/db', 'postgres://u:s3cret@[127.0.0.1/db', 'postgres://u:s3cret@127.0.0.1:port/db'])(
    'exits 2 on a DATABASE_URL that is not a PostgreSQL URL (%s), naming it, instead of opening the SQLite file',
    async (url) => {
      const dir = mkdtempSync(join(tmpdir(), 'storelens-dburl-'));
      const c = capturedEnv(undefined, { DATABASE_URL: url });
      const code = await main(['node', 'storelens', 'keys', 'list', '--workspace', 'w', '--db', join(dir, 'x.db')], c.env);
      expect(code).toBe(2);
      expect(c.stderr()).toMatch(/DATABASE_URL: not a postgres:\/\/ or postgresql:\/\/ URL/);
      expect(c.stderr()).not.toContain(url);
      expect(existsSync(join(dir, 'x.db'))).toBe(false);
      rmSync(dir, { recursive: true, force: true });
    },
  );

  it('leaves DATABASE_URL alone for serve without --api, which opens no database', async () => {
    const { invocation } = await parse(['serve'], { DATABASE_URL: 'mysql://u@127.0.0.1/db' });
    expect(invocation).toMatchObject({ command: 'serve', config: { api: false } });
  });

  it('takes postgresql:// as well as postgres://', async () => {
    const url = 'postgresql://u@127.0.0.1:5432/db';
    expect((await parse(['api'], { DATABASE_URL: url })).invocation!.config).toMatchObject({ databaseUrl: url });
  });

  it('passes the positional arguments beside the Config', async () => {
    const { invocation } = await parse(['keys', 'revoke', '--workspace', 'acme', '--as', 'a@acme.test', 'key_1']);
    expect(invocation).toMatchObject({ command: 'keys revoke', args: ['key_1'], config: { workspace: 'acme', as: 'a@acme.test', json: false } });
  });

  it('prefers a flag to its environment variable, and the variable to the default', async () => {
    const vars = { BENCH_STORES: '5000', BENCH_ONLY: 'serve,api' };
    expect((await parse(['bench'], vars)).invocation!.config).toMatchObject({ stores: 5000, ingestStores: 5000, only: ['serve', 'api'], from: '2025-10', data: 'bench-data' });
    expect((await parse(['bench', '--stores', '7'], vars)).invocation!.config).toMatchObject({ stores: 7, only: ['serve', 'api'] });
    const defaults = (await parse(['bench'])).invocation!.config;
    expect(defaults).toMatchObject({ stores: 1_000_000, ingestStores: 20_000, rankingAccounts: 200_000, only: ['publish', 'serve', 'cards', 'api', 'ingest', 'learning', 'ranking', 'webhooks', 'scaleout'] });
    expect(Object.isFrozen((defaults as { only: unknown }).only)).toBe(true);
  });

  it('turns the webhook local-development setting on only when asked: the flag, or the variable set to a yes', async () => {
    expect((await parse(['worker'])).invocation!.config).toMatchObject({ webhooksAllowLocal: false });
    expect((await parse(['worker', '--webhooks-allow-local'])).invocation!.config).toMatchObject({ webhooksAllowLocal: true });
    for (const yes of ['1', 'true', 'on', 'yes']) expect((await parse(['api'], { STORELENS_WEBHOOKS_ALLOW_LOCAL: yes })).invocation!.config).toMatchObject({ webhooksAllowLocal: true });
    for (const no of ['0', 'false', 'off', 'no']) expect((await parse(['api'], { STORELENS_WEBHOOKS_ALLOW_LOCAL: no })).invocation!.config).toMatchObject({ webhooksAllowLocal: false });
    const c = capturedEnv(undefined, { STORELENS_WEBHOOKS_ALLOW_LOCAL: 'maybe' });
    expect(await main(['node', 'storelens', 'worker'], c.env)).toBe(2);
    expect(c.stderr()).toMatch(/STORELENS_WEBHOOKS_ALLOW_LOCAL: "maybe" is not one of/);
  });

  it.each([
    ['BENCH_STORES', '1e3', /BENCH_STORES: "1e3" is not a positive integer/],
    ['BENCH_FROM', '2025-13', /BENCH_FROM: "2025-13" is not a month/],
    ['BENCH_ONLY', 'serve,nope', /BENCH_ONLY: "nope" is not one of publish, serve, cards, api/],
  ])('exits 2 on a bad %s, naming it, and runs nothing', async (name, value, message) => {
    const c = capturedEnv(undefined, { [name]: value });
    const code = await main(['node', 'storelens', 'bench'], c.env);
    expect(code).toBe(2);
    expect(c.stderr()).toMatch(message);
    expect(c.stdout()).toBe('');
  });

  it('is null when commander answers by itself or refuses the command line', async () => {
    expect((await parse(['serve', '--help'])).invocation).toBeNull();
    const refused = await parse(['serve', '--port', 'x']);
    expect(refused.invocation).toBeNull();
    expect(refused.stderr).toMatch(/--port/);
  });
});

describe('the server key (STORELENS_SECRET_KEY)', () => {
  const SECRET = 'hunter2-not-a-key';

  it.each([
    ['worker', 'STORELENS_SECRET_KEY'],
    ['api', 'STORELENS_SECRET_KEY_PREVIOUS'],
    ['outreach sender', 'STORELENS_SECRET_KEY'],
  ])('that is not 32 bytes is bad usage for %s (exit 2), naming %s without its value, before the database is opened', async (command, variable) => {
    const dir = mkdtempSync(join(tmpdir(), 'storelens-key-'));
    try {
      const c = capturedEnv(undefined, { [variable]: SECRET });
      const extra = command === 'outreach sender' ? ['w', '--as', 'o@example.com', '--url', 'https://sender.example/steps'] : [];
      const code = await main(['node', 'storelens', ...command.split(' '), ...extra, '--db', join(dir, 'x.db')], c.env);
      expect(code).toBe(2);
      expect(c.stderr()).toBe(`storelens: ${variable}: is not 32 bytes written as 64 hex digits or base64 (the value is not shown)\n`);
      expect(existsSync(join(dir, 'x.db'))).toBe(false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('is read by outreach sender, which seals the signing secret under it, and its --help says so', async () => {
    const key = 'ab'.repeat(32);
    const { invocation } = await parse(['outreach', 'sender', 'w', '--as', 'o@example.com'], { STORELENS_SECRET_KEY: key });
    expect(invocation?.config).toMatchObject({ secretKey: key });
    const c = capturedEnv();
    await main(['node', 'storelens', 'outreach', 'sender', '--help'], c.env);
    expect(c.stdout()).toMatch(/^ {2}STORELENS_SECRET_KEY +server key/m);
  });
});

describe('the workspace, named with --workspace or as the first argument', () => {
  /** The commands that have always taken the workspace as their first argument (scripts use it). */
  const FIRST_IS_WORKSPACE = ['workspaces activate', 'workspaces profile', 'workspaces wallet-visibility', 'members remove', 'members list', 'wallet credit', 'wallet rules', 'outreach sender'];
  const firstIsWorkspace = FIRST_IS_WORKSPACE.map((name) => (COMMANDS as readonly CommandDef[]).find((c) => c.name === name)!);

  it('is taken both ways by every command that took it as its first argument, and by no other', () => {
    expect((COMMANDS as readonly CommandDef[]).filter((c) => c.args?.some((a) => a.orOption)).map((c) => c.name)).toEqual(FIRST_IS_WORKSPACE);
    // Every command of one workspace takes --workspace; those above take the argument too.
    const withFlag = COMMANDS.filter((c) => settingsOf(c.name).some((s) => s.name === 'workspace' && s.flag === '--workspace')).map((c) => c.name);
    expect(withFlag.sort()).toEqual([...firstIsWorkspace.map((c) => c.name), 'workspaces pilot', 'members add', 'members invite', 'keys create', 'keys list', 'keys revoke', 'accounts import'].sort());
  });

  /** A command line of `def` but for the workspace: each other argument, and the required options other than --workspace. */
  function lineOf(def: CommandDef, { optional = true } = {}) {
    const rest = (def.args ?? []).slice(1).filter((a) => optional || !a.optional).map((a) => a.choices?.[0] ?? `${a.name}-value`);
    const options = settingsOf(def.name as CommandName)
      .filter((s) => s.required && s.flag && s.name !== 'workspace')
      .flatMap((s) => [s.flag!, s.value.arg === 'email' ? 'owner@acme.test' : 'x']);
    const usage = `Usage: storelens ${def.name} [options] (--workspace <w> | <workspace>)${(def.args ?? []).slice(1).map((a) => ` ${argumentUsage(a)}`).join('')}`;
    return { words: def.name.split(' '), rest, options, usage };
  }

  /** The command's required arguments after the workspace, and how a message one short names them. */
  const required = (def: CommandDef) => (def.args ?? []).slice(1).filter((a) => !a.optional);
  const others = (def: CommandDef) => (required(def).length ? ` and the ${required(def).map((a) => a.name).join(' and the ')}` : '');

  it.each(firstIsWorkspace.map((c) => [c.name, c]))('%s: --workspace W and W as the first argument are one command line', async (_, def) => {
    const { words, rest, options } = lineOf(def);
    const withFlag = await parse([...words, '--workspace', 'acme', ...rest, ...options]);
    const flagLast = await parse([...words, ...rest, ...options, '--workspace', 'acme']);
    const withArgument = await parse([...words, 'acme', ...rest, ...options]);
    const bothTheSame = await parse([...words, 'acme', ...rest, '--workspace', 'acme', ...options]);
    expect(withFlag.stderr).toBe('');
    expect(withFlag.invocation).toMatchObject({ command: def.name, args: rest, config: { workspace: 'acme' } });
    for (const other of [flagLast, withArgument, bothTheSame]) expect(other.invocation).toEqual(withFlag.invocation);
  });

  it.each(firstIsWorkspace.map((c) => [c.name, c]))('%s: two different workspaces named both ways are refused, naming both (exit 2)', async (name, def) => {
    const { words, rest, options, usage } = lineOf(def);
    const c = capturedEnv();
    expect(await main(['node', 'storelens', ...words, 'acme', ...rest, '--workspace', 'globex', ...options], c.env)).toBe(2);
    expect(c.stderr()).toBe(`storelens: two workspaces named: "acme" (the first argument) and "globex" (--workspace): give one\n${usage}\n(see: storelens ${name} --help)\n`);
    expect(c.stdout()).toBe('');
  });

  it.each(firstIsWorkspace.map((c) => [c.name, c]))('%s: no workspace either way is refused with the usage line (exit 2), STORELENS_WORKSPACE or not', async (name, def) => {
    const { words, rest, options, usage } = lineOf(def, { optional: false });
    for (const vars of [{}, { STORELENS_WORKSPACE: 'acme' }]) {
      const c = capturedEnv(undefined, vars);
      expect(await main(['node', 'storelens', ...words, ...rest, ...options], c.env)).toBe(2);
      expect(c.stderr()).toBe(`storelens: name the workspace: --workspace <w>, or as the first argument${others(def)}\n${usage}\n(see: storelens ${name} --help)\n`);
    }
  });

  it.each(firstIsWorkspace.filter((c) => required(c).length > 0).map((c) => [c.name, c]))('%s: one argument short names the workspace and what follows it (either may be the one missing)', async (name, def) => {
    const { words, usage } = lineOf(def, { optional: false });
    const c = capturedEnv();
    expect(await main(['node', 'storelens', ...words, 'acme'], c.env)).toBe(2);
    expect(c.stderr()).toBe(`storelens: name the workspace: --workspace <w>, or as the first argument${others(def)}\n${usage}\n(see: storelens ${name} --help)\n`);
  });

  it.each(firstIsWorkspace.map((c) => [c.name, c]))('%s: --help says both ways', async (name, def) => {
    const { usage } = lineOf(def);
    const c = capturedEnv();
    expect(await main(['node', 'storelens', ...name.split(' '), '--help'], c.env)).toBe(0);
    const words = (def.args ?? []).slice(1).map((a) => ` ${argumentUsage(a)}`).join('');
    expect(c.stdout()).toContain(usage);
    expect(c.stdout()).toContain(`\n  storelens ${name} --workspace W${words}\n  storelens ${name} W${words}\n`);
  });

  it('reads the first argument as the flag value is read: an empty one is refused as --workspace "" is', async () => {
    const c = capturedEnv();
    expect(await main(['node', 'storelens', 'members', 'list', ''], c.env)).toBe(2);
    expect(c.stderr()).toMatch(/^storelens: command-argument value '' is invalid for argument 'workspace'\. "" is empty/);
  });

  it('reads the arguments after the workspace as the others: with --workspace, `wallet-visibility all` sets all; without, `wallet-visibility W` prints W', async () => {
    expect((await parse(['workspaces', 'wallet-visibility', 'all', '--workspace', 'acme', '--as', 'o@acme.test'])).invocation).toMatchObject({ args: ['all'], config: { workspace: 'acme' } });
    expect((await parse(['workspaces', 'wallet-visibility', 'acme', '--as', 'o@acme.test'])).invocation).toMatchObject({ args: [], config: { workspace: 'acme' } });
    const missing = await parse(['members', 'remove', '--workspace', 'acme']);
    expect(missing.invocation).toBeNull();
    expect(missing.stderr).toMatch(/^storelens: missing required argument 'email'\nUsage: storelens members remove /);
    const tooMany = await parse(['members', 'list', 'acme', 'globex']);
    expect(tooMany.invocation).toBeNull();
    expect(tooMany.stderr).toMatch(/too many arguments/);
  });

  it('is read from no environment variable: every workspace setting has a flag and no variable', () => {
    for (const c of COMMANDS) for (const s of settingsOf(c.name).filter((s) => s.name === 'workspace')) expect(s.env, c.name).toBeUndefined();
  });
});
