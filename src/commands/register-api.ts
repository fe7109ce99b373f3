/**
 * Registers the api and administration commands: api, workspaces, members, keys, accounts.
 * Every admin command takes `--db PATH` (or DATABASE_URL) and `--json` (exactly one JSON
 * object on stdout; logs and migration notes on stderr). Implementations load lazily.
 */
import { Argument, type Command, Option } from 'commander';
import type { Env } from '../env.js';

const ROLES = ['owner', 'admin', 'member'];

const dbOption = () => new Option('--db <path>', 'SQLite file (ignored when DATABASE_URL is set)').default('storelens.db');
const jsonOption = () => new Option('--json', 'print exactly one JSON object on stdout');

function admin(cmd: Command): Command {
  return cmd.addOption(dbOption()).addOption(jsonOption());
}

export function registerApiCommands(program: Command, env: Env): void {
  program
    .command('api')
    .description('serve the workspace REST API (/api/v1) over the database')
    .option('--port <port>', 'port', (v) => Number(v), 8081)
    .option('--host <host>', 'interface to listen on', '127.0.0.1')
    .addOption(dbOption())
    .action(async (opts) => {
      const { runApi } = await import('./api.js');
      await runApi(opts, env);
    });

  const workspaces = program.command('workspaces').description('administer workspaces');
  admin(workspaces.command('create').argument('<name>', 'unique workspace name').description('create a workspace')).action(async (name, opts) => {
    const { createWorkspaceCommand } = await import('./admin-workspaces.js');
    await createWorkspaceCommand(name, opts, env);
  });
  admin(
    workspaces
      .command('pilot')
      .description('grant or withdraw approved pilot access (pilot operations)')
      .requiredOption('--workspace <w>', 'workspace id or name')
      .addArgument(new Argument('<state>', 'on or off').choices(['on', 'off'])),
  ).action(async (state, opts) => {
    const { pilotCommand } = await import('./admin-workspaces.js');
    await pilotCommand(state, opts, env);
  });
  admin(
    workspaces
      .command('activate')
      .description('record an activation for activation-gated operations (e.g. growth_reports)')
      .requiredOption('--workspace <w>', 'workspace id or name')
      .argument('<activation>', 'activation name'),
  ).action(async (activation, opts) => {
    const { activateCommand } = await import('./admin-workspaces.js');
    await activateCommand(activation, opts, env);
  });

  const members = program.command('members').description('administer workspace members');
  admin(
    members
      .command('add')
      .description('add a member to a workspace (or change their role)')
      .requiredOption('--workspace <w>', 'workspace id or name')
      .requiredOption('--email <email>', 'member email')
      .addOption(new Option('--role <role>', 'workspace role').choices(ROLES).makeOptionMandatory()),
  ).action(async (opts) => {
    const { addMemberCommand } = await import('./admin-members.js');
    await addMemberCommand(opts, env);
  });

  const keys = program.command('keys').description('administer API keys (owner or admin only)');
  admin(
    keys
      .command('create')
      .description('create an API key; the key is printed once')
      .requiredOption('--workspace <w>', 'workspace id or name')
      .requiredOption('--as <email>', 'the owner or admin creating the key')
      .requiredOption('--name <name>', 'a name for the key')
      .option('--access <list>', 'self-serve choices, comma-separated: read, write-outcomes, reports')
      .option('--scopes <list>', 'operator grant of further scopes, comma-separated (e.g. manage:webhooks)'),
  ).action(async (opts) => {
    const { createKeyCommand } = await import('./admin-keys.js');
    await createKeyCommand(opts, env);
  });
  admin(keys.command('list').description('list the keys of a workspace (never the secrets)').requiredOption('--workspace <w>', 'workspace id or name')).action(
    async (opts) => {
      const { listKeysCommand } = await import('./admin-keys.js');
      await listKeysCommand(opts, env);
    },
  );
  admin(
    keys
      .command('revoke')
      .description('revoke a key')
      .requiredOption('--workspace <w>', 'workspace id or name')
      .requiredOption('--as <email>', 'the owner or admin revoking the key')
      .argument('<key-id>', 'key id or prefix'),
  ).action(async (keyId, opts) => {
    const { revokeKeyCommand } = await import('./admin-keys.js');
    await revokeKeyCommand(keyId, opts, env);
  });

  const accounts = program.command('accounts').description('load scored accounts (demos and tests)');
  admin(
    accounts
      .command('import')
      .description('import NDJSON accounts: one object per line with at least store_id and score')
      .requiredOption('--workspace <w>', 'workspace id or name')
      .argument('<file>', 'NDJSON file'),
  ).action(async (file, opts) => {
    const { importAccountsCommand } = await import('./admin-accounts.js');
    await importAccountsCommand(file, opts, env);
  });
}
