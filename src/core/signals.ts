/**
 * The month-over-month signals a store can show (an account's signal history). publish derives
 * them (panel/signals.ts), ingest loads them, scoring weighs them, and the API lists them: all
 * read the list from this module. Thresholds and wording live with the derivation.
 */
import type { AGENTIC_COLUMNS } from './panel-contract.js';

export const SIGNAL_TYPES = [
  'store_opened',
  'store_closed',
  'ad_channel_started',
  'ad_channel_stopped',
  'app_installed',
  'app_removed',
  'agentic_feature_adopted',
  'agentic_feature_dropped',
  'traffic_up',
  'traffic_down',
  'catalogue_growth',
  'revenue_jump',
  'plan_upgraded',
  'plan_downgraded',
] as const;

export type SignalType = (typeof SIGNAL_TYPES)[number];

/** An ad network's name in plain words, by the value a store's `ads` holds (`tiktok` → TikTok). */
export const NETWORK_NAMES: Readonly<Record<string, string>> = { meta: 'Meta', google: 'Google', tiktok: 'TikTok', pinterest: 'Pinterest' };

/** How a signal's text names each agentic-commerce feature. */
export const FEATURE_LABELS: Record<(typeof AGENTIC_COLUMNS)[number], string> = {
  llms_txt: 'llms.txt',
  product_schema: 'product schema markup',
  agent_checkout: 'agent checkout',
  mcp_server: 'an MCP server',
  ai_crawlers_allowed: 'AI crawler access',
};
