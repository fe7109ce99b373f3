/** storelens members add */
import type { Env } from '../core/env.js';
import { CliError } from '../core/errors.js';
import { upsertMember } from '../workspaces/store.js';
import { inviteMember } from '../members/invite.js';
import type { Config } from '../settings/config.js';
import { output, requireWorkspace, withAdminDb } from './admin-db.js';

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export async function addMemberCommand(opts: Config<'members add'>, env: Env): Promise<void> {
  const email = opts.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new CliError(`--email: "${opts.email}" is not an email address`);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const m = await upsertMember(db.kysely, ws.id, email, opts.role, env.now());
    output(env, opts, { workspace_id: ws.id, email: m.email, role: m.role }, `${m.email} is now ${m.role} of ${ws.name}`);
  });
}

export async function inviteMemberCommand(opts: Config<'members invite'>, env: Env): Promise<void> {
  const email = opts.email.trim().toLowerCase();
  if (!EMAIL.test(email)) throw new CliError(`--email: "${opts.email}" is not an email address`);
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    const invite = await inviteMember(db, { workspaceId: ws.id, email, role: opts.role, baseUrl: opts.baseUrl, now: env.now() });
    output(env, opts, invite, `invite for ${invite.email} (${invite.role} of ${ws.name}), valid until ${invite.expires_at}:\n  ${invite.url}`);
  });
}
