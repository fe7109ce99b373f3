/**
 * storelens workspaces profile --workspace W (or profile W) — sets (or clears, or prints) the workspace's target profile,
 * owner or admin only. A changed profile changes which stores are the workspace's accounts;
 * the api's ranking refresh notices workspace_profiles.updated_at.
 */
import type { Kysely } from 'kysely';
import { Profile } from '../accounts/profile.js';
import type { Database } from '../db/database.js';
import { latestMonthValues } from '../ingest/index.js';
import type { Env } from '../core/env.js';
import { COUNTRY_SAYS, countryCode } from '../core/country.js';
import { keptText } from '../core/text.js';
import { CliError } from '../core/errors.js';
import { getProfile, setProfile, type WorkspaceProfile } from '../accounts/profile-store.js';
import type { Config } from '../settings/config.js';
import { output, requireOwnerOrAdmin, requireWorkspace, withAdminDb, writeAsOwnerOrAdmin } from './admin-db.js';
import { OUTSIDE_INPUT } from '../core/missing-input.js';

type ProfileOptions = Config<'workspaces profile'>;

/**
 * A comma-separated flag value as a list: items kept as the panel keeps its text (core/text.ts:
 * blanks trimmed, Unicode NFC), so an item written as the panel file writes it matches the
 * panel's value; none empty.
 */
function list(flag: string, raw: string): string[] {
  const items = raw.split(',').map((s) => keptText(s) ?? '');
  if (items.some((s) => s === '')) throw new CliError(`${flag}: empty item in "${raw}" (comma-separated, no empty entries)`);
  return [...new Set(items)];
}

/** The profile the options describe, or undefined when they describe none (print only). */
export function profileFromOptions(opts: ProfileOptions): Profile | null | undefined {
  const given: Profile = {};
  if (opts.countries !== undefined) {
    const countries = list('--countries', opts.countries).map((c) => {
      const code = countryCode(c);
      if (code === null) throw new CliError(`--countries: "${c}" ${COUNTRY_SAYS}`);
      return code;
    });
    given.countries = [...new Set(countries)];
  }
  // One category as written (not split at commas), kept as the panel keeps its text.
  const one = (opts.category ?? []).map((c) => keptText(c));
  if (one.some((c) => c === null)) throw new CliError('--category: must not be empty');
  const categories = [...(opts.categories !== undefined ? list('--categories', opts.categories) : []), ...(one as string[])];
  if (categories.length) given.categories = [...new Set(categories)];
  if (opts.plans !== undefined) given.plans = list('--plans', opts.plans);
  const bounds = [
    ['--min-visits', '--max-visits', 'min_visits', 'max_visits', opts.minVisits, opts.maxVisits],
    ['--min-revenue', '--max-revenue', 'min_revenue_usd', 'max_revenue_usd', opts.minRevenue, opts.maxRevenue],
    ['--min-products', '--max-products', 'min_products', 'max_products', opts.minProducts, opts.maxProducts],
  ] as const;
  for (const [minFlag, maxFlag, minKey, maxKey, min, max] of bounds) {
    if (min !== undefined && max !== undefined && min > max) throw new CliError(`${minFlag} ${min} is above ${maxFlag} ${max}`);
    if (min !== undefined) given[minKey] = min;
    if (max !== undefined) given[maxKey] = max;
  }
  const any = Object.keys(given).length > 0;
  if (opts.clear) {
    if (any) throw new CliError('--clear: give either --clear or profile options, not both');
    return null;
  }
  if (!any) return undefined;
  const r = Profile.safeParse(given, OUTSIDE_INPUT);
  if (!r.success) {
    const issue = r.error.issues[0]!;
    throw new CliError(`profile ${issue.path.join('.')}: ${issue.message}`);
  }
  return r.data;
}

function describe(p: WorkspaceProfile, name: string): string {
  if (!p.profile) return `${name} has no profile: it sees every store.`;
  const lines = Object.entries(p.profile).map(([k, v]) => `  ${k}: ${Array.isArray(v) ? JSON.stringify(v) : String(v)}`);
  return `Profile of ${name} (updated ${p.updated_at}):\n${lines.join('\n')}`;
}

export async function profileCommand(opts: ProfileOptions, env: Env): Promise<void> {
  const profile = profileFromOptions(opts);
  const as = opts.as;
  await withAdminDb(opts, env, async (db) => {
    const ws = await requireWorkspace(db, opts.workspace);
    await requireOwnerOrAdmin(db, ws, as, 'set the profile');
    const stored =
      profile === undefined
        ? await getProfile(db.kysely, ws.id)
        : await writeAsOwnerOrAdmin(db, ws, as, 'set the profile', (trx) => setProfile(trx, ws.id, profile, env.now()));
    if (profile) for (const w of await unseenValues(db.kysely, profile)) env.stderr.write(`warning: ${w}\n`);
    output(env, opts, { workspace_id: ws.id, profile: stored.profile, updated_at: stored.updated_at }, describe(stored, ws.name));
  });
}

const LISTS = [
  ['countries', '--countries', 'country'],
  ['categories', '--categories', 'category'],
  ['plans', '--plans', 'plan'],
] as const;

/**
 * The values of a profile's lists that no store of the latest ingested month has: compared
 * exactly, `Apparel` keeps out every `apparel` store, and a workspace set so would see none of
 * them without a word. Said (with the value differing only in case or spaces, when there is one),
 * not refused: a profile may name a value the panel does not hold yet. Nothing is said before an ingest.
 */
async function unseenValues(q: Kysely<Database>, profile: Profile): Promise<string[]> {
  if (!LISTS.some(([key]) => profile[key]?.length)) return [];
  const seen = await latestMonthValues(q);
  if (!seen) return [];
  const out: string[] = [];
  for (const [key, flag, column] of LISTS) {
    for (const v of profile[key] ?? []) {
      if (seen.values[column].has(v)) continue;
      const near = [...seen.values[column]].find((s) => s.trim().toLowerCase() === v.trim().toLowerCase());
      out.push(
        `${flag}: no store of ${seen.month} (the latest month ingested) has the ${column} ${JSON.stringify(v)}: values are compared exactly` +
          `${near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`}; the workspace sees no store of it`,
      );
    }
  }
  return out;
}
