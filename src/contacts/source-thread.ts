/**
 * Worker-thread entry of the contact source's check (publish/contacts-sink.ts): reads and checks
 * the contacts file workerData names and posts back its runs-folder form (or what is wrong with
 * it), so that a publish checks its contacts beside the panel's reads rather than before them.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { CliError } from '../core/errors.js';
import { contactsData, readContactsFile } from './source.js';

export type ContactsCheckAnswer = { id: string; bytes: Uint8Array } | { problem: string; exitCode: 1 | 2 } | { failure: string };

async function check(file: string): Promise<ContactsCheckAnswer> {
  try {
    return contactsData(await readContactsFile(file));
  } catch (e) {
    if (e instanceof CliError) return { problem: e.message, exitCode: e.exitCode };
    return { failure: e instanceof Error ? (e.stack ?? e.message) : String(e) };
  }
}

parentPort!.postMessage(await check(workerData as string));
