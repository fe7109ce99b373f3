/** storelens members add | invite | remove | list */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { inviteMember } from '../members/invite.js';
import { MembershipRefused, setMemberRole } from '../members/owners.js';
import { listMembers, removeMembership } from '../members/remove.js';
import { revokeMemberGrants } from '../oauth/store.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function addMemberCommand(opts: Config<'members add'>, env: Env): Promise<void> {
  const email = opts.email;
  if (!EMAIL.test(email)) throw new CliError(`--email: "${opts.email}" is not an email address`);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    let m;
    try {
      m = await setMemberRole(db, { workspaceId: ws.id, email, role: opts.role, now: env.now() });
    } catch (e) {
      if (e instanceof MembershipRefused) throw new CliError(`cannot make ${email} ${opts.role} of workspace "${ws.name}": ${e.message}`);
      throw e;
    }
    output(env, opts, { workspace_id: ws.id, email: m.email, role: m.role }, `${m.email} is now ${m.role} of ${ws.name}`);
  });
}

export async function inviteMemberCommand(opts: Config<'members invite'>, env: Env): Promise<void> {
  const email = opts.email;
  if (!EMAIL.test(email)) throw new CliError(`--email: "${opts.email}" is not an email address`);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const invite = await inviteMember(db, { workspaceId: ws.id, email, role: opts.role, baseUrl: opts.baseUrl, now: env.now() });
    output(env, opts, invite, `invite for ${invite.email} (${invite.role} of ${ws.name}), valid until ${invite.expires_at}:\n  ${invite.url}`);
  });
}

export async function removeMemberCommand(rawEmail: string, opts: Config<'members remove'>, env: Env): Promise<void> {
  const email = rawEmail.trim().toLowerCase();
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    let r;
    try {
      r = await removeMembership(db, { workspaceId: ws.id, email, now: env.now() }, { revokeAssistantGrants: revokeMemberGrants });
    } catch (e) {
      if (e instanceof MembershipRefused) throw new CliError(`cannot remove ${email} from workspace "${ws.name}": ${e.message} (see: storelens members list --workspace ${ws.name})`);
      throw e;
    }
    const keys = r.revoked_keys.length;
    output(
      env,
      opts,
      r,
      `Removed ${r.email} (${r.role}) from ${ws.name}: ${keys} API key${keys === 1 ? '' : 's'} revoked, ${r.sessions_ended} browser session${r.sessions_ended === 1 ? '' : 's'} ended, ${r.assistant_grants_revoked} assistant grant${r.assistant_grants_revoked === 1 ? '' : 's'} revoked.`,
    );
  });
}

export async function listMembersCommand(opts: Config<'members list'>, env: Env): Promise<void> {
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const members = await listMembers(db.kysely, ws.id);
    const text = members.length ? members.map((m) => `${m.email}  ${m.role}  added ${m.created_at}`).join('\n') : `No members in ${ws.name}.`;
    output(env, opts, { workspace_id: ws.id, members }, text);
  });
}
