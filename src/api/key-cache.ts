/**
 * The keys an api process on PostgreSQL has looked up, remembered so that a call costs no round
 * trip to find its key (with its workspace and its creator's role). Every change to what such a
 * lookup reads announces its workspace when it commits (migration 0026: a key revoked, a member
 * removed, a workspace's data versions moved by a re-rank …); this process then forgets that
 * workspace's keys, and its next call looks them up again. So a revocation takes effect here as
 * soon as its notice arrives, milliseconds after the commit. While the notices are not heard (the
 * listening connection is down or not yet up) nothing is remembered and every call looks its key
 * up, as without the cache; an entry is also never older than MAX_AGE_MS.
 *
 * Only keys that exist are remembered (an unknown key is looked up every time), at most
 * MAX_ENTRIES of them.
 */
import type { Kysely } from 'kysely';
import type { Database, Db } from '../compose/database.js';
import { listenForNotices, type Notices } from '../db/notices.js';
import { findKeyByHash, type KeyWithWorkspace } from './keys-store.js';

export const AUTH_CHANNEL = 'storelens_auth';
const MAX_ENTRIES = 10_000;
const MAX_AGE_MS = 60_000;

/** Finds a key by its hash (keys-store.ts findKeyByHash, or a cache in front of it). */
export type KeyLookup = (q: Kysely<Database>, hash: string) => Promise<KeyWithWorkspace | undefined>;

export interface KeyCache {
  find: KeyLookup;
  /** Starts listening now (else the first lookup does); resolves once the first attempt answered. */
  ready(): Promise<void>;
  close(): Promise<void>;
}

interface Entry {
  found: KeyWithWorkspace;
  until: number;
}

/**
 * A cache of key lookups over `db` (PostgreSQL), forgetting a workspace's keys when it changes.
 * It starts listening at its first lookup (a process that serves no call holds no connection for it).
 */
export function keyCache(db: Db): KeyCache {
  const url = db.options.databaseUrl;
  if (db.dialect !== 'postgres' || !url) throw new Error('the key cache needs PostgreSQL');
  const entries = new Map<string, Entry>();
  /** Moves on every notice: a lookup that started before one may have read what it changed. */
  let generation = 0;
  let notices: Notices | undefined;
  let starting: Promise<Notices> | undefined;
  let closed = false;
  const start = () =>
    (starting ??= listenForNotices(url, AUTH_CHANNEL, {
      notice(workspaceId) {
        generation++;
        for (const [hash, e] of entries) if (e.found.workspace.id === workspaceId) entries.delete(hash);
      },
      reset() {
        generation++;
        entries.clear();
      },
    }).then((n) => (notices = n)));
  return {
    async find(q, hash) {
      if (!notices?.live) {
        if (!closed) start().catch(() => undefined);
        return findKeyByHash(q, hash);
      }
      const hit = entries.get(hash);
      if (hit && hit.until > Date.now()) return hit.found;
      const started = generation;
      const found = await findKeyByHash(q, hash);
      if (found && started === generation && notices.live) {
        if (entries.size >= MAX_ENTRIES) entries.delete(entries.keys().next().value!);
        entries.set(hash, { found, until: Date.now() + MAX_AGE_MS });
      }
      return found;
    },
    ready: () => start().then(() => undefined),
    async close() {
      closed = true;
      await (await starting?.catch(() => undefined))?.close();
    },
  };
}
