/** Roles of a workspace member. Only an owner or admin creates and revokes API keys. */
export const ROLES = ['owner', 'admin', 'member'] as const;

export type Role = (typeof ROLES)[number];
