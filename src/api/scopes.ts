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

/** Scopes only an owner or admin may hold on a key they created. */
export const OWNER_ADMIN_ONLY: readonly Scope[] = ['manage:webhooks'];

/** The scopes for a key: self-serve choices plus operator-granted scopes, sorted, no duplicates. */
export function keyScopes(access: readonly AccessChoice[], extra: readonly Scope[] = []): Scope[] {
  const set = new Set<Scope>(extra);
  for (const a of access) for (const s of ACCESS_CHOICES[a]) set.add(s);
  return SCOPES.filter((s) => set.has(s));
}
