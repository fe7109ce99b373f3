/** storelens workspaces create | list | pilot | activate | wallet-visibility */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { isUniqueViolation } from '../db/errors.js';
import { addActivation, createWorkspace, findWorkspace, listWorkspaces, setPilotAccess } from '../workspaces/store.js';
import { setWalletVisibility, WALLET_VISIBILITIES, walletVisibility, type WalletVisibility } from '../workspaces/store.js';
import { stopWorkspaceEnrollments } from '../outreach/store.js';
import type { Config } from '../settings/config.js';
import { output, requireOwnerOrAdmin, requireWorkspace, withAdminDb, writeAsOwnerOrAdmin } from './admin-db.js';

export async function createWorkspaceCommand(name: string, opts: Config<'workspaces create'>, env: Env): Promise<void> {
  const trimmed = name.trim();
  if (!trimmed) throw new CliError('workspace name must not be empty');
  // The first command of a new installation (README, getting started): it creates the database.
  await withAdminDb(opts, env, async (db) => {
    const taken = (other: string) => new CliError(`a workspace named "${other}" already exists${other === trimmed ? '' : ` (names that differ only in case are one name)`}`);
    const existing = await findWorkspace(db.kysely, trimmed);
    if (existing?.id === trimmed) throw new CliError(`"${trimmed}" is the id of workspace "${existing.name}": give the new workspace another name`);
    if (existing) throw taken(existing.name);
    // The unique name key decides a race with another process creating the same name.
    const ws = await createWorkspace(db.kysely, trimmed, env.now()).catch(async (e: unknown) => {
      const winner = isUniqueViolation(e) ? await findWorkspace(db.kysely, trimmed) : undefined;
      throw winner ? taken(winner.name) : e;
    });
    output(env, opts, { id: ws.id, name: ws.name }, `Created workspace ${ws.name} (${ws.id})`);
  }, { create: true });
}

/** Every workspace, one a line: name, id, when it was created, pilot access, activations (nothing secret). */
export async function listWorkspacesCommand(opts: Config<'workspaces list'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const workspaces = (await listWorkspaces(db.kysely)).map((ws) => ({
      id: ws.id,
      name: ws.name,
      created_at: ws.created_at,
      pilot_access: ws.pilot_access === 1,
      activations: JSON.parse(ws.activations) as string[],
    }));
    const text = workspaces.length
      ? workspaces
          .map((ws) => `${ws.name}  ${ws.id}  created ${ws.created_at}  pilot ${ws.pilot_access ? 'on' : 'off'}  activations ${ws.activations.length ? ws.activations.join(',') : 'none'}`)
          .join('\n')
      : 'No workspaces yet (create one with: storelens workspaces create NAME).';
    output(env, opts, { workspaces }, text);
  });
}

export async function pilotCommand(state: 'on' | 'off', opts: Config<'workspaces pilot'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    // Withdrawn, the workspace's outreach stops with it, in the same transaction.
    const stopped = await db.write(async (trx) => {
      await setPilotAccess(trx, ws.id, state === 'on');
      return state === 'off' ? stopWorkspaceEnrollments(trx, ws.id, 'pilot access was withdrawn', env.now()) : 0;
    });
    const also = stopped ? `; ${stopped} running outreach enrollment${stopped === 1 ? '' : 's'} stopped` : '';
    output(env, opts, { workspace_id: ws.id, pilot_access: state === 'on', stopped_enrollments: stopped }, `Pilot access ${state} for ${ws.name}${also}`);
  });
}

/** `activate NAME --workspace W` (or `activate W NAME`: src/settings/program.ts reads both). */
export async function activateCommand(activation: string, opts: Config<'workspaces activate'>, env: Env): Promise<void> {
  const { activationNeeded, namedActivations } = await import('../compose/modules.js');
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await db.write((trx) => addActivation(trx, ws.id, activation));
    // Recorded for good (no command withdraws one): a name no operation needs is most likely a typo.
    if (!activationNeeded(activation)) {
      env.stderr.write(`storelens: warning: no operation needs the activation "${activation}" now (named: ${namedActivations().join(', ')}; or an operation id); recorded all the same\n`);
    }
    output(env, opts, { workspace_id: ws.id, activation }, `Activated ${activation} for ${ws.name}`);
  });
}

const VISIBILITY_TEXT: Record<WalletVisibility, string> = {
  owners: 'only owners and admins may read the wallet',
  all: 'every member may read the wallet',
};

/** The visibility given on the command line, or undefined when none was (print only). */
export function parseWalletVisibility(raw: string | undefined): WalletVisibility | undefined {
  if (raw === undefined) return undefined;
  if (!(WALLET_VISIBILITIES as readonly string[]).includes(raw)) {
    throw new CliError(`visibility: "${raw}" is not one of ${WALLET_VISIBILITIES.join(', ')} (owners: owners and admins only; all: every member)`);
  }
  return raw as WalletVisibility;
}

/**
 * `wallet-visibility [owners|all] --workspace W` (or `wallet-visibility W [owners|all]`): whether a member (role `member`) signed in through the
 * assistant connector gets read:wallet (members/grants.ts). Owner or admin only; without a
 * value, prints it.
 */
export async function walletVisibilityCommand(raw: string | undefined, opts: Config<'workspaces wallet-visibility'>, env: Env): Promise<void> {
  const visibility = parseWalletVisibility(raw);
  const as = opts.as;
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await requireOwnerOrAdmin(db, ws, as, visibility === undefined ? 'see the wallet visibility' : 'set the wallet visibility');
    if (visibility !== undefined) {
      await writeAsOwnerOrAdmin(db, ws, as, 'set the wallet visibility', (trx) => setWalletVisibility(trx, ws.id, visibility));
    }
    const stored = await walletVisibility(db.kysely, ws.id);
    output(env, opts, { workspace_id: ws.id, wallet_visibility: stored }, `Wallet visibility of ${ws.name}: ${stored} (${VISIBILITY_TEXT[stored]})`);
  });
}
