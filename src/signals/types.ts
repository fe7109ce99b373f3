/**
 * The month-over-month signals a store can show (an account's signal history). The signal
 * registry (type, DuckDB SQL, plain-words detail) grows here; the API and the database read
 * the list from this module.
 */
export const SIGNAL_TYPES = [
  'ad_channel_added',
  'app_installed',
  'app_removed',
  'agentic_feature_adopted',
  'traffic_jump',
  'plan_changed',
  'store_entered',
  'store_exited',
] as const;

export type SignalType = (typeof SIGNAL_TYPES)[number];
