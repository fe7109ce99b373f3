/**
 * The server's generated secrets (the cursor signing key, the OAuth signing key and cookie key,
 * the generated key of the secret box): values every process of one database must share, made
 * by whichever process asks first. They live in the kernel table shipped as `settings`.
 */
import type { Kysely } from 'kysely';
import type { KernelTables } from './tables.js';

// Any database that holds the kernel's tables (each module's executor does).
type Q = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/** The stored secret `name`, if one was made. */
export async function storedServerSecret(q: Q, name: string): Promise<string | undefined> {
  const k = q as Kysely<KernelTables>;
  return (await k.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirst())?.value;
}

/**
 * The stored secret `name`, made with make() and stored if no process has made it yet: the
 * primary key makes processes asking first at once agree on one (the others' inserts do nothing
 * and they read the winner's). Once made it is only read: no key made and no write per start.
 */
export async function serverSecret(q: Q, name: string, make: () => string): Promise<string> {
  const stored = await storedServerSecret(q, name);
  if (stored !== undefined) return stored;
  const k = q as Kysely<KernelTables>;
  await k
    .insertInto('settings')
    .values({ name, value: make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return (await storedServerSecret(q, name))!;
}
