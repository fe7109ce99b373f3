/** SPEC's scope table and the self-serve key form (three independent choices). */

export const SCOPES = [
  'read:accounts',
  'read:wallet',
  'read:watch',
  'write:watch',
  'write:outcomes',
  'write:deals',
  'write:contacts',
  'generate:reports',
  'write:outreach',
  'manage:webhooks',
] as const;

export type Scope = (typeof SCOPES)[number];

export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'read:accounts': 'Search scored accounts; read account, deal, contact and signal data. The published current-list operation is unavailable in the wallet-live state.',
  'read:wallet': 'Read wallet balance, usage, pricing, approvals and standing rules (supervision data)',
  'read:watch': 'Read managed, self-directed and client watch state, health, events, receipts and briefs',
  'write:watch': 'Resize or cancel managed watch; add or remove self-directed and client watches',
  'write:outcomes': 'Record outreach outcomes',
  'write:deals': "Create, update, move and note deals; set an account's status",
  'write:contacts': 'Create, update and discover contacts',
  'generate:reports': 'Request growth reports when the operation is available',
  'write:outreach': 'Enroll and stop stores in outreach cadences during the approved pilot',
  'manage:webhooks': 'Register endpoints for signed deal, contact, store, signal and watch-health events',
};

/** The self-serve key form: each choice and the scopes it grants. */
export const ACCESS_CHOICES = {
  read: ['read:accounts', 'read:watch'],
  'write-outcomes': ['write:outcomes'],
  reports: ['generate:reports'],
} as const satisfies Record<string, readonly Scope[]>;

export type AccessChoice = keyof typeof ACCESS_CHOICES;

export const isScope = (s: string): s is Scope => (SCOPES as readonly string[]).includes(s);
export const isAccessChoice = (s: string): s is AccessChoice => Object.hasOwn(ACCESS_CHOICES, s);

/** Scopes of the self-serve key form. */
export const SELF_SERVE_SCOPES: readonly Scope[] = SCOPES.filter((s) => Object.values(ACCESS_CHOICES).some((c) => (c as readonly Scope[]).includes(s)));

/**
 * Scopes a plain member could not grant (everything outside the self-serve form): a key holds
 * them only while its creator is an owner or admin of the workspace — checked on every call.
 */
export const OWNER_ADMIN_ONLY: readonly Scope[] = SCOPES.filter((s) => !SELF_SERVE_SCOPES.includes(s));

const canGrantAll = (role: string | null): boolean => role === 'owner' || role === 'admin';

/**
 * Why a key may not use `scope` now (the detail of a 403), or undefined when it may: the key
 * lacks it, or it is owner/admin-only and the key's creator no longer is one.
 */
export function scopeRefusal(scope: Scope, held: readonly string[], creatorRole: string | null, creator: string): string | undefined {
  if (!held.includes(scope)) return `This operation needs the scope ${scope}, which this key lacks.`;
  if (!canGrantAll(creatorRole) && OWNER_ADMIN_ONLY.includes(scope)) {
    return `This operation needs the scope ${scope}, which a key keeps only while its creator is an owner or admin of the workspace; ${creator} is now a ${creatorRole ?? 'non-member'}.`;
  }
  return undefined;
}

/** The scopes for a key: self-serve choices plus operator-granted scopes, sorted, no duplicates. */
export function keyScopes(access: readonly AccessChoice[], extra: readonly Scope[] = []): Scope[] {
  const set = new Set<Scope>(extra);
  for (const a of access) for (const s of ACCESS_CHOICES[a]) set.add(s);
  return SCOPES.filter((s) => set.has(s));
}
