/**
 * The storelens command line. The only module that reads process.argv and process.env: it
 * parses the command line once into a frozen Config (flags, then environment, then defaults, as
 * declared in src/settings/table.ts) and hands it, with an Env, to the command, loaded lazily so
 * `storelens --help` stays instant.
 */
import { CommanderError } from 'commander';
import type { Env } from './core/env.js';
import { describeFailure, isCliError } from './core/errors.js';
import type { Config } from './settings/config.js';
import { buildProgram, type Invocation } from './settings/program.js';
import type { CommandName } from './settings/table.js';

export function defaultEnv(): Env {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr, stderrFd: 2, now: () => new Date() };
}

type Runner<C extends CommandName> = (config: Config<C>, args: readonly string[], env: Env) => Promise<unknown>;

const RUN: { [C in CommandName]: Runner<C> } = {
  generate: async (c, _, env) => (await import('./commands/generate.js')).runGenerate(c, env),
  publish: async (c, _, env) => (await import('./commands/publish.js')).runPublish(c, env),
  serve: async (c, _, env) => (await import('./commands/serve.js')).runServe(c, env),
  start: async (c, _, env) => (await import('./commands/start.js')).runStart(c, env),
  api: async (c, _, env) => (await import('./commands/api.js')).runApi(c, env),
  ingest: async (c, _, env) => (await import('./commands/ingest.js')).runIngest(c, env),
  worker: async (c, _, env) => (await import('./commands/worker.js')).runWorker(c, env),
  'workspaces create': async (c, [name], env) => (await import('./commands/admin-workspaces.js')).createWorkspaceCommand(name, c, env),
  'workspaces list': async (c, _, env) => (await import('./commands/admin-workspaces.js')).listWorkspacesCommand(c, env),
  'workspaces pilot': async (c, [state], env) => (await import('./commands/admin-workspaces.js')).pilotCommand(state as 'on' | 'off', c, env),
  'workspaces activate': async (c, [activation], env) => (await import('./commands/admin-workspaces.js')).activateCommand(activation, c, env),
  'workspaces profile': async (c, _, env) => (await import('./commands/admin-profile.js')).profileCommand(c, env),
  'workspaces wallet-visibility': async (c, [visibility], env) => (await import('./commands/admin-workspaces.js')).walletVisibilityCommand(visibility, c, env),
  'members add': async (c, _, env) => (await import('./commands/admin-members.js')).addMemberCommand(c, env),
  'members invite': async (c, _, env) => (await import('./commands/admin-members.js')).inviteMemberCommand(c, env),
  'members remove': async (c, [email], env) => (await import('./commands/admin-members.js')).removeMemberCommand(email, c, env),
  'members list': async (c, _, env) => (await import('./commands/admin-members.js')).listMembersCommand(c, env),
  'keys create': async (c, _, env) => (await import('./commands/admin-keys.js')).createKeyCommand(c, env),
  'keys list': async (c, _, env) => (await import('./commands/admin-keys.js')).listKeysCommand(c, env),
  'keys revoke': async (c, [keyId], env) => (await import('./commands/admin-keys.js')).revokeKeyCommand(keyId, c, env),
  'accounts import': async (c, [file], env) => (await import('./commands/admin-accounts.js')).importAccountsCommand(file, c, env),
  'wallet credit': async (c, [amount], env) => (await import('./commands/admin-wallet.js')).creditCommand(amount, c, env),
  'wallet rules': async (c, _, env) => (await import('./commands/admin-wallet.js')).rulesCommand(c, env),
  'wallet approve': async (c, [id], env) => (await import('./commands/admin-wallet.js')).decideCommand(id, 'approved', c, env),
  'wallet deny': async (c, [id], env) => (await import('./commands/admin-wallet.js')).decideCommand(id, 'denied', c, env),
  'outreach sender': async (c, _, env) => (await import('./commands/admin-outreach.js')).senderCommand(c, env),
  'oauth register': async (c, [clientId], env) => (await import('./commands/admin-oauth.js')).registerClientCommand(clientId, c, env),
  bench: async (c, _, env) => (await import('./commands/bench.js')).runBench(c, env),
};

async function dispatch(invocation: Invocation, env: Env): Promise<void> {
  await (RUN[invocation.command] as Runner<CommandName>)(invocation.config as Config<CommandName>, invocation.args, env);
}

/**
 * Parses `argv` without running anything: the command and its frozen Config, or null when
 * commander answered by itself (--help, --version) or refused the command line (exit code 2).
 */
export async function parseCommandLine(argv: readonly string[], env: Env): Promise<Invocation | null> {
  let parsed: Invocation | null = null;
  const program = buildProgram(env, async (invocation) => {
    parsed = invocation;
  });
  try {
    await program.parseAsync(argv);
  } catch (e) {
    if (e instanceof CommanderError) return null;
    throw e;
  }
  return parsed;
}

/** Runs the CLI; resolves to the process exit code. */
export async function main(argv: string[], env: Env = defaultEnv()): Promise<number> {
  const program = buildProgram(env, (invocation) => dispatch(invocation, env));
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (e) {
    if (e instanceof CommanderError) {
      return e.exitCode === 0 ? 0 : 2;
    }
    if (isCliError(e)) {
      env.stderr.write(`storelens: ${e.message}\n`);
      return e.exitCode;
    }
    const debug = program.opts().debug;
    env.stderr.write(`storelens: ${debug && e instanceof Error ? e.stack : describeFailure(e)}\n`);
    if (!debug) env.stderr.write('(run again with --debug for details)\n');
    return 1;
  }
}
