/**
 * The keys an api process on PostgreSQL has looked up, remembered so that a call costs no round
 * trip to find its key, its creator's role and its workspace. Every change to what such a lookup
 * reads announces itself when it commits (migration 0026): a key revoked or a member removed or
 * changed (`api_keys`, `members`: this process forgets that workspace's keys), a workspace's
 * pilot access, activations or data versions moved by a re-rank (`workspaces`: it forgets the
 * workspace row only, which the next call reads again, once for all its keys). So a revocation
 * takes effect here as soon as its notice arrives, milliseconds after the commit. While the
 * notices are not heard (the listening connection is down or not yet up) nothing is remembered
 * and every call looks its key up, as without the cache; an entry is never older than MAX_AGE_MS.
 *
 * Only keys that exist are remembered (an unknown key is looked up every time), at most
 * MAX_ENTRIES of them.
 *
 * On SQLite (no notices) a process remembers the keys it looked up with the number of the
 * database's auth revision row at the lookup (migration 0030: its triggers move it with every
 * change such a lookup reads, in the change's own transaction). Every call reads that one
 * number, and looks its key up again when it moved: a revocation committed by any process or
 * thread takes effect at the very next call everywhere, as without the cache. The calls of one
 * turn of the event loop share that read (revisionCache).
 */
import type { Kysely } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { Database, Db } from '../db/database.js';
import { listenForNotices, type Notices } from '../db/notices.js';
import type { Workspace } from '../workspaces/tables.js';
import { authRevision, findKeyByHash, findWorkspaceById, type KeyWithWorkspace } from './keys-store.js';

export const AUTH_CHANNEL = 'storelens_auth';
/** Keys and workspaces each cache holds, the least recently used out first. */
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

interface KeyEntry {
  key: KeyWithWorkspace['key'];
  creatorRole: KeyWithWorkspace['creatorRole'];
  workspaceId: string;
  until: number;
}

interface WorkspaceEntry {
  workspace: Workspace;
  until: number;
}

/**
 * A cache of key lookups over `db`. On PostgreSQL it starts listening at its first lookup (a
 * process that serves no call holds no connection for it); on SQLite it checks the auth revision.
 */
export function keyCache(db: Db): KeyCache {
  if (db.dialect !== 'postgres') return revisionCache();
  const url = db.options.databaseUrl;
  if (!url) throw new Error('the key cache needs a PostgreSQL url');
  const keys = new LRUCache<string, KeyEntry>({ max: MAX_ENTRIES });
  const workspaces = new LRUCache<string, WorkspaceEntry>({ max: MAX_ENTRIES });
  /** Workspace rows being read again, so that the calls of its keys meanwhile share one read. */
  const reading = new Map<string, Promise<Workspace | undefined>>();
  // Each moves on a notice of its kind: a lookup that started before one may have read what it changed.
  let keysGeneration = 0;
  let workspacesGeneration = 0;
  let notices: Notices | undefined;
  let starting: Promise<Notices> | undefined;
  let closed = false;

  const forget = (payload: string) => {
    const [table, workspaceId] = payload.split(' ');
    workspacesGeneration++;
    workspaces.delete(workspaceId!);
    if (table === 'workspaces') return;
    keysGeneration++;
    for (const hash of [...keys.keys()]) if (keys.peek(hash)?.workspaceId === workspaceId) keys.delete(hash);
  };
  const start = () =>
    (starting ??= listenForNotices(url, AUTH_CHANNEL, {
      notice: forget,
      reset() {
        keysGeneration++;
        workspacesGeneration++;
        keys.clear();
        workspaces.clear();
      },
    }).then((n) => (notices = n)));
  const workspaceOf = async (q: Kysely<Database>, id: string): Promise<Workspace | undefined> => {
    const hit = workspaces.get(id);
    if (hit && hit.until > Date.now()) return hit.workspace;
    let read = reading.get(id);
    if (!read) {
      const started = workspacesGeneration;
      read = findWorkspaceById(q, id).then((workspace) => {
        if (workspace && started === workspacesGeneration && notices?.live) workspaces.set(id, { workspace, until: Date.now() + MAX_AGE_MS });
        return workspace;
      });
      reading.set(id, read);
      void read.finally(() => reading.delete(id)).catch(() => undefined);
    }
    return read;
  };

  return {
    async find(q, hash) {
      if (!notices?.live) {
        if (!closed) start().catch(() => undefined);
        return findKeyByHash(q, hash);
      }
      const hit = keys.get(hash);
      if (hit && hit.until > Date.now()) {
        const workspace = await workspaceOf(q, hit.workspaceId);
        if (workspace) return { key: hit.key, creatorRole: hit.creatorRole, workspace };
      }
      const startedKeys = keysGeneration;
      const startedWorkspaces = workspacesGeneration;
      const found = await findKeyByHash(q, hash);
      if (found && notices.live) {
        const until = Date.now() + MAX_AGE_MS;
        if (startedKeys === keysGeneration) keys.set(hash, { key: found.key, creatorRole: found.creatorRole, workspaceId: found.workspace.id, until });
        if (startedWorkspaces === workspacesGeneration) workspaces.set(found.workspace.id, { workspace: found.workspace, until });
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

/**
 * SQLite: keys remembered with the auth revision they were read at, good while it has not moved.
 * The calls that ask for the revision in one turn of the event loop (the requests read from the
 * sockets together) share one read of it, made after the last of them asked (setImmediate): it is
 * as fresh for each as a read of its own, one statement instead of one a call.
 */
function revisionCache(): KeyCache {
  const keys = new LRUCache<string, { found: KeyWithWorkspace; revision: number }>({ max: MAX_ENTRIES });
  /** The next read of the revision, not started yet: the calls asking meanwhile share it. */
  let next: { q: Kysely<Database>; read: Promise<number> } | undefined;
  const revisionOf = (q: Kysely<Database>): Promise<number> => {
    if (next?.q === q) return next.read;
    const read = new Promise<number>((resolve, reject) =>
      setImmediate(() => {
        // Started: a call asking from now on reads again (this read may not see what committed before it asked).
        if (next?.read === read) next = undefined;
        authRevision(q).then(resolve, reject);
      }),
    );
    next = { q, read };
    return read;
  };
  return {
    async find(q, hash) {
      // Read before the lookup: what the lookup reads is at least as new as the number it is kept with.
      const revision = await revisionOf(q);
      const hit = keys.get(hash);
      if (hit && hit.revision === revision) return hit.found;
      const found = await findKeyByHash(q, hash);
      if (found) keys.set(hash, { found, revision });
      else keys.delete(hash);
      return found;
    },
    ready: async () => undefined,
    close: async () => undefined,
  };
}
