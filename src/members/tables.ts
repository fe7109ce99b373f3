/**
 * Table types of the members module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { Selectable } from 'kysely';
import type { Role } from '../core/roles.js';

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

/** Failed sign-ins of one account or client address (members/signin-throttle.ts). */
export interface SigninThrottleTable {
  /** 'registration': an address's OAuth client registrations (oauth/provider.ts), counted the same way. */
  kind: 'account' | 'address' | 'registration';
  /** sha256 of the normalized email or of the address. */
  key: string;
  /** Attempts counted since the last success (or since the count was forgotten). */
  failures: number;
  last_failure_ms: number;
  /** No attempt is checked before this. */
  locked_until_ms: number;
}

export type Member = Selectable<MembersTable>;

/** The members tables, by name: added to the workspace database (db/database.ts) below. */
export interface MembersTables {
  members: MembersTable;
  member_logins: MemberLoginsTable;
  member_invites: MemberInvitesTable;
  member_sessions: MemberSessionsTable;
  signin_throttle: SigninThrottleTable;
}


declare module '../db/database.js' {
  // The members tables join the workspace database (db/database.ts).
  interface Database extends MembersTables {}
}
