/** Small shared settings (e.g. the cursor signing key) that every api process must agree on. */
import type { Db } from './index.js';
import type { KernelTables } from './tables.js';

/**
 * The stored value, created with make() by whichever process asks first. (Still takes the Db,
 * not an executor: its one caller, the api plugin, is being reshaped; it passes db.kysely next.)
 */
export async function getOrCreateSetting(anyDb: Db<any>, name: string, make: () => string): Promise<string> {
  const db = anyDb as Db<KernelTables>;
  await db.kysely
    .insertInto('settings')
    .values({ name, value: make() })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const row = await db.kysely.selectFrom('settings').select('value').where('name', '=', name).executeTakeFirstOrThrow();
  return row.value;
}
