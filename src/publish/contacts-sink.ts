/**
 * The contact source sink: the contacts file beside the panel (contacts/source.ts), checked
 * before anything is written and carried into the private runs folder only, never into the
 * public output. The runs sink writes it just before it switches the runs index.
 */
import { stat } from 'node:fs/promises';
import path from 'node:path';
import { CONTACTS_DATA, contactsDir, contactsToCarry, findContactsFile, pruneContactsRuns, writeContactsRun, type CarryScratch } from '../contacts/source.js';
import { identityOf, rememberedContacts, type FileClock, type HashCache } from './hash-cache.js';

/** What changes about the contact source in the runs folder: the id to name (null: none any more) and the data to write. */
export type CarriedContacts = NonNullable<Awaited<ReturnType<typeof contactsToCarry>>>;

/**
 * contactsToCarry, skipping the read and check of a contact file whose identity is the one
 * remembered with the id the runs index already names (and whose folder is there). `next` (the
 * hash cache this run keeps) remembers the file once it has settled. With `scratch`, the checked
 * source waits in a file there (not in memory) until writeContactSource moves it in.
 */
export async function carryContacts(input: string, runsDir: string, current: string | undefined, read: HashCache, next: HashCache, now?: FileClock, scratch?: CarryScratch): Promise<CarriedContacts | undefined> {
  const file = await findContactsFile(input);
  if (!file) return contactsToCarry(input, runsDir, current);
  const known = await rememberedContacts(read, file);
  if (known !== undefined && known === current && (await stat(path.join(contactsDir(runsDir, known), CONTACTS_DATA)).then(() => true, () => false))) {
    next.contacts = read.contacts;
    return undefined;
  }
  const before = await identityOf(file, now);
  const carried = await contactsToCarry(input, runsDir, current, scratch);
  const id = carried ? carried.id : (current ?? null);
  const after = await identityOf(file, now);
  if (id !== null && after.identity === before.identity && after.settled) next.contacts = { file: path.resolve(file), identity: before.identity, id };
  return carried;
}

/** Writes the carried source's data (when the panel has one) into the runs folder. */
export async function writeContactSource(runsDir: string, contacts: CarriedContacts, progress: (message: string) => void): Promise<void> {
  if (!contacts.data) return;
  progress(`writing the contact source to ${runsDir}`);
  await writeContactsRun(runsDir, contacts.data);
}

/** Removes every contact source but the one the runs index now names. */
export async function pruneContactSources(runsDir: string, contacts: CarriedContacts): Promise<void> {
  await pruneContactsRuns(runsDir, contacts.id);
}
