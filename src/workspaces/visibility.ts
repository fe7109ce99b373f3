/**
 * Whether a store is visible to a workspace (in its current ranking): the accounts module answers
 * it (accounts/module.ts registers it), and the modules that write about a store (deals,
 * contacts) ask it first, so they need not import the module above them.
 */
import type { Kysely } from 'kysely';
import type { Database } from '../db/database.js';

export type StoreVisibility = (q: Kysely<Database>, workspaceId: string, storeId: string) => Promise<boolean>;

let answer: StoreVisibility | undefined;

/** Registers the one answer (the accounts module's). */
export function answerStoreVisibility(fn: StoreVisibility): void {
  answer = fn;
}

/** Whether `storeId` is one of the workspace's accounts, read in `q` (the caller's transaction). */
export function storeVisible(q: Kysely<Database>, workspaceId: string, storeId: string): Promise<boolean> {
  if (!answer) throw new Error('no module answers store visibility (accounts/module.ts registers it)');
  return answer(q, workspaceId, storeId);
}
