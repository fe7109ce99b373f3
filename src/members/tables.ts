/**
 * Table types of the members aggregate: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import { migration as m0012MembersAuth } from './migrations/0012-members-auth.js';
import type { Selectable } from 'kysely';
import type { Role } from './roles.js';

export interface MembersTable {
  workspace_id: string;
  email: string;
  role: Role;
  created_at: string;
}

export interface MemberLoginsTable {
  email: string;
  password_hash: string;
  updated_at: string;
}

export interface MemberInvitesTable {
  token_hash: string;
  workspace_id: string;
  email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface MemberSessionsTable {
  token_hash: string;
  email: string;
  csrf: string;
  created_at: string;
  expires_at: string;
}

export type Member = Selectable<MembersTable>;

/** The members tables, by name: part of the workspace database (compose/database.ts). */
export interface MembersTables {
  members: MembersTable;
  member_logins: MemberLoginsTable;
  member_invites: MemberInvitesTable;
  member_sessions: MemberSessionsTable;
}

/** The migrations that created and changed these tables (some early ones created other aggregates' tables too), by the key each is recorded under. */
export const membersMigrations = {
  '0012_members_auth': m0012MembersAuth,
};
