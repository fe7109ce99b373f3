/**
 * Watches: the managed watch (one per workspace: the service watches its best in-market
 * accounts, up to a capacity), self-directed watches (stores the workspace picks) and client
 * watches (a named client's stores). docs/watches.md says the same for users.
 */
export const WATCH_TYPES = ['managed', 'self_directed', 'client'] as const;

export type WatchType = (typeof WATCH_TYPES)[number];

/** The kinds a workspace adds itself (the managed watch is resized and cancelled instead). */
export const ADDABLE_WATCH_TYPES = ['self_directed', 'client'] as const;

export const WATCH_STATUSES = ['active', 'cancelled'] as const;

export type WatchStatus = (typeof WATCH_STATUSES)[number];

/** Health of a watch, derived at every ingest from the watched stores; each change is one `watch.health_changed` event. */
export const WATCH_HEALTH = ['healthy', 'degraded', 'failing', 'paused'] as const;

export type WatchHealth = (typeof WATCH_HEALTH)[number];

/** Stores one self-directed or client watch holds at most; the managed watch's capacity at most. */
export const WATCH_MAX_STORES = 1000;

/**
 * Self-directed and client watches a workspace holds at once (the managed watch is not counted).
 * Every check looks at every active watch of every workspace, so without a bound one key could
 * add watches until the checks of all workspaces crawl.
 */
export const WATCHES_MAX = 100;

/** Store ids one request adds at most. */
export const WATCH_ADD_MAX = 200;
