/** storelens workspaces create | pilot | activate */
import type { Env } from '../env.js';
import { CliError } from '../errors.js';
import { addActivation, createWorkspace, findWorkspace, setPilotAccess } from '../db/workspaces.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';

export async function createWorkspaceCommand(name: string, opts: Config<'workspaces create'>, env: Env): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) throw new CliError('workspace name must not be empty');
  await withAdminDb(opts, env, async (db) => {
    if (await findWorkspace(db.kysely, trimmed)) throw new CliError(`a workspace named "${trimmed}" already exists`);
    const ws = await createWorkspace(db.kysely, trimmed, env.now());
    output(env, opts, { id: ws.id, name: ws.name }, `Created workspace ${ws.name} (${ws.id})`);
  });
}

export async function pilotCommand(state: 'on' | 'off', opts: Config<'workspaces pilot'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await setPilotAccess(db.kysely, ws.id, state === 'on');
    output(env, opts, { workspace_id: ws.id, pilot_access: state === 'on' }, `Pilot access ${state} for ${ws.name}`);
  });
}

/** `activate W NAME`, or `activate NAME --workspace W`. */
export async function activateCommand(args: readonly string[], opts: Config<'workspaces activate'>, env: Env): Promise<void> {
  const [first, second] = args;
  const { workspace, activation } = second === undefined ? { workspace: opts.workspace, activation: first } : { workspace: first, activation: second };
  if (workspace === undefined) throw new CliError('name the workspace: storelens workspaces activate W ACTIVATION (or --workspace W)');
  if (second !== undefined && opts.workspace !== undefined && opts.workspace !== first) {
    throw new CliError(`two workspaces named: "${first}" and --workspace "${opts.workspace}"`);
  }
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, workspace);
    await db.write((trx) => addActivation(trx, ws.id, activation));
    output(env, opts, { workspace_id: ws.id, activation }, `Activated ${activation} for ${ws.name}`);
  });
}
