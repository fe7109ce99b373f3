/** Watches: the stores a workspace picks itself (self_directed) or watches for a named client. */
export const WATCH_TYPES = ['self_directed', 'client'] as const;

export type WatchType = (typeof WATCH_TYPES)[number];

/** Health of a watch, derived at every ingest from the watched stores; each change is one `watch.health_changed` event. */
export const WATCH_HEALTH = ['healthy', 'degraded', 'failing', 'paused'] as const;

export type WatchHealth = (typeof WATCH_HEALTH)[number];
