/**
 * What a member signed in through the assistant connector may do, derived from their current
 * role and the workspace's wallet visibility at every call (SPEC, Authentication rule 6).
 */
import { SCOPES, type Scope } from '../api/scopes.js';
import type { WalletVisibility } from '../workspaces/store.js';
import type { Role } from '../core/roles.js';

/** What a member holds only by role or by the workspace's wallet visibility (memberGrants). */
const GATED: readonly Scope[] = ['read:wallet', 'manage:webhooks'];

/** Day-to-day access of every active member: every scope but the gated ones. */
export const MEMBER_GRANTS: readonly Scope[] = SCOPES.filter((s) => !GATED.includes(s));

const isOwnerOrAdmin = (role: Role | null): boolean => role === 'owner' || role === 'admin';

/** The grants of a member with `role` (none when no longer a member). */
export function memberGrants(role: Role | null, wallet: WalletVisibility): Scope[] {
  if (role === null) return [];
  const grants: Scope[] = [...MEMBER_GRANTS];
  if (wallet === 'all' || isOwnerOrAdmin(role)) grants.push('read:wallet');
  if (isOwnerOrAdmin(role)) grants.push('manage:webhooks');
  return grants;
}
