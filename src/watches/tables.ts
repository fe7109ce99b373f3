/**
 * Table types of the watches module: one shape for SQLite and PostgreSQL (booleans are 0/1
 * integers, JSON is text, machine times are epoch milliseconds, human times ISO strings).
 */
import type { WatchHealth, WatchStatus, WatchType } from './types.js';

/** A managed, self-directed or client watch (src/watches/). */
export interface WatchesTable {
  id: string;
  workspace_id: string;
  type: WatchType;
  /** The client's name (client watches only). */
  client_name: string | null;
  /** How many in-market accounts the managed watch holds (managed only). */
  capacity: number | null;
  status: WatchStatus;
  health: WatchHealth;
  health_reason: string;
  /** What the last check saw (ingested runs, stores, capacity, month); null: never checked. */
  generation: string | null;
  /** The latest ingested month of the last check. */
  checked_month: string | null;
  checked_at: string | null;
  /** The workspace id on its managed watch (unique: one per workspace); null otherwise. */
  managed_key: string | null;
  /** Creation order (epoch µs, bumped on ties). */
  seq: number;
  created_at: string;
  updated_at: string;
}

/** The stores a self-directed or client watch holds (the managed watch's come from the ranking). */
export interface WatchStoresTable {
  watch_id: string;
  store_id: string;
  added_at: string;
}

/** What changed in a watched store in a month (or, store_id null, in the watch's health). */
export interface WatchEventsTable {
  id: string;
  watch_id: string;
  month: string;
  store_id: string | null;
  domain: string | null;
  /** A signal type, `revenue_down`, `store_absent`, `data_stale`, `capacity_exceeded` or `health_changed`. */
  kind: string;
  /** The health level the change points to: healthy (informational), degraded or failing. */
  level: WatchHealth;
  detail: string;
  /** Which finding of the watch's month this is (its store, kind and subject, hashed); null for `health_changed`. */
  finding: string | null;
  created_at: string;
  /** When a later check of the same month no longer found it; null while it holds (and for `health_changed`). */
  ended_at: string | null;
}

/** Proof of one check: the month and run it read, the stores it checked, the health it found. */
export interface WatchReceiptsTable {
  id: string;
  watch_id: string;
  seq: number;
  month: string;
  run_id: string;
  /** JSON array of the store ids checked. */
  store_ids: string;
  health: WatchHealth;
  health_reason: string;
  checked_at: string;
}

/** The watches tables, by name: added to the workspace database (db/database.ts) below. */
export interface WatchesTables {
  watches: WatchesTable;
  watch_stores: WatchStoresTable;
  watch_events: WatchEventsTable;
  watch_receipts: WatchReceiptsTable;
}


declare module '../db/database.js' {
  // The watches tables join the workspace database (db/database.ts).
  interface Database extends WatchesTables {}
}
